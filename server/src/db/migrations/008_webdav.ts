// WebDAV (server/src/webdav): per-device accounts, dead properties and locks.
// Dead properties hang off a file row (they follow moves and renames and go
// with the row when it is deleted for good); locks name paths of the owner's
// tree, because RFC 4918 locks protect URLs (and may name an unmapped one).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('dav_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The public first part of the generated password: finds the row without trying every hash.
    .addColumn('key_id', 'text', (c) => c.notNull())
    // argon2id of the whole generated password.
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('root_path', 'text', (c) => c.notNull())
    .addColumn('readonly', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_accounts_user_key_idx').on('dav_accounts').columns(['user_id', 'key_id']).unique().execute();

  await db.schema
    .createTable('dav_properties')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    // Clark notation: {namespace}local-name.
    .addColumn('name', 'text', (c) => c.notNull())
    // The property element as XML (namespaces declared on it), returned as stored.
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_properties_pk', ['file_id', 'name'])
    .execute();

  await db.schema
    .createTable('dav_locks')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Absolute NFC path in the user's tree (not relative to an account's folder).
    .addColumn('path', 'text', (c) => c.notNull())
    // 0 or -1 (infinity).
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('exclusive', 'integer', (c) => c.notNull())
    .addColumn('owner_xml', 'text')
    .addColumn('timeout_s', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_user_idx').on('dav_locks').columns(['user_id', 'expires_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('dav_locks').ifExists().execute();
  await db.schema.dropTable('dav_properties').ifExists().execute();
  await db.schema.dropTable('dav_accounts').ifExists().execute();
}
