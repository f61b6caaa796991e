import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectOf } from '../database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was, not the current types
export type AnyDb = Kysely<any>;

export function isSqlite(db: AnyDb): boolean {
  return dialectOf(db) === 'sqlite';
}

/** An auto-assigned integer primary key on both dialects. */
export function autoId(db: AnyDb): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return isSqlite(db) ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey().generatedByDefaultAsIdentity();
}
