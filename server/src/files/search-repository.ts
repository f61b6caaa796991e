// SQL of name search (migration 010 made the indexes): SQLite's FTS5 trigram
// table for queries of 3+ characters, pg_trgm on PostgreSQL; shorter queries
// scan the person's rows. Keyset order: name (byte order on both), then id.
import { sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { FileRow } from './repository.js';

/** `%`, `_` and `\` taken literally in a LIKE pattern (ESCAPE '\'). */
function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One FTS5 phrase: the whole query as a substring (double quotes doubled). */
function ftsPhrase(q: string): string {
  return `"${q.replace(/"/g, '""')}"`;
}

export class SearchRepository {
  private readonly sqlite: boolean;
  constructor(private readonly db: Db) {
    this.sqlite = dialectOf(db) === 'sqlite';
  }

  /** Live-looking rows (not the root, not a trashed top item) whose name contains `q`. */
  search(ownerId: string, q: string, after: { name: string; id: string } | null, limit: number): Promise<FileRow[]> {
    const chars = [...q].length;
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('parent_id', 'is not', null)
      .where('trashed_at', 'is', null)
      .where(() => {
        if (this.sqlite && chars >= 3) return sql<boolean>`files.rowid IN (SELECT rowid FROM files_search WHERE files_search MATCH ${ftsPhrase(q)})`;
        if (this.sqlite) return sql<boolean>`files.name LIKE ${likeContains(q)} ESCAPE '\\'`;
        return sql<boolean>`lower(files.name COLLATE "default") LIKE lower(${likeContains(q)}) ESCAPE '\\'`;
      })
      .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(after!.name, after!.id))))
      .orderBy('name')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
