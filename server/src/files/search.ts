// Search by name across a person's whole tree (GET /api/v4/file/search), and
// inside the items of other trees they reach (shared with them), answered at
// their paths: case-insensitive, any script, indexed, keyset-paged. Items inside a trashed
// folder are not live and are left out (FilesService.getById decides).
import { DomainError, badRequest } from '../core/errors.js';
import type { SearchRepository } from './search-repository.js';
import type { FilesService } from './service.js';
import type { Entry } from './tree.js';

export const MAX_QUERY = 200;

function encodeToken(q: string, last: { name: string; id: string }): string {
  return Buffer.from(JSON.stringify([q, last.name, last.id]), 'utf8').toString('base64url');
}

function decodeToken(token: string, q: string): { name: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('next_page_token: is not a token from this search');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== q || typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string') {
    throw badRequest('next_page_token: is not a token from this search');
  }
  return { name: parsed[1], id: parsed[2] };
}

export class FileSearch {
  constructor(
    private readonly repo: SearchRepository,
    private readonly files: FilesService,
  ) {}

  async search(ownerId: string, rawQuery: string, pageSize: number, pageToken?: string): Promise<{ entries: Entry[]; nextPageToken: string | null }> {
    const q = rawQuery.normalize('NFC').trim();
    if (q.length === 0) throw badRequest('q: must not be empty');
    if ([...q].length > MAX_QUERY) throw badRequest(`q: at most ${MAX_QUERY} characters`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f]/.test(q)) throw badRequest('q: must not contain control characters');
    const after = pageToken ? decodeToken(pageToken, q) : null;
    // Items of other trees the person reaches (shared with them), at the paths they address them by.
    const roots = new Map((await this.files.reachable(ownerId)).map((e) => [e.row.id, e]));
    const rows = await this.repo.search(ownerId, q, after, pageSize + 1, [...roots.keys()]);
    const page = rows.slice(0, pageSize);
    const entries: Entry[] = [];
    for (const row of page) {
      try {
        if (row.owner_id !== ownerId) {
          // Under one of the roots (the query said so); its path in the person's terms, or not a result if it moved out since.
          const path = await this.files.pathWithin(row, roots);
          if (path !== null) entries.push({ row, path });
          continue;
        }
        entries.push(await this.files.getById(ownerId, row.id));
      } catch (err) {
        // Under a trashed folder, or removed since: not a result.
        if (!(err instanceof DomainError && err.kind === 'not_found')) throw err;
      }
    }
    const last = page[page.length - 1];
    return { entries, nextPageToken: rows.length > pageSize && last ? encodeToken(q, last) : null };
  }
}
