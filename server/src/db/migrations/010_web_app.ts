// Web app (issue 8): the browser and address of each session family (the
// sessions list in Settings), and a name index for file search.
//
// Search must find any part of a name, case-insensitively, in any script
// (Chinese, Cyrillic…), at 100,000 files per person. A B-tree cannot answer
// `%part%`; trigram indexes can:
// - SQLite: an FTS5 table with the trigram tokenizer (case-insensitive,
//   Unicode), external content = files (keyed by rowid), kept in step by
//   triggers. (A VACUUM may renumber files' rowids; run
//   `INSERT INTO files_search(files_search) VALUES('rebuild')` after one.)
// - PostgreSQL: pg_trgm's GIN index on lower(name) in the database's
//   collation (the column itself is byte-ordered "C", whose lower() is ASCII
//   only). Without the extension, search still works, by a scan.
import { sql } from 'kysely';
import { isSqlite, type AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  // A table of its own (not columns of sessions): the token hot path reads
  // sessions with compiled, column-listed statements and never needs these.
  await db.schema
    .createTable('session_clients')
    .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();

  if (isSqlite(db)) {
    await sql`CREATE VIRTUAL TABLE files_search USING fts5(name, content='files', content_rowid='rowid', tokenize='trigram case_sensitive 0')`.execute(db);
    await sql`CREATE TRIGGER files_search_ai AFTER INSERT ON files BEGIN
      INSERT INTO files_search(rowid, name) VALUES (new.rowid, new.name);
    END`.execute(db);
    await sql`CREATE TRIGGER files_search_ad AFTER DELETE ON files BEGIN
      INSERT INTO files_search(files_search, rowid, name) VALUES ('delete', old.rowid, old.name);
    END`.execute(db);
    await sql`CREATE TRIGGER files_search_au AFTER UPDATE OF name ON files BEGIN
      INSERT INTO files_search(files_search, rowid, name) VALUES ('delete', old.rowid, old.name);
      INSERT INTO files_search(rowid, name) VALUES (new.rowid, new.name);
    END`.execute(db);
    await sql`INSERT INTO files_search(files_search) VALUES ('rebuild')`.execute(db);
  } else {
    const available = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db);
    if ((available.rows[0]?.n ?? 0) > 0) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX files_name_trgm ON files USING gin (lower(name COLLATE "default") gin_trgm_ops)`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) {
    for (const t of ['files_search_ai', 'files_search_ad', 'files_search_au']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db);
    await sql`DROP TABLE IF EXISTS files_search`.execute(db);
  } else {
    await sql`DROP INDEX IF EXISTS files_name_trgm`.execute(db);
  }
  await db.schema.dropTable('session_clients').execute();
}
