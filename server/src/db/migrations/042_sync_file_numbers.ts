// Issue 33, numeric file ids for the sync clients (api-contract §14): the
// Android and iOS apps parse `oc:fileid` as a long, and Cirrus's item ids are
// text. `sync_file_numbers` maps an item id to a number, assigned the first
// time a sync client sees the item and never reused (AUTOINCREMENT / an
// identity column). The item id survives rename, move, trash restore and
// version restore, so the number does too. A separate table, rather than a
// column of `files`, leaves every writer of `files` as it is; the row goes
// with the item (on delete cascade).
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  await db.schema
    .createTable('sync_file_numbers')
    // SQLite's AUTOINCREMENT needs the type INTEGER (64 bits there); PostgreSQL's long is bigint.
    .addColumn('number', sqlite ? 'integer' : 'bigint', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity()))
    .addColumn('file_id', 'text', (c) => c.notNull().unique().references('files.id').onDelete('cascade'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sync_file_numbers').execute();
}
