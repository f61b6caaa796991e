// Who wrote each content of a file (the person, besides the program in
// `content_source`): two writes a minute apart by two people sharing a folder
// must be told apart in the versions list (api-contract §13).
// - `files.content_author`: the user whose write made the current content;
// - `file_versions.author`: the same, kept when that content became a version;
// - `uploads.author`: the user sending an upload, until its bytes are placed.
// A user id without a foreign key: a version outlives its writer's account
// (then the name is unknown). null = written before this migration, or
// through an upload link (no account).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('files').addColumn('content_author', 'text').execute();
  await db.schema.alterTable('file_versions').addColumn('author', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('author', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('author').execute();
  await db.schema.alterTable('file_versions').dropColumn('author').execute();
  await db.schema.alterTable('files').dropColumn('content_author').execute();
}
