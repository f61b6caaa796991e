// Issue 33, numeric share ids for the sync clients (api-contract §14): the
// Android app parses a share's `id` as a long, and Cirrus's link and grant
// ids are text. `sync_share_numbers` maps a link's or a grant's id to a
// number, assigned the first time the OCS Share API shows the share and never
// reused (AUTOINCREMENT / an identity column), as sync_file_numbers does for
// items (042). One table serves both kinds (their ids are random and do not
// meet), so it has no foreign key; a number whose share is gone names
// nothing, which the API answers as it does any unknown share (404).
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  await db.schema
    .createTable('sync_share_numbers')
    .addColumn('number', sqlite ? 'integer' : 'bigint', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity()))
    .addColumn('share_id', 'text', (c) => c.notNull().unique())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sync_share_numbers').execute();
}
