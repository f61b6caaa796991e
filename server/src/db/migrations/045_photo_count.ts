// Issue 36: GET /file/photos answers how many items the listing holds (the
// Photos page sizes its scrollbar by it). Counting the owner's picture and
// video files by files_owner_trash_idx read every file row (kind and type
// are not in it): 178 ms on PostgreSQL for 20,000 photos beside 20,000 other
// files on a loaded machine. This index holds all the count asks, so it is
// an index-only range scan on both databases.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('files_owner_kind_mime_idx').on('files').columns(['owner_id', 'kind', 'trashed_at', 'mime_type']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('files_owner_kind_mime_idx').execute();
}
