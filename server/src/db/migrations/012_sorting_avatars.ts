// Web app, second part (issue 8): folder listings sorted by size or
// modified date in either direction, keyset-paged, and people's avatars.
//
// A listing sorted by size reads `parent_id = ? AND kind = ? AND (size, name)
// > (?, ?) ORDER BY size, name`; these indexes answer that in order (and
// backwards for descending) on both dialects. Names descending use the
// existing (parent_id, kind, name) index backwards.
//
// Avatars are small (a 256-pixel WebP, a few KiB), so they live in the
// database: every instance sees the same picture whatever the storage driver.
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('files_list_size_idx').on('files').columns(['parent_id', 'kind', 'size', 'name']).execute();
  await db.schema.createIndex('files_list_updated_idx').on('files').columns(['parent_id', 'kind', 'updated_at', 'name']).execute();
  await db.schema
    .createTable('user_avatars')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('image', isSqlite(db) ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The avatar's version (null: initials), read with the user row the auth guard caches anyway.
  await db.schema.alterTable('users').addColumn('avatar_at', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('avatar_at').execute();
  await db.schema.dropTable('user_avatars').execute();
  await db.schema.dropIndex('files_list_updated_idx').execute();
  await db.schema.dropIndex('files_list_size_idx').execute();
}
