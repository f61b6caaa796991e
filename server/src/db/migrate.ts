import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { dialectOf, type Db } from './database.js';
import { migrations } from './migrations/index.js';

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? String(error)}`);
  }
}

/** pg_advisory_lock key of site initialization: "cirrus" as a number. */
export const INIT_LOCK = 0x6369727275;

/**
 * Runs `fn` (migrations and site initialization) while holding a PostgreSQL
 * advisory lock, so that several instances started at once against one empty
 * database run each migration exactly once and create one administrator: the
 * first takes the lock, the others wait and then find nothing left to do.
 * SQLite serializes writers itself (one file, one host).
 */
export async function withInitLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return fn();
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${INIT_LOCK})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`SELECT pg_advisory_unlock(${INIT_LOCK})`.execute(conn);
    }
  });
}
