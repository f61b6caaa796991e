// Issue 22: upload-request links. A share with upload_only = 1 receives files
// into its folder from people without an account and never lists it; its
// limits (bytes per file, files through the link) live on the share row. An
// upload through such a link names its share (uploads.share_id), so that
// finishing it places the file under a fresh name instead of overwriting, and
// every upload is recorded in share_uploads from its creation (it holds one of
// the link's max_files slots while in flight) to its completion (what the
// owner sees in the share's details).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('shares').addColumn('upload_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('shares').addColumn('max_file_size', 'bigint').execute();
  await db.schema.alterTable('shares').addColumn('max_files', 'integer').execute();
  await db.schema.alterTable('uploads').addColumn('share_id', 'text').execute();

  await db.schema
    .createTable('share_uploads')
    // The tus upload's id while in flight; kept as the record's id afterwards.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    // The name the uploader asked for; once placed, the name the file got.
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // The uploader's optional name, as typed.
    .addColumn('uploader', 'text')
    .addColumn('file_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Null while in flight.
    .addColumn('completed_at', 'bigint')
    // When the owner's notice mail covered it (null: not yet).
    .addColumn('notified_at', 'bigint')
    .execute();
  await db.schema.createIndex('share_uploads_share').on('share_uploads').columns(['share_id', 'completed_at']).execute();
  await db.schema.createIndex('share_uploads_unnotified').on('share_uploads').columns(['notified_at', 'completed_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('share_uploads').ifExists().execute();
  await db.schema.alterTable('uploads').dropColumn('share_id').execute();
  await db.schema.alterTable('shares').dropColumn('max_files').execute();
  await db.schema.alterTable('shares').dropColumn('max_file_size').execute();
  await db.schema.alterTable('shares').dropColumn('upload_only').execute();
}
