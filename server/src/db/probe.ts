// One cheap query before migrations, so that an unreachable or misconfigured
// database is reported as such (host, port, database and the driver's reason;
// never the password) instead of as a failed migration.
import { sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Db } from './database.js';

export class DatabaseUnavailableError extends Error {}

export async function probeDatabase(db: Db, config: DatabaseConfig): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    if (config.kind === 'postgres') {
      const url = new URL(config.url);
      const where = `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
      throw new DatabaseUnavailableError(`cannot connect to PostgreSQL at ${where}: ${reason(err)}`);
    }
    throw new DatabaseUnavailableError(`cannot open the SQLite database ${config.file}: ${reason(err)}`);
  }
}

/** Whether `init` (or a first `serve`) has run on this database: the master key exists. */
export async function isInitialized(db: Db): Promise<boolean> {
  try {
    const row = await db.selectFrom('settings').select('value').where('name', '=', 'secret_key').executeTakeFirst();
    return row !== undefined;
  } catch {
    // No settings table yet.
    return false;
  }
}

function reason(err: unknown): string {
  // net's AggregateError (every address refused) carries an empty message.
  if (err instanceof AggregateError && err.errors.length > 0) return reason(err.errors[err.errors.length - 1]);
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}

/** Rejects when the database does not answer (health). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
