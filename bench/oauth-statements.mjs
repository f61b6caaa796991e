// Counts the SQL statements (and, on PostgreSQL, the round trips) that the
// token endpoint runs per request:
//   node bench/oauth-statements.mjs [sqlite|postgres] [requests]
// Starts the built server with a preload that wraps better-sqlite3's
// statements and pg's Client#query, runs `requests` code exchanges, Bearer
// refreshes and DPoP refreshes one at a time, and prints each statement's
// text with its count per request. Not timed: it is the count that matters.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cirrusTarget, exchangeWindow, refreshWindow } from './oauth.mjs';

const database = process.argv[2] ?? 'sqlite';
const requests = Number(process.argv[3] ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-stmts-'));
const countsFile = path.join(dir, 'counts.json');
const nm = path.resolve(import.meta.dirname, '../node_modules');

const preload = path.join(dir, 'statements-preload.mjs');
// SIGUSR2 writes the counts since the previous signal and starts afresh.
writeFileSync(
  preload,
  `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(${JSON.stringify(`${nm}/`)});
let counts = new Map();
const note = (sql) => counts.set(sql, (counts.get(sql) ?? 0) + 1);
const Database = require('better-sqlite3');
const probe = new Database(':memory:');
const Statement = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();
for (const m of ['run', 'all', 'get', 'iterate']) {
  const orig = Statement[m];
  Statement[m] = function (...args) { note(this.source); return orig.apply(this, args); };
}
const pg = require('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  note(typeof config === 'string' ? config : config.text);
  return query.call(this, config, ...rest);
};
process.on('SIGUSR2', () => {
  writeFileSync(process.env.CIRRUS_STATEMENTS_FILE, JSON.stringify([...counts]));
  counts = new Map();
});
`,
);

const t = await cirrusTarget(database, { NODE_OPTIONS: `--import=${preload}`, CIRRUS_STATEMENTS_FILE: countsFile });
const snapshot = async () => {
  process.kill(t.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 300));
  return new Map(JSON.parse(readFileSync(countsFile, 'utf8')));
};
const report = (label, counts, n) => {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${label}: ${(total / n).toFixed(2)} statements per request (${n} requests)`);
  for (const [sql, c] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${(c / n).toFixed(2)}  ${sql.replace(/\s+/g, ' ').slice(0, 220)}`);
};
try {
  // Warm up: the caches (client, throttle's clean keys, user) fill as they would under load.
  const warm = await exchangeWindow(t, await t.mint(100), 1);
  const codes = await t.mint(requests);
  await snapshot();
  const ex = await exchangeWindow(t, codes, 60);
  report('code exchange', await snapshot(), ex.total);
  const ref = await refreshWindow(t, warm.refreshTokens.slice(0, 20), 1);
  report('refresh (Bearer)', await snapshot(), ref.total);
  const dp = await refreshWindow(t, ex.refreshTokens.slice(0, 20), 1, {}, true);
  report('refresh (DPoP)', await snapshot(), dp.total);
} finally {
  await t.stop();
}
