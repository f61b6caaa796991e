// The file tree (rows), blobs (immutable byte objects in a storage driver,
// shared by copies through a reference count), uploads in progress and each
// user's storage counters. See docs/features/files.md.
import { sql } from 'kysely';
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);

  await db.schema
    .createTable('blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('crc32', 'bigint', (c) => c.notNull())
    .addColumn('ref_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Garbage collection looks for unreferenced blobs only.
  await db.schema.createIndex('blobs_unreferenced_idx').on('blobs').column('id').where(sql.ref('ref_count'), '=', 0).execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    // null for a user's root folder and for items in the trash (detached from the tree).
    .addColumn('parent_id', 'text', (c) => c.references('files.id'))
    // Byte order on both dialects, so that keyset pagination and the index agree.
    .addColumn('name', 'text', (c) => (sqlite ? c.notNull() : c.notNull().modifyEnd(sql`collate "C"`)))
    // 0 = folder, 1 = file: listings put folders first by index order.
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blob_id', 'text', (c) => c.references('blobs.id'))
    .addColumn('mime_type', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('trashed_at', 'bigint')
    .addColumn('trashed_parent_id', 'text')
    .addColumn('trashed_path', 'text')
    .execute();
  // Name uniqueness per folder; also the listing index (folders first, then by name).
  await db.schema.createIndex('files_name_uq').on('files').columns(['parent_id', 'name']).unique().execute();
  await db.schema.createIndex('files_list_idx').on('files').columns(['parent_id', 'kind', 'name']).execute();
  await db.schema
    .createIndex('files_root_uq')
    .on('files')
    .column('owner_id')
    .unique()
    .where(sql<boolean>`parent_id is null and trashed_at is null`)
    .execute();
  await db.schema.createIndex('files_owner_trash_idx').on('files').columns(['owner_id', 'trashed_at', 'id']).execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_path', 'text', (c) => c.notNull())
    .addColumn('blob_id', 'text', (c) => c.notNull())
    .addColumn('length', 'bigint')
    .addColumn('upload_offset', 'bigint', (c) => c.notNull())
    .addColumn('crc32', 'bigint', (c) => c.notNull())
    .addColumn('reserved', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('lock_token', 'text')
    .addColumn('lock_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_expires_idx').on('uploads').column('expires_at').execute();
  await db.schema.createIndex('uploads_owner_idx').on('uploads').column('owner_id').execute();

  await db.schema
    .createTable('storage_usage')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addColumn('reserved', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['storage_usage', 'uploads', 'files', 'blobs']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
