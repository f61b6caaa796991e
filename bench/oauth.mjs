// OAuth benchmark (issue: OAuth authorization server): authorization-code
// exchange and refresh-grant throughput at the token endpoint, Cirrus on
// SQLite and on PostgreSQL against oidc-provider 9 (bench/oauth-provider.mjs)
// measured in the same run with the same load generator and concurrency.
// Target (issue 24): at least 3× oidc-provider's throughput on both operations.
//
// Codes are single use, so each timed window pops pre-minted ones: Cirrus's
// through the consent API, oidc-provider's inside its process, all before the
// window starts. A short calibration window per server sizes the supply.
import { fork } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { api, chainLoad, fmt, freshPostgres, randomPort, signIn, startCirrus, table } from './lib.mjs';

const CONNECTIONS = 20;
const ADMIN_DATABASE_URL = process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_LABEL = { sqlite: 'SQLite', postgres: 'PostgreSQL', memory: 'memory' };
const SCOPE = 'openid offline_access';
const REDIRECT_URI = 'https://client.example/callback';
const NONCE = 'bench-nonce';
const VERIFIER = randomBytes(32).toString('base64url');
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const TARGET_RATIO = 3;
const PROVIDER_VERSION = JSON.parse(readFileSync(path.join(import.meta.dirname, '../node_modules/oidc-provider/package.json'), 'utf8')).version;
// oidc-provider also signs an id_token on every refresh of an openid grant;
// Cirrus does not (OIDC Core §12.2 allows either). Narrowing the scope to
// offline_access is how its refresh can be asked to skip it: measured too.
const NO_ID_TOKEN = { scope: 'offline_access' };
const OPERATIONS = [
  { key: 'exchange', label: 'code exchange' },
  { key: 'refresh', label: 'refresh (rotation)' },
  { key: 'refreshNoIdToken', label: 'refresh, `scope=offline_access` (no id_token)' },
  { key: 'refreshDpop', label: 'refresh with a DPoP proof (ES256, RFC 9449)' },
];
// DPoP: the Cirrus figure must stay within +20 % of its Bearer refresh and ≥ 2× oidc-provider's DPoP refresh.
const DPOP_MAX_COST = 1.2;
const DPOP_TARGET_RATIO = 2;
/**
 * Proofs signed ahead of each DPoP window (more are signed on demand should
 * they run out). Sized above what the fastest server takes in a window: once
 * the pool is empty the load generator signs on the machine's shared cores,
 * which slowed the server it measures (8,000 ran out after about 3 s of 5).
 */
const DPOP_POOL = 20000;

