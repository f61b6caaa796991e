// Statements on the hottest paths (the token endpoint's code exchange and
// refresh), built with the query builder once and then run with new values.
//
// Building and compiling a Kysely query costs about as much CPU as SQLite
// takes to run it (decision 010, docs/benchmarks.md). A compiled statement
// keeps the SQL text and the position of each value, so a request only fills
// in the values; the dialect, the typed columns and the result type still
// come from the builder.
import type { Compilable, CompiledQuery, InferResult } from 'kysely';
import { groupCommitOf, prepareByName, type Db } from './database.js';

/** Marks where a named value goes; usable anywhere the builder takes a value. */
export type Slot<P> = <K extends keyof P & string>(name: K) => P[K];

export interface CompiledStatement<P, R> {
  /** The rows (of a SELECT or RETURNING) and the number of rows an INSERT, UPDATE or DELETE changed. */
  run(values: P): Promise<{ rows: R[]; changed: number }>;
}

/** The row type of a builder's results (never for a statement without RETURNING). */
type RowOf<B extends Compilable<unknown>> = InferResult<B> extends (infer Row)[] ? (Row extends { numAffectedRows: unknown } | { numInsertedOrUpdatedRows: unknown } | { numDeletedRows: unknown } ? never : Row) : never;

/**
 * Compiles `build` once. Each `slot(name)` stands for `values[name]` at run
 * time; everything else in the builder is fixed at compile time, so a value
 * that changes the SQL's shape (null vs a value for `IS NULL` / `=`, an
 * optional condition) must pick between separately compiled statements.
 * The values' type comes from the slot's annotation, the rows' from the builder:
 * `compileOnce(db, (v: Slot<{ id: string }>) => db.selectFrom(…))`.
 */
export function compileOnce<P extends object, B extends Compilable<unknown>>(db: Db, build: (slot: Slot<P>) => B): CompiledStatement<P, RowOf<B>> {
  type R = RowOf<B>;
  const marks = new Map<string, keyof P & string>();
  const slot: Slot<P> = (name) => {
    // Only ever compared with the compiled parameters, which otherwise hold the builder's own constants.
    const mark = `\u0000slot\u0000${name}\u0000`;
    marks.set(mark, name);
    return mark as unknown as P[typeof name];
  };
  const compiled: CompiledQuery<R> = build(slot).compile();
  prepareByName(compiled.sql);
  const plan: ({ name: keyof P & string } | { fixed: unknown })[] = compiled.parameters.map((p) => {
    const name = typeof p === 'string' ? marks.get(p) : undefined;
    return name !== undefined ? { name } : { fixed: p };
  });
  const used = new Set(plan.flatMap((s) => ('name' in s ? [s.name] : [])));
  for (const name of marks.values()) {
    // A slot the builder did not turn into a parameter (inlined, or dropped) would silently keep its mark.
    if (!used.has(name)) throw new Error(`compileOnce: slot ${name} is not a parameter of the compiled query`);
  }
  // Writes join SQLite's group commit (db/group-commit.ts); reads need no transaction.
  const group = /^\s*select\b/i.test(compiled.sql) ? undefined : groupCommitOf(db);
  return {
    async run(values) {
      const parameters = plan.map((s) => ('name' in s ? values[s.name] : s.fixed));
      if (group !== undefined) {
        // Inside Kysely's connection (its lock): no Kysely transaction is open while the statement runs.
        const res = await db.getExecutor().provideConnection(async () => group.run<R>(compiled.sql, parameters));
        await res.committed;
        return { rows: res.rows, changed: res.changed };
      }
      const res = await db.executeQuery<R>({ ...compiled, parameters });
      // SQLite's driver reads a RETURNING statement as a query and counts nothing: one row came back per row changed.
      return { rows: res.rows, changed: res.numAffectedRows !== undefined ? Number(res.numAffectedRows) : res.rows.length };
    },
  };
}
