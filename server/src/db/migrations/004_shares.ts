// Share links (server/src/shares). A share points at a file row by id, so it
// follows renames and moves; deleting the file for good deletes its shares
// (the foreign key), and a trashed file makes them answer 404 until restored.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    // argon2id; null when the share has no password.
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('download_limit', 'integer')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The owner's list and the admin's list, newest first, keyset-paginated.
  await db.schema.createIndex('shares_owner_idx').on('shares').columns(['owner_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('shares_created_idx').on('shares').columns(['created_at', 'id']).execute();
  // The cascade from files looks shares up by file.
  await db.schema.createIndex('shares_file_idx').on('shares').column('file_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('shares').ifExists().execute();
}
