// WebDAV dead properties are counted (issue 19): each row records its owner
// and its size in bytes (UTF-8 of name and value), so one person's total is
// one indexed sum, checked against a per-person cap on every PROPPATCH and
// COPY. Rows written before this migration get both from their file.
import { sql } from 'kysely';
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('dav_properties').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('dav_properties').addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  const octets = isSqlite(db)
    ? sql`length(CAST(name AS BLOB)) + length(CAST(value AS BLOB))`
    : sql`octet_length(name) + octet_length(value)`;
  await sql`UPDATE dav_properties SET user_id = (SELECT owner_id FROM files WHERE files.id = dav_properties.file_id), bytes = ${octets}`.execute(db);
  await db.schema.createIndex('dav_properties_user_idx').on('dav_properties').columns(['user_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('dav_properties_user_idx').execute();
  await db.schema.alterTable('dav_properties').dropColumn('bytes').execute();
  await db.schema.alterTable('dav_properties').dropColumn('user_id').execute();
}
