import { LRUCache } from 'lru-cache';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, type PostgresPool, type PostgresPoolClient, type SqliteDatabase, type SqliteStatement } from 'kysely';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { createRequire } from 'node:module';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';
import { groupCommit, type GroupCommit } from './group-commit.js';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['kind'];

let pgModule: typeof pg | undefined;

/**
 * The pg driver, loaded when the first PostgreSQL pool is made: a process on
 * SQLite never needs it, and it costs every process megabytes of memory.
 */
function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  pgModule = createRequire(import.meta.url)('pg') as typeof pg;
  // BIGINT (int8) columns hold millisecond timestamps and byte counts, all far
  // below 2^53: read them as numbers, not strings.
  pgModule.types.setTypeParser(20, (value: string) => Number(value));
  return pgModule;
}

/** Which database a Kysely instance talks to (any schema: migrations use it too). */
export function dialectOf<DB>(db: Kysely<DB>): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

const pools = new WeakMap<Db, pg.Pool>();

/**
 * Statements sent to the database since it was opened (BEGIN and COMMIT
 * included): the metrics' `cirrus_db_statements_total`, which is how the
 * benchmarks count what SQLite does (PostgreSQL also has pg_stat_database).
 */
const statementCounts = new WeakMap<Db, { n: number }>();

export function statementsRun(db: Db): number {
  return statementCounts.get(db)?.n ?? 0;
}

/** The PostgreSQL pool's connection counts (metrics); undefined on SQLite. */
export function poolStats(db: Db): { total: number; idle: number; waiting: number } | undefined {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined;
}

export function createDb(config: DatabaseConfig): Db {
  if (config.kind === 'postgres') {
    const pool = new (loadPg().Pool)({ connectionString: config.url, max: 10 });
    pool.on('error', () => {
      /* idle client errors are reported on the next query; do not crash */
    });
    const counter = { n: 0 };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, counter) }) });
    pools.set(db, pool);
    statementCounts.set(db, counter);
    return db;
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const counter = { n: 0 };
  const statements = withStatementCache(sqlite, counter);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements.forKysely }) });
  groupCommits.set(db, statements.group);
  statementCounts.set(db, counter);
  return db;
}

const groupCommits = new WeakMap<Db, GroupCommit>();

/** SQLite's group commit (db/group-commit.ts) for the compiled writes; undefined on PostgreSQL. */
export function groupCommitOf(db: Db): GroupCommit | undefined {
  return groupCommits.get(db);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew on each query; the
 * service runs a small set of distinct SQL texts, so keeping their prepared
 * statements saves the parse-and-plan on every request (decision 009). Safe because
 * better-sqlite3 runs statements synchronously, and re-prepares them itself
 * after a schema change. Statements are not shared with streaming queries
 * (the service does not stream from SQLite). A schema statement (CREATE,
 * ALTER, DROP: migrations) empties the cache, so no cached statement keeps
 * the column names of a table as it was.
 */
function withStatementCache(sqlite: SQLite.Database, counter: { n: number }): { forKysely: SqliteDatabase; group: GroupCommit } {
  const cache = new LRUCache<string, SqliteStatement>({ max: STATEMENT_CACHE_SIZE });
  // Both Kysely and the group commit take a statement right before running it once.
  const cached = (sql: string): SqliteStatement => {
    counter.n++;
    let stmt = cache.get(sql);
    if (stmt === undefined) {
      stmt = rowsBuiltHere(sqlite.prepare(sql));
      cache.set(sql, stmt);
    }
    return stmt;
  };
  const group = groupCommit(sqlite, cached);
  const forKysely: SqliteDatabase = {
    prepare(sql: string) {
      // Kysely prepares each statement right before it runs it: commit the open group first (group-commit.ts).
      group.flush();
      if (SCHEMA_CHANGE.test(sql)) {
        counter.n++;
        cache.clear();
        return sqlite.prepare(sql);
      }
      return cached(sql);
    },
    close() {
      group.flush();
      cache.clear();
      sqlite.close();
    },
  };
  return { forKysely, group };
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * A statement whose rows better-sqlite3 returns as arrays, made into objects
 * here. better-sqlite3 builds a row object through V8's C++ API one property
 * at a time, about 1 µs a value (nulls too); the same object built in
 * JavaScript from the array costs a fraction of that, and a listing of 500
 * files (13 columns) goes from 3.4 to 2.0 ms (docs/benchmarks.md). The
 * objects are the same: same keys in the same order, a later duplicate
 * column name winning as it does in better-sqlite3.
 */
function rowsBuiltHere(stmt: SQLite.Statement): SqliteStatement {
  if (!stmt.reader) return stmt;
  let names = stmt.columns().map((c) => c.name);
  stmt.raw(true);
  const toObject = (row: unknown[]): Record<string, unknown> => {
    // A table changed by another connection: better-sqlite3 re-prepared the statement, so read its columns again.
    if (row.length !== names.length) names = stmt.columns().map((c) => c.name);
    const o: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) o[names[i]!] = row[i];
    return o;
  };
  return {
    reader: true,
    all: (parameters) => (stmt.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const row of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

/** SQL texts run as named (server-side prepared) statements on PostgreSQL, and their names. */
const namedStatements = new Map<string, string>();

/**
 * Asks for `sql` to be prepared once per PostgreSQL connection and then only
 * bound and executed: for the compiled statements of the hot paths
 * (db/compiled.ts), whose parse and plan in the backend otherwise cost more
 * than their execution. The set is bounded by the code's own statements; the
 * name is derived from the text, so every instance agrees on it. SQLite
 * caches every statement already (withStatementCache).
 */
export function prepareByName(sql: string): void {
  if (!namedStatements.has(sql)) namedStatements.set(sql, `cirrus_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
}

/**
 * The pool as Kysely sees it, with the statements of prepareByName sent by
 * name. Those statements name their columns (no `*`): a prepared `SELECT *`
 * fails once another instance's migration adds a column.
 */
function withNamedStatements(pool: pg.Pool, counter: { n: number }): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (sql: string, parameters: readonly unknown[]) => {
        counter.n++;
        const name = namedStatements.get(sql);
        return name === undefined ? client.query(sql, [...parameters]) : client.query({ name, text: sql, values: [...parameters] });
      };
      // Kysely calls the cursor form of query() only when given a cursor class, which this service never does.
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}
