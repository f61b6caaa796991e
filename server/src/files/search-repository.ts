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

  /**
   * Live-looking rows (not the root, not a trashed top item) whose name
   * contains `q`: the person's own, and with `roots` (items of other trees
   * they reach, e.g. shared with them) the rows at and under those items.
   * Without roots the query is exactly the own-tree one.
   */
  search(ownerId: string, q: string, after: { name: string; id: string } | null, limit: number, roots: readonly string[] = []): Promise<FileRow[]> {
    const chars = [...q].length;
    return this.db
      .selectFrom('files')
      .selectAll()
      .where((eb) =>
        roots.length === 0
          ? eb('owner_id', '=', ownerId)
          : eb.or([
              eb('owner_id', '=', ownerId),
              sql<boolean>`files.id IN (
                with recursive reach as (
                  select id from files where id in (${sql.join(roots)})
                  union all
                  select f.id from files f join reach on f.parent_id = reach.id
                )
                select id from reach)`,
            ]),
      )
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
