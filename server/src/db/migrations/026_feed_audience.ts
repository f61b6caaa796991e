// Issue 22: recipients' change feeds. `storage_usage.feed_audience` is 1 when
// someone besides the owner follows changes in the owner's tree (a grant to a
// person or group; later a team folder's members). It sits on the row every
// tree change already locks and reads (the tree lock), so a change in a tree
// nobody else sees costs no extra query to find that out.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('storage_usage').addColumn('feed_audience', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Owners who shared before this migration.
  await db
    .updateTable('storage_usage')
    .set({ feed_audience: 1 })
    .where('user_id', 'in', db.selectFrom('file_access').select('owner_id'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('storage_usage').dropColumn('feed_audience').execute();
}
