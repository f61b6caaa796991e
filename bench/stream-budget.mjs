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
import { execFileSync } from 'node:child_process';
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

/** Keeps `parallel` attempts to open a stream with `token` going until `stop()`; counts answers and their latency. */
function refusalStorm(url, token, parallel = 20) {
  let stopped = false;
  const stats = { refused: 0, accepted: 0, other: 0, lat: [] };
  const loop = async () => {
    while (!stopped) {
      const a = performance.now();
      const r = await openStream(url, token);
      stats.lat.push(performance.now() - a);
      if (r.status === 429) stats.refused++;
      else if (r.status === 200) stats.accepted++;
      else stats.other++;
      r.req.destroy();
    }
  };
  const loops = Array.from({ length: parallel }, loop);
  return { stats, stop: async () => { stopped = true; await Promise.all(loops); } };
}

/** A PUT whose body stays short of its Content-Length: the server is receiving it until the request is destroyed. Resolves with the status when answered (a refusal), else never. */
function holdPut(url, token, name) {
  const u = new URL(url);
  let status;
  const req = http.request({ host: u.hostname, port: u.port, method: 'PUT', path: `/api/v4/file/content?path=${encodeURIComponent(name)}`, agent: false, headers: { authorization: `Bearer ${token}`, 'content-length': '1048576' } }, (res) => {
    status = res.statusCode;
    res.resume();
  });
  req.on('error', () => undefined);
  req.write(Buffer.alloc(1024));
  return { req, status: () => status };
}

/** A GET of a big file whose body the client never reads: the server is sending it until the request is destroyed. */
function holdGet(url, token, name) {
  const u = new URL(url);
  let status;
  const req = http.get({ host: u.hostname, port: u.port, path: `/api/v4/file/content?path=${encodeURIComponent(name)}`, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
    status = res.statusCode;
    if (status === 200) res.pause();
    else res.resume();
  });
  req.on('error', () => undefined);
  return { req, status: () => status };
}

async function gauge(url, name) {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
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
    const [heavy, mover] = await people(server, admin, 2, 'heavy');
    const many = await people(server, admin, USERS, 'many');
    const setupS = (performance.now() - setup0) / 1000;
    await sleep(7000);
    const rows = [];
    const row = (what, m, base, extra) =>
      rows.push([what, extra, `${fmt(m.p50, 1)} / **${fmt(m.p99, 1)}** / ${fmt(m.max, 1)} ms`, base ? `${fmt(m.p99 / base.p99, 2)}×` : '1×', fmt(m.stmtPerS, 1), database === 'postgres' ? fmt(m.xactPerS, 1) : '–']);

    const base = await measure(server, pgClient, dbName);
    row('no streams (baseline)', base, undefined, '–');

    // One account tries STREAMS streams on one token: the cap holds 50 (20 per token: one token here), the rest are refused.
    const open0 = performance.now();
    const one = await openAll(server.url, Array(STREAMS).fill(heavy));
    const openS = (performance.now() - open0) / 1000;
    held.push(...one.filter((o) => o.status === 200).map((o) => o.req));
    for (const o of one) if (o.status !== 200) o.req.destroy();
    const accepted = one.filter((o) => o.status === 200).length;
    const refused = one.filter((o) => o.status === 429).length;

    // Next to it, STREAMS / USERS streams for each of USERS accounts (within the caps).
    const each = Math.ceil(STREAMS / USERS);
    const spread = await openAll(server.url, many.flatMap((t) => Array(each).fill(t)));
    held.push(...spread.map((o) => o.req));
    const spreadHeld = spread.filter((o) => o.status === 200).length;
    await sleep(7000);
    const mHeld = await measure(server, pgClient, dbName);
    row(`${fmt(STREAMS)} tried by 1 account + ${fmt(spread.length)} by ${fmt(USERS)} accounts, idle`, mHeld, base, `${fmt(accepted + spreadHeld)} held; the 1 account: ${accepted} held, ${fmt(refused)} refused (429) in ${fmt(openS, 1)} s`);

    // The one account keeps trying (20 attempts in flight) during a window: what refusals cost the others.
    const storm = refusalStorm(server.url, heavy);
    const mStorm = await measure(server, pgClient, dbName);
    await storm.stop();
    storm.stats.lat.sort((a, b) => a - b);
    const refP99 = storm.stats.lat[Math.floor(0.99 * storm.stats.lat.length)] ?? NaN;
    row('the same, the 1 account retrying without pause', mStorm, base, `${fmt(storm.stats.refused / WINDOW_S)} refusals/s (p99 ${fmt(refP99, 1)} ms), ${storm.stats.accepted} accepted`);

    // Uploads and downloads in flight: one account opens 200 bodies and 300 downloads at once (caps 20 and 100).
    const bigName = '/bench-big.bin';
    const up = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(bigName)}`, { method: 'PUT', headers: { authorization: `Bearer ${mover}` }, body: Buffer.alloc(32 * 1024 * 1024, 1) });
    if (up.status !== 200) throw new Error(`upload of the download probe's file: ${up.status}`);
    const puts = Array.from({ length: 200 }, (_, i) => holdPut(server.url, mover, `/held-${i}.bin`));
    const gets = Array.from({ length: 300 }, () => holdGet(server.url, mover, bigName));
    await sleep(7000);
    const inFlight = [await gauge(server.url, 'cirrus_uploads_in_flight'), await gauge(server.url, 'cirrus_downloads_in_flight')];
    const mTransfers = await measure(server, pgClient, dbName);
    const putRefused = puts.filter((p) => p.status() === 429).length;
    const getRefused = gets.filter((g) => g.status() === 429).length;
    const unanswered = gets.filter((g) => g.status() === undefined).length + puts.filter((p) => p.status() === undefined).length - inFlight[0];
    row('the same + 1 account holding 200 uploads and 300 downloads open', mTransfers, base, `uploads ${inFlight[0]} in flight, ${putRefused} refused; downloads ${inFlight[1]} in flight, ${getRefused} refused${unanswered > 0 ? `; ${unanswered} not answered yet` : ''}`);
    for (const t of [...puts, ...gets]) t.req.destroy();

    const ok = Math.max(mHeld.p99, mStorm.p99, mTransfers.p99) < TARGET_P99_MS && spreadHeld === spread.length && accepted <= 50 && inFlight[0] <= 20 && inFlight[1] <= 100;
    const title = `Idle change-feed streams, refusals and transfers in flight, and another client's ping (${database === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${WINDOW_S} s windows; setup of ${USERS + 2} accounts took ${fmt(setupS, 0)} s)`;
    return { ok, md: table(title, ['load', 'held', 'ping p50 / p99 / max', 'p99 vs baseline', 'statements/s', 'PostgreSQL xact_commit/s'], rows) };
  } finally {
    for (const r of held) r.destroy();
    await pgClient?.end();
    await server.stop();
  }
}

/** Node cannot raise its own open-files limit: check it before opening thousands of sockets, and say how to raise it. */
function checkOpenFiles() {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
  const need = 2 * STREAMS + 1500;
  if (Number.isFinite(limit) && limit < need) throw new Error(`ulimit -n is ${limit}; this run needs about ${need} (run \`ulimit -n ${need}\` first, or lower CIRRUS_BENCH_BUDGET_STREAMS)`);
}

export async function runAll() {
  checkOpenFiles();
  const out = [];
  for (const d of DATABASES) out.push(await runOn(d === 'postgres' ? 'postgres' : undefined));
  return out;
}

export async function run() {
  return (await runAll())[0];
}
