import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['kind'];

// BIGINT (int8) columns hold millisecond timestamps and byte counts, all far
// below 2^53: read them as numbers, not strings.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function createDb(config: DatabaseConfig): Db {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    pool.on('error', () => {
      /* idle client errors are reported on the next query; do not crash */
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew on each query; the
 * service runs a small set of distinct SQL texts, so keeping their prepared
 * statements saves the parse-and-plan on every request (measured: about a
 * third of the CPU of a token refresh, docs/benchmarks.md). Safe because
 * better-sqlite3 runs statements synchronously, and re-prepares them itself
 * after a schema change. Statements are not shared with streaming queries
 * (the service does not stream from SQLite).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
