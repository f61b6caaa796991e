// Issue 21 (versions half): an overwritten file keeps its previous content as a
// version. A version is a reference to an existing blob (the blob's ref_count
// counts it, so blob GC never frees it), charged to its owner's `used`.
// Retention is per group (max_versions, version_days). Who wrote a content
// (web, api, a WebDAV device, an app) is kept on the file and moves with the
// content into its version.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    // No foreign key: the file's batched purge (tree-batches.ts) deletes its versions and their refs itself.
    .addColumn('file_id', 'text', (c) => c.notNull())
    // null: the version was an empty file.
    .addColumn('blob_id', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text')
    // When this content was written (the file's modified time then).
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // When it stopped being the current content (retention counts from here).
    .addColumn('archived_at', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text')
    .execute();
  await db.schema.createIndex('file_versions_file').on('file_versions').columns(['file_id', 'archived_at']).execute();
  await db.schema.createIndex('file_versions_owner').on('file_versions').columns(['owner_id', 'archived_at']).execute();

  await db.schema.alterTable('groups').addColumn('max_versions', 'integer', (c) => c.notNull().defaultTo(10)).execute();
  await db.schema.alterTable('groups').addColumn('version_days', 'integer', (c) => c.notNull().defaultTo(30)).execute();
  await db.schema.alterTable('files').addColumn('content_source', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('source', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('source').execute();
  await db.schema.alterTable('files').dropColumn('content_source').execute();
  await db.schema.alterTable('groups').dropColumn('version_days').execute();
  await db.schema.alterTable('groups').dropColumn('max_versions').execute();
  await db.schema.dropTable('file_versions').execute();
}
