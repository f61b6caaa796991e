// Idle change-feed streams must not stall other clients (issue 32). One
// Cirrus per database (`npm start`'s node flags, default limits), and for
// each window of WINDOW_S seconds: another client's GET /site/ping every
// 20 ms (its p99 and max), the statements the server sent
// (`cirrus_db_statements_total` on /metrics, BEGIN/COMMIT included) and, on
// PostgreSQL, the committed transactions of its database (pg_stat_database
// xact_commit). Windows: no stream (the baseline of the same run); STREAMS
// opened by one account (its limit holds, the rest are refused with 429);
// STREAMS held by USERS accounts (STREAMS / USERS each, within the limits).
// A window starts after the user cache's 3 s have passed at least twice.
// npm run bench -- stream-budget
//   (CIRRUS_BENCH_BUDGET_STREAMS, CIRRUS_BENCH_BUDGET_USERS, CIRRUS_BENCH_BUDGET_DATABASES=sqlite,postgres)
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ROOT, api, envInt, fmt, signIn, startCirrus, table } from './lib.mjs';

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist/server/src', p)).href);

const STREAMS = envInt('CIRRUS_BENCH_BUDGET_STREAMS', 5000);
const USERS = envInt('CIRRUS_BENCH_BUDGET_USERS', 500);
const WINDOW_S = envInt('CIRRUS_BENCH_BUDGET_WINDOW_S', 8);
const DATABASES = (process.env.CIRRUS_BENCH_BUDGET_DATABASES ?? 'sqlite,postgres').split(',');
const METRICS = 'stream-budget-bench-metrics-token';
const TARGET_P99_MS = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens one stream; resolves with the request once its first bytes came (200), or with the status when refused. */
function openStream(url, token) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/v4/file/events`, { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, req }));
        return;
      }
      res.once('data', () => resolve({ status: 200, req }));
      res.on('data', () => undefined);
    });
    req.on('error', () => resolve({ status: 0, req }));
  });
}

/** Opens `tokens.length` streams, `parallel` at a time. */
async function openAll(url, tokens, parallel = 50) {
  const out = [];
  for (let i = 0; i < tokens.length; i += parallel) out.push(...(await Promise.all(tokens.slice(i, i + parallel).map((t) => openStream(url, t)))));
  return out;
}

async function statements(url) {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('cirrus_db_statements_total '));
  return Number(line?.split(' ')[1] ?? NaN);
}

async function xactCommits(client, dbName) {
  if (!client) return NaN;
  const r = await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [dbName]);
  return Number(r.rows[0].xact_commit);
}

/** WINDOW_S seconds of pings from another client, with the database's counters around them. */
async function measure(server, pgClient, dbName) {
  const s0 = await statements(server.url);
  const x0 = await xactCommits(pgClient, dbName);
  const t0 = performance.now();
  const lat = [];
  while (performance.now() - t0 < WINDOW_S * 1000) {
    const a = performance.now();
    const res = await fetch(`${server.url}/api/v4/site/ping`);
    await res.text();
    lat.push(performance.now() - a);
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  const s1 = await statements(server.url);
  const x1 = await xactCommits(pgClient, dbName);
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { p50: q(0.5), p99: q(0.99), max: lat[lat.length - 1], stmtPerS: (s1 - s0) / seconds, xactPerS: (x1 - x0) / seconds, pings: lat.length };
}

/**
 * `count` accounts and a first-party access token of a session family for
 * each. Signing each in through the API costs an argon2 hash and verify per
 * account (about half a second each on the shared machine: minutes for 500),
 * so one account is made through the API and the others are copies of its
 * row under new ids and addresses, on a second connection through the built
 * services; their tokens come from SessionService.startFamily, the code a
 * sign-in ends with, so they are what a sign-in hands out.
 */
async function people(server, admin, count, prefix) {
  const made = await api(server.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email: `${prefix}-model@example.com`, password: 'bench-password-123' } });
  if (made.status !== 200) throw new Error(`create user: ${JSON.stringify(made.body)}`);
  const [{ loadConfig }, { createServices }, { shortId }] = await Promise.all([dist('config.js'), dist('services.js'), dist('crypto/random.js')]);
  const config = loadConfig({ CIRRUS_DATA_DIR: server.dataDir, CIRRUS_LOG_LEVEL: 'silent', ...(server.databaseUrl ? { CIRRUS_DATABASE_URL: server.databaseUrl } : {}) });
  const services = await createServices(config, { initialize: false });
  try {
    const model = await services.db.selectFrom('users').selectAll().where('id', '=', made.body.data.id).executeTakeFirstOrThrow();
    const tokens = [];
    for (let i = 0; i < count; i++) {
      const id = shortId(10);
      await services.db.insertInto('users').values({ ...model, id, email: `${prefix}-${i}@example.com`, nickname: `${prefix}-${i}` }).execute();
      tokens.push((await services.sessions.startFamily(id)).pair.access_token);
    }
    return tokens;
  } finally {
    await services.close();
  }
}

async function runOn(database) {
  const server = await startCirrus({ database, env: { CIRRUS_METRICS_TOKEN: METRICS } });
  let pgClient;
  const dbName = server.databaseUrl ? new URL(server.databaseUrl).pathname.slice(1) : undefined;
  const held = [];
  try {
    if (server.databaseUrl) {
      pgClient = new pg.Client({ connectionString: process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
      await pgClient.connect();
    }
    const admin = (await signIn(server.url)).access_token;
    const setup0 = performance.now();
    const [heavy] = await people(server, admin, 1, 'heavy');
    const many = await people(server, admin, USERS, 'many');
    const setupS = (performance.now() - setup0) / 1000;
    await sleep(7000);
    const rows = [];
    const row = (what, m, base, extra) =>
      rows.push([what, extra, `${fmt(m.p50, 1)} / **${fmt(m.p99, 1)}** / ${fmt(m.max, 1)} ms`, base ? `${fmt(m.p99 / base.p99, 2)}×` : '1×', fmt(m.stmtPerS, 1), database === 'postgres' ? fmt(m.xactPerS, 1) : '–']);

    const base = await measure(server, pgClient, dbName);
    row('no streams (baseline)', base, undefined, '–');

    // One account tries STREAMS streams on one token.
    const one = await openAll(server.url, Array(STREAMS).fill(heavy));
    held.push(...one.map((o) => o.req));
    const accepted = one.filter((o) => o.status === 200).length;
    const refused = one.filter((o) => o.status === 429).length;
    await sleep(7000);
    const mOne = await measure(server, pgClient, dbName);
    row(`${fmt(STREAMS)} opened by 1 account`, mOne, base, `${accepted} held, ${refused} refused (429)`);
    for (const r of held.splice(0)) r.destroy();
    await sleep(1000);

    // STREAMS / USERS streams for each of USERS accounts.
    const each = Math.ceil(STREAMS / USERS);
    const spread = await openAll(server.url, many.flatMap((t) => Array(each).fill(t)));
    held.push(...spread.map((o) => o.req));
    const spreadHeld = spread.filter((o) => o.status === 200).length;
    await sleep(7000);
    const mMany = await measure(server, pgClient, dbName);
    row(`${fmt(spread.length)} held by ${fmt(USERS)} accounts`, mMany, base, `${spreadHeld} held, ${spread.length - spreadHeld} refused`);
    const ok = Math.max(mOne.p99, mMany.p99) < TARGET_P99_MS && spreadHeld === spread.length && accepted <= 50;
    const title = `Idle change-feed streams and another client's ping (${database === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${WINDOW_S} s windows; setup of ${USERS + 1} accounts took ${fmt(setupS, 0)} s)`;
    return { ok, md: table(title, ['streams', 'held', 'ping p50 / p99 / max', 'p99 vs baseline', 'statements/s', 'PostgreSQL xact_commit/s'], rows) };
  } finally {
    for (const r of held) r.destroy();
    await pgClient?.end();
    await server.stop();
  }
}

export async function runAll() {
  const out = [];
  for (const d of DATABASES) out.push(await runOn(d === 'postgres' ? 'postgres' : undefined));
  return out;
}

export async function run() {
  return (await runAll())[0];
}
