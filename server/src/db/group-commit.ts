// Group commit for SQLite (decision 026): the compiled writes of every request
// handled in one turn of the event loop share one transaction.
//
// Each statement on its own is its own transaction: its own WAL frames (the
// same table and index pages written again for every request) and its own
// locks. That was most of SQLite's share of a code exchange. Grouped, the
// pages a turn's requests touch are written once, at one COMMIT.
import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/** What a grouped statement gave, and when it is durable. */
export interface GroupedResult<R> {
  rows: R[];
  changed: number;
  /** Resolves once the transaction holding the statement has committed; rejects if it did not. */
  committed: Promise<void>;
}

export interface GroupCommit {
  /**
   * Runs one statement now, inside the open group (opened if none is), and
   * commits the group in setImmediate. Call only where no other statement
   * can run meanwhile: inside Kysely's connection.
   */
  run<R>(sql: string, parameters: readonly unknown[]): GroupedResult<R>;
  /** Commits the open group now; every other statement on the connection calls this first. */
  flush(): void;
}

interface OpenGroup {
  committed: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

class GroupRolledBack extends Error {
  constructor() {
    super('the grouped transaction was rolled back');
  }
}

/**
 * The rules that keep grouping invisible to callers:
 * - a caller's answer waits for `committed`, so nothing is reported done
 *   that is not committed, and a group that fails fails all its callers;
 * - any other statement (Kysely's reads and writes, a transaction's BEGIN, a
 *   schema change) commits the open group first (`flush`), so no statement
 *   outside the group reads what the group has not committed;
 * - a statement that fails on its own (a constraint) is undone by SQLite
 *   alone and fails only its caller; an error that ends the transaction
 *   (SQLITE_FULL, an I/O error) fails the whole group.
 */
export function groupCommit(sqlite: SQLite.Database, statement: (sql: string) => SqliteStatement): GroupCommit {
  // IMMEDIATE: the write lock is taken (with busy_timeout) at BEGIN, so a
  // group never fails on upgrading a read lock that another process raced.
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');
  let open: OpenGroup | undefined;

  function flush(): void {
    const group = open;
    if (group === undefined) return;
    open = undefined;
    if (!sqlite.inTransaction) return group.reject(new GroupRolledBack());
    try {
      commit.run();
      group.resolve();
    } catch (err) {
      if (sqlite.inTransaction) rollback.run();
      group.reject(err);
    }
  }

  function start(): OpenGroup {
    begin.run();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Reported to each caller, who awaits `committed`; not an unhandled rejection besides.
    committed.catch(() => undefined);
    setImmediate(flush);
    return { committed, resolve, reject };
  }

  return {
    flush,
    run<R>(sql: string, parameters: readonly unknown[]): GroupedResult<R> {
      const stmt = statement(sql);
      // A transaction this module did not open (none is, inside Kysely's connection): run within it, as before.
      if (open === undefined && sqlite.inTransaction) return { ...execute<R>(stmt, parameters), committed: Promise.resolve() };
      open ??= start();
      const group = open;
      try {
        return { ...execute<R>(stmt, parameters), committed: group.committed };
      } catch (err) {
        // The error ended the transaction: the group's other statements are undone too.
        if (!sqlite.inTransaction) flush();
        throw err;
      }
    },
  };
}

/** A statement's rows (SELECT, RETURNING) and the rows it changed, as Kysely's SQLite driver reads them. */
function execute<R>(stmt: SqliteStatement, parameters: readonly unknown[]): { rows: R[]; changed: number } {
  if (stmt.reader) {
    const rows = stmt.all(parameters) as R[];
    return { rows, changed: rows.length };
  }
  return { rows: [], changed: Number(stmt.run(parameters).changes) };
}
