// Issue 33, the Nextcloud and ownCloud sync clients (api-contract §14), all in
// one migration:
// - sync_tag_heads / sync_folder_tags: folder ETags that change exactly when
//   something beneath changes. They are folded from the change feed (021): a
//   row per folder path holds the last event beneath it (`seq`) and the last
//   time the folder itself arrived there (`stamp`, which counts for its whole
//   subtree); `applied_seq` is how far the feed was folded, `floor_seq` the
//   value of folders with no row (raised when events were pruned unfolded).
// - sync_checksums: the OC-Checksum a client sent, per immutable blob.
// - sync_transfers / sync_chunks: chunked uploads in progress.
// - sync_login_flows: Login Flow v2 between its start and the client's poll.
// - sync_devices: the client behind a WebDAV account and when it was last seen.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sync_tag_heads')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('applied_seq', 'bigint', (c) => c.notNull())
    .addColumn('floor_seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sync_folder_tags')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stamp', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sync_folder_tags_pk', ['user_id', 'path'])
    .execute();

  await db.schema
    .createTable('sync_checksums')
    .addColumn('blob_id', 'text', (c) => c.primaryKey().references('blobs.id').onDelete('cascade'))
    // e.g. "SHA1:0a4d…", as the client sent it (type upper-case).
    .addColumn('checksum', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sync_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The client's name for it (the folder under /remote.php/dav/uploads/<uid>/).
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('total_length', 'bigint')
    // Chunking v2: the Destination the client named on MKCOL.
    .addColumn('destination', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_transfers_user_name').on('sync_transfers').columns(['user_id', 'name']).unique().execute();
  await db.schema.createIndex('sync_transfers_updated').on('sync_transfers').column('updated_at').execute();
  await db.schema
    .createTable('sync_chunks')
    .addColumn('transfer_id', 'text', (c) => c.notNull().references('sync_transfers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // Where the bytes are kept until assembly (a staging object of the storage driver).
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_chunks_pk', ['transfer_id', 'name'])
    .execute();

  await db.schema
    .createTable('sync_login_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // SHA-256 of the poll token (the token itself is only the client's).
    .addColumn('poll_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('login_name', 'text')
    // The app password sealed with a key derived from the poll token, until the client polls once.
    .addColumn('sealed_password', 'text')
    .execute();
  await db.schema.createIndex('sync_login_flows_expires').on('sync_login_flows').column('expires_at').execute();

  await db.schema
    .createTable('sync_devices')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('dav_accounts.id').onDelete('cascade'))
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['sync_devices', 'sync_login_flows', 'sync_chunks', 'sync_transfers', 'sync_checksums', 'sync_folder_tags', 'sync_tag_heads']) {
    await db.schema.dropTable(t).execute();
  }
}
