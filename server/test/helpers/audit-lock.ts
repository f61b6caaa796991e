// Takes the audit table away from a running server, as a stuck writer would:
// on PostgreSQL another connection holds LOCK TABLE … ACCESS EXCLUSIVE; SQLite
// locks the whole file rather than a table, so the table is renamed away
// instead (a lock would stop every writer, not just the audit's). The tests
// that audit writes never make a request fail or wait use it (issue 37).
import pg from 'pg';
import SQLite from 'better-sqlite3';
import type { DatabaseConfig } from '../../src/config.js';

/** Holds the audit table until the returned function is called. */
export async function holdAuditTable(database: DatabaseConfig): Promise<() => Promise<void>> {
  if (database.kind === 'postgres') {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await client.query('COMMIT');
      await client.end();
    };
  }
  const db = new SQLite(database.file, { fileMustExist: true, timeout: 5_000 });
  db.exec('alter table audit_log rename to audit_log_away');
  return async () => {
    db.exec('alter table audit_log_away rename to audit_log');
    db.close();
  };
}
