// Chunks written in place (api-contract §14): a transfer's chunks are appended,
// when they can be, to one staging area of the transfer, its spool (an uploads
// row of kind 'spool', named by sync_transfers.spool_id); sync_chunks.spool_offset
// is where a chunk's bytes start in it. A chunk kept as an object of its own
// has none. When the chunks lie in the spool in order, the spool is the file
// and its assembly is a rename instead of a second write of every byte.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sync_transfers').addColumn('spool_id', 'text').execute();
  await db.schema.alterTable('sync_chunks').addColumn('spool_offset', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sync_chunks').dropColumn('spool_offset').execute();
  await db.schema.alterTable('sync_transfers').dropColumn('spool_id').execute();
}
