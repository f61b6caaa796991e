// Issue 37: activity (api-contract §17). One row per change of an item, in
// the owner's terms (owner paths at the time), with who made it. It is not
// fanned out per viewer like the change feed (021/026): who may see a row is
// decided when it is read, from the grants and team folders as they are then,
// so a revoked grant takes the history with it and a new one brings it.
// `seq` orders events across owners (the Activity page merges several trees).
import { autoId, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('activity_events')
    .addColumn('seq', 'integer', autoId(db))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    // created | modified | moved | deleted | restored | version_restored | shared | unshared | link_downloaded | link_uploaded
    .addColumn('type', 'text', (c) => c.notNull())
    // Where the item was after the change (deleted: where it was), in the owner's tree.
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('old_path', 'text')
    .addColumn('is_dir', 'integer', (c) => c.notNull())
    // A person (no foreign key: the history outlives an account, shown without a name), or null: someone through a link.
    .addColumn('actor_id', 'text')
    // The name an anonymous uploader gave, if any.
    .addColumn('actor_name', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_events_owner').on('activity_events').columns(['owner_id', 'seq']).execute();
  await db.schema.createIndex('activity_events_file').on('activity_events').columns(['file_id', 'seq']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('activity_events').ifExists().execute();
}
