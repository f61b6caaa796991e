// Media (issue 36): what was learnt once about each blob's picture, sound or
// video: the state of its thumbnail and metadata job, the metadata itself
// (JSON, as file/info returns it) and the columns the photo listing sorts and
// maps by. Kept per blob, like search_docs: copies share a blob, and a new
// version is a new blob, so nothing here goes stale.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('media_items')
    .addColumn('blob_id', 'text', (c) => c.primaryKey())
    // pending | done | failed | skipped (no media) | off (the type's tool is missing)
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'bigint')
    // image | heif | video | audio | pdf
    .addColumn('kind', 'text')
    // 1 when a thumbnail could be made (the cached source in the thumbnail folder)
    .addColumn('has_thumb', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('taken_at', 'bigint')
    // The photo listing's order: taken_at when known, else when the content was first stored (blobs.created_at)
    .addColumn('sort_at', 'bigint', (c) => c.notNull())
    .addColumn('lat', 'double precision')
    .addColumn('lon', 'double precision')
    .addColumn('meta', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_items_state_idx').on('media_items').columns(['state', 'lease_until']).execute();
  // The photo listing walks this newest first and joins each blob's files (files_blob_idx), stopping at a page.
  await db.schema.createIndex('media_items_sort_idx').on('media_items').columns(['sort_at', 'blob_id']).execute();
  // The map: only geotagged rows.
  await db.schema.createIndex('media_items_geo_idx').on('media_items').columns(['lat', 'lon']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('media_items').execute();
}
