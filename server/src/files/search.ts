// Search across a person's whole tree (GET /api/v4/file/search), and inside
// the items of other trees they reach (shared with them, team folders),
// answered at their paths, keyset-paged in name order:
// - by name: case-insensitive, any script, indexed (search-repository.ts).
//   Items inside a trashed folder are not live and are left out
//   (FilesService.getById decides).
// - by content: the text inside documents, through the ContentPort that
//   search/ installs (its query filters by permission itself); each such hit
//   carries a snippet.
// scope=all merges both pages by the same (name, id) key.
import { DomainError, badRequest } from '../core/errors.js';
import type { SearchRepository } from './search-repository.js';
import type { FilesService } from './service.js';
import type { FileRow } from './repository.js';
import type { Entry } from './tree.js';

export const MAX_QUERY = 200;

export type SearchScope = 'name' | 'content' | 'all';

/** What kind of item a search may be narrowed to (the web app's type filter). */
export const SEARCH_TYPES = ['folder', 'document', 'pdf', 'image', 'video', 'audio'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface SearchFilter {
  type?: SearchType;
  /** Only items modified at or after this time (ms since the epoch). */
  modifiedAfter?: number;
}

/** Word processing, spreadsheets, presentations (OOXML, ODF, legacy Office), RTF and plain text of any kind. */
const DOCUMENT_MIME = /^text\/|^application\/(msword|rtf|vnd\.ms-(excel|powerpoint)|vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)|json|xml|x-yaml)/;
const DOCUMENT_NAME = /\.(txt|md|markdown|rst|csv|tsv|log|docx?|xlsx?|pptx?|odt|ods|odp|rtf)$/i;

export function typeOf(row: Pick<FileRow, 'kind' | 'mime_type' | 'name'>): SearchType | 'other' {
  if (row.kind === 0) return 'folder';
  const m = row.mime_type ?? '';
  if (m === 'application/pdf') return 'pdf';
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (DOCUMENT_MIME.test(m) || DOCUMENT_NAME.test(row.name)) return 'document';
  return 'other';
}

function passes(row: FileRow, filter: SearchFilter): boolean {
  if (filter.type && typeOf(row) !== filter.type) return false;
  if (filter.modifiedAfter !== undefined && Number(row.updated_at) < filter.modifiedAfter) return false;
  return true;
}

/** Pages of candidates one filtered page may look through before it answers short (with a token to go on). */
const MAX_ROUNDS = 10;

export interface ContentHit {
  entry: Entry;
  docId: number;
  /** HTML: the text around the match with <mark> around it, everything else escaped. */
  snippet: string;
}

/** Content search as files' search uses it (search/service.ts ContentSearch). */
export interface ContentPort {
  /**
   * Up to `limit` live files the person may read whose text matches `q`, in
   * (name, id) byte order after `after`; `roots` are the other trees' items
   * they reach by id (reachable()).
   */
  search(ownerId: string, q: string, roots: ReadonlyMap<string, Entry>, after: { name: string; id: string } | null, limit: number): Promise<ContentHit[]>;
  /** How many of the person's own files wait for their text to be extracted. */
  pending(ownerId: string): Promise<number>;
}

export interface SearchHit {
  entry: Entry;
  snippet?: string;
}

function encodeToken(key: string, last: { name: string; id: string }): string {
  return Buffer.from(JSON.stringify([key, last.name, last.id]), 'utf8').toString('base64url');
}

function decodeToken(token: string, key: string): { name: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('next_page_token: is not a token from this search');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== key || typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string') {
    throw badRequest('next_page_token: is not a token from this search');
  }
  return { name: parsed[1], id: parsed[2] };
}