/** One ES256 key for the run; a fresh proof per request, as a client makes them. */
const DPOP_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const DPOP_HEADER = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: DPOP_KEY.publicKey.export({ format: 'jwk' }) })).toString('base64url');
function dpopProof(htu) {
  const payload = Buffer.from(JSON.stringify({ jti: randomUUID(), htm: 'POST', htu, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
  const input = `${DPOP_HEADER}.${payload}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: DPOP_KEY.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** A keep-alive form poster (node:http, one socket per worker): the load generator for every server. */
function formPoster(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const u = new URL(url);
  return (form, extraHeaders = {}) =>
    new Promise((resolve, reject) => {
      const body = new URLSearchParams(form).toString();
      const req = http.request(
        { agent, host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...extraHeaders } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/**
 * CPU seconds used by a set of processes (Linux /proc; null elsewhere), by
 * pid. Per request, this is the figure a shared machine disturbs least:
 * throughput moves with what else runs, the work each request costs hardly does.
 */
function cpuSnapshot(pids) {
  const out = new Map();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // utime + stime, in USER_HZ (100 on Linux)
    } catch {
      if (pid === pids[0]) return null;
    }
  }
  return out;
}

/** The database URL a Cirrus process was started with (from /proc), or undefined. */
function databaseUrlOf(serverPid) {
  try {
    return readFileSync(`/proc/${serverPid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('CIRRUS_DATABASE_URL='))
      ?.slice('CIRRUS_DATABASE_URL='.length);
  } catch {
    return undefined; /* no /proc: CPU is not reported */
  }
}

/** The PostgreSQL backends serving a database: a server's CPU on PostgreSQL counts too. */
async function postgresBackends(url) {
  if (!url) return null;
  const dbName = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  return Object.assign(
    async () => (await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName])).rows.map((r) => r.pid),
    { close: () => admin.end() },
  );
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export async function cirrusTarget(database, env = {}, root = undefined) {
  const server = await startCirrus({ database, env, root });
  const admin = await signIn(server.url);
  const created = await api(server.url, 'PUT', '/api/v4/admin/oauthClient', {
    token: admin.access_token,
    json: { client: { name: 'Bench App', icon: 'cloud', redirect_uris: [REDIRECT_URI], scopes: SCOPE.split(' ') } },
  });
  if (created.body?.code !== 0) throw new Error(`creating the OAuth app failed: ${JSON.stringify(created.body)}`);
  const { id: clientId, secret: clientSecret } = created.body.data;
  const backends = database === 'postgres' ? await postgresBackends(databaseUrlOf(server.pid)) : null;
  const consent = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: SCOPE,
    state: 'bench-state',
    nonce: NONCE,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  };
  return {
    name: `Cirrus (${DATABASE_LABEL[database]})`,
    ours: true,
    database,
    pid: server.pid,
    cpuPids: async () => [server.pid, ...(backends ? await backends() : [])],
    tokenUrl: `${server.url}/api/v4/session/oauth/token`,
    clientId,
    clientSecret,
    /** The authorize page's consent call, once per code, as a signed-in user would approve. */
    async mint(n) {
      return pool(Array.from({ length: n }), 8, async () => {
        const res = await api(server.url, 'POST', '/api/v4/session/oauth/consent', { token: admin.access_token, json: consent });
        if (typeof res.body?.data?.code !== 'string') throw new Error(`consent failed: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.data.code;
      });
    },
    async stop() {
      await backends?.close();
      await server.stop();
    },
  };
}

/**
 * oidc-provider in its own process with the given storage: 'memory' (its
 * in-memory adapter, a reference only), or a durable adapter on the same
 * database as Cirrus's row ('sqlite': a file in a temp dir; 'postgres': a
 * fresh database on the same server).
 */
export async function oidcProviderTarget(database = 'memory') {
  const port = randomPort();
  const clientId = 'bench-client';
  const clientSecret = randomBytes(32).toString('base64url');
  const dir = database === 'sqlite' ? mkdtempSync(path.join(tmpdir(), 'oidc-provider-bench-')) : null;
  const pgDb = database === 'postgres' ? await freshPostgres(ADMIN_DATABASE_URL) : null;
  const storage = dir ? { kind: 'sqlite', file: path.join(dir, 'oidc.sqlite') } : pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'memory' };
  const child = fork(path.join(import.meta.dirname, 'oauth-provider.mjs'), [
    JSON.stringify({ port, clientId, clientSecret, redirectUri: REDIRECT_URI, accountId: 'bench-user', codeChallenge: CHALLENGE, nonce: NONCE, scope: SCOPE, storage }),
  ]);
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited during start (${code})`)));
  });
  const backends = pgDb ? await postgresBackends(pgDb.url) : null;
  let seq = 0;
  return {
    name: `oidc-provider ${PROVIDER_VERSION} (${DATABASE_LABEL[database]})`,
    ours: false,
    database,
    cpuPids: async () => [child.pid, ...(backends ? await backends() : [])],
    tokenUrl: `${ready.url}/token`,
    clientId,
    clientSecret,
    mint(n) {
      const id = ++seq;
      return new Promise((resolve) => {
        const onMessage = (msg) => {
          if (msg.type === 'codes' && msg.id === id) {
            child.off('message', onMessage);
            resolve(msg.codes);
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'mint', n, id });
      });
    },
    async stop() {
      child.send({ type: 'stop' });
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      await backends?.close();
      await pgDb?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

const exchangeForm = (t, code) => ({ grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: REDIRECT_URI, client_id: t.clientId, client_secret: t.clientSecret });
const refreshForm = (t, token, extra) => ({ grant_type: 'refresh_token', refresh_token: token, client_id: t.clientId, client_secret: t.clientSecret, ...extra });

/** A successful code exchange: the complete response (access, refresh and id token). */
function exchanged(res) {
  if (res.status !== 200) return null;
  const body = JSON.parse(res.text);
  return body.access_token && body.refresh_token && body.id_token ? body : null;
}

/**
 * Exchange window: like chainLoad, but each worker pops a fresh pre-minted
 * code per request. Should the supply run out, the window ends there for all
 * workers and throughput is taken over the time it lasted (`elapsed`).
 * Keeps some refresh tokens for the refresh window.
 */
export async function exchangeWindow(t, codes, duration) {
  const post = formPoster(t.tokenUrl);
  const refreshTokens = [];
  const latencies = [];
  let failed = 0;
  const cpu0 = cpuSnapshot(await t.cpuPids());
  const start = performance.now();
  let end = start + duration * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const code = codes.pop();
        if (code === undefined) {
          end = Math.min(end, performance.now());
          return;
        }
        const t0 = performance.now();
        const body = await post(exchangeForm(t, code)).then(exchanged, () => null);
        latencies.push(performance.now() - t0);
        if (!body) failed++;
        else if (refreshTokens.length < CONNECTIONS * 4) refreshTokens.push(body.refresh_token);
      }
    }),
  );
  const elapsed = (end - start) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  const total = latencies.length;
  return { rps: total / elapsed, p50: q(0.5), p99: q(0.99), total, failed, elapsed, refreshTokens, cpu: await cpuPerRequest(t, cpu0, total) };
}

