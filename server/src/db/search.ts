// Case-insensitive "contains" search that reads the same on SQLite and
// PostgreSQL (PostgreSQL's LIKE is case-sensitive, SQLite's is not for
// ASCII), with the keyword's own % and _ taken literally.
import { sql, type Expression, type SqlBool } from 'kysely';

export function containsInsensitive(column: string, keyword: string): Expression<SqlBool> {
  const escaped = keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`;
}

/** Case-insensitive "starts with", on both dialects, the prefix's own % and _ taken literally. */
export function startsWithInsensitive(column: string, prefix: string): Expression<SqlBool> {
  const escaped = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`${escaped}%`} escape '\\'`;
}

export type SortDirection = 'asc' | 'desc';
