// Content search (issue 35): the text of each blob, extracted in the
// background, and an index over it in the database already in use.
//
// Text is kept per blob, not per file: copies share a blob, and moves, trash,
// grants and revocations change only the tree, which the query joins at search
// time (files.blob_id -> search_docs.blob_id), so none of them rewrites the
// index. A doc whose blob is gone is removed by the indexer's sweep.
//
// - SQLite: the text lives in an FTS5 table with the trigram tokenizer
//   (case-insensitive, any script: Chinese of 3+ characters goes through the
//   index, shorter terms scan it), keyed by search_docs.doc_id.
// - PostgreSQL: the text is a column, with pg_trgm's GIN index for ILIKE
//   '%term%' when the extension can be had; without it the same query scans.
import { sql } from 'kysely';
import { autoId, isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  const sqlite = isSqlite(db);
  let table = db.schema
    .createTable('search_docs')
    .addColumn('doc_id', 'integer', autoId(db))
    .addColumn('blob_id', 'text', (c) => c.notNull().unique())
    // pending | indexed | failed | skipped (no extractor for the type)
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'bigint')
    .addColumn('source_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('text_chars', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull());
  if (!sqlite) table = table.addColumn('body', 'text');
  await table.execute();
  await db.schema.createIndex('search_docs_state_idx').on('search_docs').columns(['state', 'lease_until']).execute();
  // The query joins live files to their text by blob; the indexer finds blobs without a doc the same way.
  await db.schema.createIndex('files_blob_idx').on('files').column('blob_id').execute();

  if (sqlite) {
    await sql`CREATE VIRTUAL TABLE search_text USING fts5(body, tokenize='trigram case_sensitive 0')`.execute(db);
  } else {
    const available = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db);
    if ((available.rows[0]?.n ?? 0) > 0) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX search_docs_body_trgm ON search_docs USING gin (body gin_trgm_ops)`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) await sql`DROP TABLE IF EXISTS search_text`.execute(db);
  await db.schema.dropIndex('files_blob_idx').execute();
  await db.schema.dropTable('search_docs').execute();
}
