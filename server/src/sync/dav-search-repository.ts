// The SQL of WebDAV SEARCH (dav-search.ts): the live items under a set of
// starting folders, walked by parent (a trashed item is detached from its
// parent, so nothing trashed or inside a trashed folder is reached), each
// with the path the person addresses it by, filtered by the query's
// condition, ordered and cut in the database. Both dialects: the walk is a
// recursive CTE and every comparison is plain SQL.
import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { FileRow } from '../files/rows.js';
import type { Condition, SearchOrder, SearchProperty } from './dav-search-query.js';

/** Where a search walks from: an item and the path the person addresses it by. */
export interface SearchSeed {
  id: string;
  path: string;
  /** Whether the item itself may be a result (the scope folder is not; a shared item found under it is). */
  itself: boolean;
  /** How many levels below it to walk (0: the item only). */
  levels: number;
}

/** A condition whose file ids the route has already mapped from the clients' numbers (undefined: names no item). */
export type ResolvedCondition =
  | Exclude<Condition, { op: 'and' | 'or' | 'not' }>
  | { op: 'and' | 'or'; of: ResolvedCondition[] }
  | { op: 'not'; of: ResolvedCondition };

const FOLDER_TYPE = 'httpd/unix-directory';

export class DavSearchRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = dialectOf(db) === 'postgres';
  }

  private column(prop: SearchProperty): RawBuilder<unknown> {
    switch (prop) {
      case 'name':
        return sql`f.name`;
      case 'type':
        // What DAV:getcontenttype answers: folders have Nextcloud's folder type.
        return sql`(CASE WHEN f.kind = 0 THEN ${FOLDER_TYPE} ELSE COALESCE(f.mime_type, 'application/octet-stream') END)`;
      case 'modified':
        return sql`f.updated_at`;
      case 'created':
        return sql`f.created_at`;
      case 'size':
        return sql`f.size`;
      case 'fileid':
        return sql`f.id`;
      case 'folder':
      case 'favorite':
        return sql`f.kind`;
    }
  }

  private compile(c: ResolvedCondition): RawBuilder<boolean> {
    switch (c.op) {
      case 'all':
        return sql<boolean>`1 = 1`;
      case 'and':
      case 'or':
        return sql<boolean>`(${sql.join(c.of.map((x) => this.compile(x)), sql.raw(c.op === 'and' ? ' AND ' : ' OR '))})`;
      case 'not':
        return sql<boolean>`(NOT ${this.compile(c.of)})`;
      case 'folder':
        return sql<boolean>`f.kind = 0`;
      default:
        break;
    }
    const { op, prop, value } = c;
    // Cirrus has no favourites: nothing is one.
    if (prop === 'favorite') return Number(value) === 0 ? sql<boolean>`1 = 1` : sql<boolean>`1 = 0`;
    if (prop === 'fileid') return value === '' ? sql<boolean>`1 = 0` : sql<boolean>`f.id = ${String(value)}`;
    const col = this.column(prop);
    if (op === 'like') {
      // Case-insensitive as Nextcloud's; the pattern's % and _ are the client's wildcards.
      return this.postgres ? sql<boolean>`lower(${col}) LIKE lower(${String(value)})` : sql<boolean>`${col} LIKE ${String(value)}`;
    }
    if (prop === 'modified' || prop === 'created') {
      // Times are compared to the second the clients see (getlastmodified has no milliseconds).
      const t = Number(value);
      const next = t + 1000;
      switch (op) {
        case 'eq':
          return sql<boolean>`(${col} >= ${t} AND ${col} < ${next})`;
        case 'lt':
          return sql<boolean>`${col} < ${t}`;
        case 'lte':
          return sql<boolean>`${col} < ${next}`;
        case 'gt':
          return sql<boolean>`${col} >= ${next}`;
        case 'gte':
          return sql<boolean>`${col} >= ${t}`;
      }
    }
    const v = prop === 'size' ? Number(value) : String(value);
    const cmp = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
    return sql<boolean>`${col} ${sql.raw(cmp)} ${v}`;
  }

  private order(orderBy: readonly SearchOrder[]): RawBuilder<unknown> {
    const parts = orderBy
      .filter((o) => o.prop !== 'favorite')
      .map((o) => sql`${o.prop === 'name' ? sql`f.sort_key` : this.column(o.prop)} ${sql.raw(o.descending ? 'DESC' : 'ASC')}`);
    if (orderBy.length === 0) parts.push(sql`f.sort_key ASC`);
    parts.push(sql`f.id ASC`);
    return sql.join(parts);
  }

  /** Up to `limit` items after `offset` under the seeds that pass `where`, in `orderBy` order, each with its path. */
  async find(seeds: readonly SearchSeed[], where: ResolvedCondition, orderBy: readonly SearchOrder[], limit: number, offset: number): Promise<{ row: FileRow; path: string }[]> {
    if (seeds.length === 0 || limit <= 0) return [];
    // PostgreSQL: a path is built from names (collate "C"), and both terms of the walk must agree.
    const collate = sql.raw(this.postgres ? ' COLLATE "C"' : '');
    const start = sql.join(
      seeds.map((s) => sql`SELECT id, CAST(${s.path} AS TEXT)${collate} AS path, 0 AS lvl, CAST(${s.levels} AS INTEGER) AS levels, CAST(${s.itself ? 1 : 0} AS INTEGER) AS itself FROM files WHERE id = ${s.id}`),
      sql.raw(' UNION ALL '),
    );
    const result = await sql<FileRow & { dav_path: string }>`
      WITH RECURSIVE under(id, path, lvl, levels, itself) AS (
        ${start}
        UNION ALL
        SELECT c.id, CASE WHEN u.path = '/' THEN '/' || c.name ELSE u.path || '/' || c.name END, u.lvl + 1, u.levels, 1
        FROM files c JOIN under u ON c.parent_id = u.id
        WHERE u.lvl < u.levels
      )
      SELECT f.*, under.path AS dav_path
      FROM under JOIN files f ON f.id = under.id
      WHERE under.itself = 1 AND ${this.compile(where)}
      ORDER BY ${this.order(orderBy)}
      LIMIT ${limit} OFFSET ${offset}
    `.execute(this.db);
    return result.rows.map(({ dav_path, ...row }) => ({ row: row as FileRow, path: dav_path }));
  }
}
