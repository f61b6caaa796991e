// Big tree operations in bounded batches (issue 19 item 8). A folder being
// deleted for good, or a copy being built, is a detached root row (no parent,
// `trashed_at` set, so no path reaches it) marked in `pending`: 1 = its rows
// are being deleted, 2 = a copy under construction. The batches of such a
// subtree each hold the writer briefly; the jobs runner finishes a deletion
// that a crash interrupted and removes a copy that was never revealed.
import type { AnyDb } from './util.js';
import { sql } from 'kysely';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('files').addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Only the few pending roots are in this index.
  await db.schema.createIndex('files_pending_idx').on('files').columns(['pending', 'updated_at']).where(sql<boolean>`pending <> 0`).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('files_pending_idx').execute();
  await db.schema.alterTable('files').dropColumn('pending').execute();
}