/**
 * Refresh window: each worker rotates its own chain, presenting the token the
 * previous answer returned. `extra` adds form fields (scope narrowing).
 */
export async function refreshWindow(t, starts, duration, extra = {}, dpop = false) {
  const post = formPoster(t.tokenUrl);
  // Proofs are signed before the window (each has its own jti; its iat stays well inside the
  // servers' 60 s windows), so that the load generator's signing does not set the pace.
  const proofs = dpop ? Array.from({ length: DPOP_POOL }, () => dpopProof(t.tokenUrl)) : [];
  const cpu0 = cpuSnapshot(await t.cpuPids());
  const r = await chainLoad({
    workers: CONNECTIONS,
    duration,
    async step(i, state) {
      state.token ??= starts[i];
      const res = await post(refreshForm(t, state.token, extra), dpop ? { dpop: proofs.pop() ?? dpopProof(t.tokenUrl) } : {});
      if (res.status !== 200) return false;
      const body = JSON.parse(res.text);
      if (dpop && String(body.token_type).toLowerCase() !== 'dpop') return false;
      if (!body.access_token || !body.refresh_token || body.refresh_token === state.token) return false;
      if (extra === NO_ID_TOKEN && body.id_token) return false;
      state.token = body.refresh_token;
      return true;
    },
  });
  return { ...r, cpu: await cpuPerRequest(t, cpu0, r.total) };
}

/** CPU milliseconds per request of the server's processes over a window, or null without /proc. */
async function cpuPerRequest(t, before, requests) {
  const after = cpuSnapshot(await t.cpuPids());
  if (before === null || after === null || requests === 0) return null;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return (used * 1000) / requests;
}

/** Calibration (and warm-up): exchanges until `codes` run out or `seconds` pass; returns exchanges per second. */
async function calibrate(t, codes, seconds) {
  const post = formPoster(t.tokenUrl);
  const start = performance.now();
  const end = start + seconds * 1000;
  let done = 0;
  const tokens = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end && codes.length) {
        const res = await post(exchangeForm(t, codes.pop()));
        const body = exchanged(res);
        if (!body) throw new Error(`${t.name}: calibration exchange failed: ${res.status} ${String(res.text).slice(0, 300)}`);
        done++;
        tokens.push(body.refresh_token);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { rate: done / elapsed, tokens, exhausted: codes.length === 0 };
}

function combine(windows, duration) {
  const total = windows.reduce((s, w) => s + w.total, 0);
  const elapsed = windows.reduce((s, w) => s + (w.elapsed ?? duration), 0);
  return {
    rps: total / elapsed,
    p50: windows.reduce((s, w) => s + w.p50, 0) / windows.length,
    p99: windows.reduce((s, w) => s + w.p99, 0) / windows.length,
    failed: windows.reduce((s, w) => s + w.failed, 0),
    shortened: windows.filter((w) => (w.elapsed ?? duration) < duration - 0.05).map((w) => w.elapsed),
    cpu: windows.some((w) => w.cpu === null) ? null : windows.reduce((s, w) => s + w.cpu * w.total, 0) / total,
    rounds: windows.map((w) => w.rps),
  };
}

