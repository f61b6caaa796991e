// `npm run bench -- sqlite-rows`: what a folder listing's query costs on
// SQLite through Kysely, with the connection as it was before session 11 (a
// cache of prepared statements; better-sqlite3 builds the row objects) and
// with Cirrus's connection now (db/database.ts: the same cache, rows read as
// arrays and the objects built in JavaScript). Same file, the same query
// built the way files/repository.ts builds the listing, in one process, the
// two alternating; every row's fields are read, as a listing's renderer does.
// Settings: CIRRUS_BENCH_ROWS (500), CIRRUS_BENCH_ROWS_QUERIES (400), CIRRUS_BENCH_ROWS_ROUNDS (5).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { ROOT, fmt, table, envInt, median } from './lib.mjs';

const ROWS = envInt('CIRRUS_BENCH_ROWS', 500);
const QUERIES = envInt('CIRRUS_BENCH_ROWS_QUERIES', 400);
const ROUNDS = envInt('CIRRUS_BENCH_ROWS_ROUNDS', 5);

/** Reads every field of every row, so neither side can skip work. */
function touch(rows) {
  let n = 0;
  for (const r of rows) n += r.size + r.name.length + r.id.length + r.updated_at + (r.trashed_at ?? 0);
  return n;
}

export async function run() {
  const { createDb } = await import(pathToFileURL(path.join(ROOT, 'dist/server/src/db/database.js')).href);
  const { migrateToLatest } = await import(pathToFileURL(path.join(ROOT, 'dist/server/src/db/migrate.js')).href);
  const { Kysely, SqliteDialect } = await import('kysely');
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-rows-'));
  const file = path.join(dir, 'cirrus.db');
  const db = createDb({ kind: 'sqlite', file });
  const plain = new SQLite(file);
  // The connection before session 11: prepared statements cached by SQL text, rows as better-sqlite3 makes them.
  const cache = new Map();
  const before = new Kysely({
    dialect: new SqliteDialect({
      database: {
        prepare: (text) => cache.get(text) ?? cache.set(text, plain.prepare(text)).get(text),
        close: () => undefined,
      },
    }),
  });
  try {
    await migrateToLatest(db);
    const owner = randomUUID();
    const folder = randomUUID();
    const now = Date.now();
    // Straight into the table, foreign keys off on this connection: no user row is needed.
    plain.pragma('foreign_keys = OFF');
    const insert = plain.prepare('insert into files (id, owner_id, parent_id, name, kind, size, blob_id, mime_type, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    plain.transaction(() => {
      insert.run(folder, owner, null, 'rows', 2, 0, null, null, now, now);
      for (let i = 0; i < ROWS; i++) insert.run(randomUUID(), owner, folder, `file-${String(i).padStart(6, '0')}.txt`, 1, 1234 + i, randomUUID(), 'text/plain', now, now);
    })();
    // As FileRepository.listChildren builds it.
    const listing = (k) => k.selectFrom('files').selectAll().where('parent_id', '=', folder).orderBy('kind').orderBy('name').limit(ROWS + 1).execute();
    const sides = {
      'before: better-sqlite3 builds the row objects': async () => touch(await listing(before)),
      'now: rows as arrays, objects built in JS': async () => touch(await listing(db)),
    };
    const [a, b] = [await listing(before), await listing(db)];
    if (JSON.stringify(a) !== JSON.stringify(b) || a.length !== ROWS) throw new Error('the two connections disagree on the rows');
    const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    for (const fn of Object.values(sides)) for (let i = 0; i < 100; i++) await fn(); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
      for (const k of order) {
        const t0 = performance.now();
        for (let i = 0; i < QUERIES; i++) await sides[k]();
        times[k].push((performance.now() - t0) / QUERIES);
      }
    }
    const medians = Object.keys(sides).map((k) => median(times[k]));
    const [base, ours] = medians;
    const md =
      table(`SQLite listing query, ${fmt(ROWS)} rows × 13 columns (median of ${ROUNDS} rounds of ${QUERIES} queries, the order alternating)`, ['rows built by', 'ms per query', 'rounds, ms'], Object.keys(sides).map((k, i) => [k, fmt(medians[i], 3), times[k].map((t) => fmt(t, 2)).join(', ')])) +
      `\n\nNow ÷ before: **${fmt(ours / base, 2)}** of the time per query.`;
    return { ok: true, md };
  } finally {
    await before.destroy();
    plain.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
