// Issue 35, the index's upkeep made cheap:
// - "Still indexing" without walking a person's whole tree: content that has
//   no doc yet (written, not yet discovered by the indexer) is found from the
//   blobs written lately, by creation time, instead of an anti-join over
//   every file the person owns (78–240 ms at 10,000 files).
// - PostgreSQL: the text moves out of search_docs into search_bodies. Every
//   change of a queue row (claim, lease, requeue) wrote a new version of the
//   row, text included, and re-entered all its trigrams in the GIN index:
//   three times per document on a reindex (33 documents/s). The queue row is
//   now small and its updates leave the text and its index alone.
// - PostgreSQL: the text is kept lower-cased too (`folded`, lower() once at
//   indexing), matched with LIKE and indexed by pg_trgm. ILIKE lower-cased
//   every candidate's whole text again on each search: ~80 µs a document of
//   1.5 KB here, most of a search that matches thousands (LIKE: ~15 µs).
import { sql } from 'kysely';
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('blobs_created_idx').on('blobs').column('created_at').execute();
  if (isSqlite(db)) return;
  await db.schema
    .createTable('search_bodies')
    .addColumn('doc_id', 'integer', (c) => c.primaryKey().references('search_docs.doc_id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('folded', 'text', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO search_bodies (doc_id, body, folded) SELECT doc_id, body, lower(body) FROM search_docs WHERE body IS NOT NULL`.execute(db);
  await sql`DROP INDEX IF EXISTS search_docs_body_trgm`.execute(db);
  await db.schema.alterTable('search_docs').dropColumn('body').execute();
  const trgm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if ((trgm.rows[0]?.n ?? 0) > 0) await sql`CREATE INDEX search_bodies_trgm ON search_bodies USING gin (folded gin_trgm_ops)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isSqlite(db)) {
    await db.schema.alterTable('search_docs').addColumn('body', 'text').execute();
    await sql`UPDATE search_docs d SET body = b.body FROM search_bodies b WHERE b.doc_id = d.doc_id`.execute(db);
    await db.schema.dropTable('search_bodies').execute();
    const trgm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
    if ((trgm.rows[0]?.n ?? 0) > 0) await sql`CREATE INDEX search_docs_body_trgm ON search_docs USING gin (body gin_trgm_ops)`.execute(db);
  }
  await db.schema.dropIndex('blobs_created_idx').execute();
}