export async function run({ duration = 5, rounds = 3 } = {}) {
  const targets = [];
  try {
    // Like-for-like pairs (Cirrus and oidc-provider on the same database), then oidc-provider's in-memory store as a reference.
    // CIRRUS_BENCH_OAUTH_DATABASES=sqlite (or postgres) runs one pair only, while working on it; the recorded run has both.
    const databases = (process.env.CIRRUS_BENCH_OAUTH_DATABASES ?? 'sqlite,postgres').split(',');
    for (const database of ['sqlite', 'postgres']) if (databases.includes(database)) targets.push(await cirrusTarget(database), await oidcProviderTarget(database));
    targets.push(await oidcProviderTarget('memory'));

    // Warm-up and calibration: a 2 s exchange window (stopping early if the
    // first batch runs out, then trying a bigger one), then 2 s of refreshes.
    const rate = new Map();
    for (const t of targets) {
      let batch = t.database === 'memory' ? 8000 : 1500;
      let c;
      for (;;) {
        c = await calibrate(t, await t.mint(batch), 2);
        if (!c.exhausted || batch >= 64000) break;
        batch *= 2;
      }
      rate.set(t, c.rate);
      await refreshWindow(t, c.tokens.slice(0, CONNECTIONS), 2);
      await refreshWindow(t, c.tokens.slice(2 * CONNECTIONS, 3 * CONNECTIONS), 2, {}, true);
      if (!t.ours) await refreshWindow(t, c.tokens.slice(CONNECTIONS, 2 * CONNECTIONS), 2, NO_ID_TOKEN);
      console.error(`  ${t.name}: calibrated at ${fmt(c.rate)} exchanges/s`);
    }

    // Timed windows, alternating the order each round so drift on a shared machine hits all alike.
    const results = new Map(targets.map((t) => [t, Object.fromEntries(OPERATIONS.map((op) => [op.key, []]))]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        // Throughput swings on a shared machine: supply well beyond the best rate seen so far.
        const codes = await t.mint(Math.ceil(rate.get(t) * duration * (t.database === 'memory' ? 4 : 2.5)) + 4 * CONNECTIONS);
        const r = results.get(t);
        const ex = await exchangeWindow(t, codes, duration);
        rate.set(t, Math.max(rate.get(t), ex.rps));
        r.exchange.push(ex);
        r.refresh.push(await refreshWindow(t, ex.refreshTokens.slice(-CONNECTIONS), duration));
        if (!t.ours) r.refreshNoIdToken.push(await refreshWindow(t, ex.refreshTokens.slice(-2 * CONNECTIONS, -CONNECTIONS), duration, NO_ID_TOKEN));
        r.refreshDpop.push(await refreshWindow(t, ex.refreshTokens.slice(0, CONNECTIONS), duration, {}, true));
        const line = OPERATIONS.filter((op) => r[op.key].length > round).map((op) => {
          const w = r[op.key][round];
          return `${op.key} ${fmt(w.rps)}/s (${w.failed} failed, ${fmt(w.cpu ?? 0, 2)} ms CPU/req)`;
        });
        console.error(`  round ${round + 1} ${t.name}: ${line.join(', ')}`);
      }
    }

    const summary = targets.map((t) => ({ t, ...Object.fromEntries(OPERATIONS.map((op) => [op.key, results.get(t)[op.key].length ? combine(results.get(t)[op.key], duration) : null])) }));
    const providerOn = (database) => summary.find((s) => !s.t.ours && s.t.database === database);
    const memory = providerOn('memory');
    const ratio = (a, b) => (a && b ? `${fmt(a / b, 2)}×` : '–');
    const rows = [];
    for (const op of OPERATIONS) {
      for (const s of summary) {
        const m = s[op.key];
        if (!m) continue;
        const pair = providerOn(s.t.database)?.[op.key];
        const own = s.t.ours ? `**${ratio(m.rps, pair?.rps)}**` : s.t.database === 'memory' ? '–' : '1×';
        // Work per request, inverted so that more than 1× means Cirrus needs less CPU.
        const cpuRatio = s.t.ours ? ratio(pair?.cpu, m.cpu) : s.t.database === 'memory' ? '–' : '1×';
        rows.push([
          op.label,
          s.t.name,
          fmt(m.rps),
          m.rounds.map((x) => fmt(x)).join(' / ') + (m.shortened.length ? ` (codes ran out: ${m.shortened.map((e) => `${fmt(e, 1)} s`).join(', ')})` : ''),
          fmt(m.p50, 1),
          fmt(m.p99, 1),
          m.cpu === null ? '–' : fmt(m.cpu, 2),
          m.failed,
          own,
          cpuRatio,
          s.t.database === 'memory' ? '1×' : ratio(m.rps, memory[op.key]?.rps),
        ]);
      }
    }
    const ours = summary.filter((s) => s.t.ours);
    const misses = [];
    const met = [];
    const vsMemory = [];
    const vsNoIdToken = [];
    for (const s of ours) {
      const pair = providerOn(s.t.database);
      for (const op of ['exchange', 'refresh']) {
        const r = s[op].rps / pair[op].rps;
        (r < TARGET_RATIO ? misses : met).push(`${s.t.name} ${op}: ${fmt(r, 2)}×`);
        vsMemory.push(`${s.t.name} ${op} ${fmt(s[op].rps / memory[op].rps, 2)}×`);
      }
      vsNoIdToken.push(`${s.t.name} ${fmt(s.refresh.rps / pair.refreshNoIdToken.rps, 2)}× (CPU/req ${ratio(pair.refreshNoIdToken.cpu, s.refresh.cpu)})`);
      // DPoP: its cost over Cirrus's own Bearer refresh (time per request), and the ratio to oidc-provider's DPoP refresh.
      const cost = s.refresh.rps / s.refreshDpop.rps;
      (cost > DPOP_MAX_COST ? misses : met).push(`${s.t.name} DPoP refresh costs ${fmt((cost - 1) * 100, 0)} % over Bearer`);
      const vsProvider = s.refreshDpop.rps / pair.refreshDpop.rps;
      (vsProvider < DPOP_TARGET_RATIO ? misses : met).push(`${s.t.name} DPoP refresh: ${fmt(vsProvider, 2)}× oidc-provider's DPoP refresh`);
    }
    const failed = summary.reduce((n, s) => n + OPERATIONS.reduce((k, op) => k + (s[op.key]?.failed ?? 0), 0), 0);
    const md =
      table(
        `Token endpoint: Cirrus vs oidc-provider on the same database (${CONNECTIONS} closed-loop clients, keep-alive; ${rounds} rounds of ${duration} s per operation and server, order alternated)`,
        ['operation', 'server', 'req/s', 'per round', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'failed', 'req/s vs oidc-provider (same database)', 'CPU/req vs oidc-provider (same database)', 'req/s vs oidc-provider (memory, reference)'],
        rows,
      ) +
      `\n\nTarget: Cirrus ≥ ${TARGET_RATIO}× oidc-provider's throughput on both operations, each database against oidc-provider on the same database (same requests); a DPoP refresh at most ${Math.round((DPOP_MAX_COST - 1) * 100)} % slower than Cirrus's Bearer refresh and ≥ ${DPOP_TARGET_RATIO}× oidc-provider's DPoP refresh (confidential client: the proof binds the access token). ` +
      (misses.length ? `**Missed**: ${misses.join('; ')}.${met.length ? ` Met: ${met.join('; ')}.` : ''}` : `**Met** on both databases: ${met.join('; ')}.`) +
      ` Against oidc-provider's in-memory store (reference, not the target's comparison): ${vsMemory.join('; ')}.` +
      ` Cirrus's refresh against oidc-provider's refresh without an id_token on the same database: ${vsNoIdToken.join('; ')}.` +
      (failed ? ` **${failed} requests failed** in the timed windows.` : ' No request failed.') +
      '\n';
    return { md, ok: misses.length === 0 && failed === 0 };
  } finally {
    for (const t of targets) await t.stop();
  }
}