/** The order both databases page in: names by UTF-8 bytes, then ids. */
function byKey(a: FileRow, b: FileRow): number {
  return Buffer.compare(Buffer.from(a.name, 'utf8'), Buffer.from(b.name, 'utf8')) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

type Candidate = { row: FileRow; content?: ContentHit };

export class FileSearch {
  private content: ContentPort | null = null;

  constructor(
    private readonly repo: SearchRepository,
    private readonly files: FilesService,
  ) {}

  /** Installed by search/ at start-up; without it scope=content finds nothing and scope=all is by name. */
  useContent(port: ContentPort): void {
    this.content = port;
  }

  /**
   * One page of results. With a filter, candidates that do not pass are
   * skipped and further candidate pages are read (up to MAX_ROUNDS) to fill
   * the page; the token then continues after the last candidate looked at.
   * `indexingPending` (content scopes, first page only): the person's own
   * files whose text is not extracted yet, so "no results" can say so.
   */
  async search(
    ownerId: string,
    rawQuery: string,
    pageSize: number,
    pageToken?: string,
    scope: SearchScope = 'all',
    filter: SearchFilter = {},
  ): Promise<{ hits: SearchHit[]; nextPageToken: string | null; indexingPending?: number }> {
    const q = rawQuery.normalize('NFC').trim();
    if (q.length === 0) throw badRequest('q: must not be empty');
    if ([...q].length > MAX_QUERY) throw badRequest(`q: at most ${MAX_QUERY} characters`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f]/.test(q)) throw badRequest('q: must not contain control characters');
    // The first page of a name search keeps the token form it always had (q alone).
    const filtered = filter.type !== undefined || filter.modifiedAfter !== undefined;
    const key = [scope === 'name' ? q : `${scope}:${q}`, ...(filtered ? [`${filter.type ?? ''}:${filter.modifiedAfter ?? ''}`] : [])].join('\u0000');
    let after = pageToken ? decodeToken(pageToken, key) : null;
    // Items of other trees the person reaches (shared with them), at the paths they address them by.
    const roots = new Map((await this.files.reachable(ownerId)).map((e) => [e.row.id, e]));
    const hits: SearchHit[] = [];
    let more = false;
    for (let round = 0; round < MAX_ROUNDS && hits.length < pageSize; round++) {
      const want = pageSize - hits.length;
      const candidates = new Map<string, Candidate>();
      if (scope !== 'content') {
        for (const row of await this.repo.search(ownerId, q, after, want + 1, [...roots.keys()])) candidates.set(row.id, { row });
      }
      if (scope !== 'name' && this.content) {
        for (const hit of await this.content.search(ownerId, q, roots, after, want + 1)) candidates.set(hit.entry.row.id, { row: hit.entry.row, content: hit });
      }
      const ordered = [...candidates.values()].sort((a, b) => byKey(a.row, b.row));
      const page = ordered.slice(0, want);
      for (const c of page) {
        if (!passes(c.row, filter)) continue;
        if (c.content) {
          hits.push({ entry: c.content.entry, snippet: c.content.snippet });
          continue;
        }
        const entry = await this.nameEntry(ownerId, c.row, roots);
        if (entry) hits.push({ entry });
      }
      more = ordered.length > want;
      const last = page[page.length - 1]?.row;
      if (!more || !last) break;
      after = { name: last.name, id: last.id };
    }
    const nextPageToken = more && after ? encodeToken(key, after) : null;
    if (scope === 'name' || !this.content || pageToken) return { hits, nextPageToken };
    return { hits, nextPageToken, indexingPending: await this.content.pending(ownerId) };
  }

  /** A name match's entry at the person's path, or null when it is not live (under a trashed folder, removed since). */
  private async nameEntry(ownerId: string, row: FileRow, roots: ReadonlyMap<string, Entry>): Promise<Entry | null> {
    try {
      // Under one of the roots (the query said so); its path in the person's terms, or not a result if it moved out since.
      if (row.owner_id !== ownerId) {
        const path = await this.files.pathWithin(row, roots);
        return path === null ? null : { row, path };
      }
      return await this.files.getById(ownerId, row.id);
    } catch (err) {
      if (!(err instanceof DomainError && err.kind === 'not_found')) throw err;
      return null;
    }
  }
}
