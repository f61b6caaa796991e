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

  async search(ownerId: string, rawQuery: string, pageSize: number, pageToken?: string, scope: SearchScope = 'all'): Promise<{ hits: SearchHit[]; nextPageToken: string | null }> {
    const q = rawQuery.normalize('NFC').trim();
    if (q.length === 0) throw badRequest('q: must not be empty');
    if ([...q].length > MAX_QUERY) throw badRequest(`q: at most ${MAX_QUERY} characters`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f]/.test(q)) throw badRequest('q: must not contain control characters');
    // The first page of a name search keeps the token form it always had (q alone).
    const key = scope === 'name' ? q : `${scope}:${q}`;
    const after = pageToken ? decodeToken(pageToken, key) : null;
    // Items of other trees the person reaches (shared with them), at the paths they address them by.
    const roots = new Map((await this.files.reachable(ownerId)).map((e) => [e.row.id, e]));
    const candidates = new Map<string, Candidate>();
    if (scope !== 'content') {
      for (const row of await this.repo.search(ownerId, q, after, pageSize + 1, [...roots.keys()])) candidates.set(row.id, { row });
    }
    if (scope !== 'name' && this.content) {
      for (const hit of await this.content.search(ownerId, q, roots, after, pageSize + 1)) candidates.set(hit.entry.row.id, { row: hit.entry.row, content: hit });
    }
    const ordered = [...candidates.values()].sort((a, b) => byKey(a.row, b.row));
    const page = ordered.slice(0, pageSize);
    const hits: SearchHit[] = [];
    for (const c of page) {
      if (c.content) {
        hits.push({ entry: c.content.entry, snippet: c.content.snippet });
        continue;
      }
      const entry = await this.nameEntry(ownerId, c.row, roots);
      if (entry) hits.push({ entry });
    }
    const last = page[page.length - 1]?.row;
    return { hits, nextPageToken: ordered.length > pageSize && last ? encodeToken(key, last) : null };
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
