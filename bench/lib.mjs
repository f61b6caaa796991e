// Shared pieces of the benchmarks: start the built server as its own process
// (so the load generator does not share its event loop) and drive autocannon.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN = { email: 'bench-admin@example.com', password: 'bench-password-123' };

export async function freshPostgres(adminUrl) {
  const name = `cirrus_bench_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: adminUrl });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

/** Starts `dist/server/src/main.js serve` on a free port; resolves when ping answers. */
/**
 * The Node flags `npm start` passes (package.json's start script), so a
 * benchmark measures the server as people run it. CIRRUS_BENCH_NODE_ARGS
 * replaces them for an experiment ("" for none).
 */
export function serveNodeArgs() {
  const override = process.env.CIRRUS_BENCH_NODE_ARGS;
  if (override !== undefined) return override.split(' ').filter(Boolean);
  const start = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * A port for a bench server to listen on, below 32768: the kernel hands out
 * 32768–60999 to outgoing sockets, and a bench that opens thousands of them
 * (stream-budget) took the port a second server was about to listen on.
 */
export function randomPort() {
  return 20000 + Math.floor(Math.random() * 12000);
}

/** nodeArgs are added to `npm start`'s flags, or replace them with replaceNodeArgs. */
/** `root`: another checkout's built server (an A/B of two builds, bench/oauth-ab.mjs); this one by default. */
export async function startCirrus({ port, database, env = {}, nodeArgs = [], replaceNodeArgs = false, dataDir: givenDataDir, root = ROOT } = {}) {
  // A given data directory (a restart on the same data) belongs to the caller and outlives stop().
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), 'cirrus-bench-'));
  const pgDb = database === 'postgres' ? await freshPostgres(process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
  const p = port ?? randomPort();
  const child = spawn(process.execPath, [...(replaceNodeArgs ? [] : serveNodeArgs()), ...nodeArgs, path.join(root, 'dist/server/src/main.js'), 'serve'], {
    env: {
      ...process.env,
      CIRRUS_PORT: String(p),
      CIRRUS_HOST: '127.0.0.1',
      CIRRUS_DATA_DIR: dataDir,
      CIRRUS_LOG_LEVEL: 'warn',
      CIRRUS_ADMIN_EMAIL: ADMIN.email,
      CIRRUS_ADMIN_PASSWORD: ADMIN.password,
      CIRRUS_BASE_URL: `http://127.0.0.1:${p}`,
      ...(pgDb ? { CIRRUS_DATABASE_URL: pgDb.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${p}`;
  // Up to 60 s: migrations on a fresh PostgreSQL database take a while on a loaded machine.
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${url}/api/v4/site/ping`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error('server exited during start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    dataDir,
    databaseUrl: pgDb?.url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      await pgDb?.drop();
      if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function api(url, method, pathname, { json, token, form } = {}) {
  const headers = {};
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  if (form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  }
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url + pathname, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  try {
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  } catch {
    return { status: res.status, headers: res.headers, body: text };
  }
}

export async function signIn(url, email = ADMIN.email, password = ADMIN.password) {
  const res = await api(url, 'POST', '/api/v4/session/token', { json: { email, password } });
  if (res.body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** Runs autocannon and returns the figures we report. */
export async function load(opts) {
  const result = await autocannon({ connections: 50, duration: 8, ...opts });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: non2xx,
  };
}

export function fmt(n, digits = 0) {
  return Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function table(title, header, rows) {
  const lines = [`\n### ${title}\n`, `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

/**
 * A closed-loop load generator for requests that depend on the previous
 * answer (refresh-token rotation): `workers` loops each send, wait, then send
 * again for `duration` seconds. Returns the same figures as load().
 */
export async function chainLoad({ workers, duration, step }) {
  const latencies = [];
  let failed = 0;
  const end = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      const state = {};
      while (performance.now() < end) {
        const t0 = performance.now();
        let ok = false;
        try {
          ok = await step(i, state);
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - t0);
        if (!ok) failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { rps: latencies.length / duration, p50: q(0.5), p99: q(0.99), total: latencies.length, failed };
}

/** A loopback port free at the time of asking. */
export async function freePort() {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address();
  s.close();
  await once(s, 'close');
  return port;
}

/** A redis-server of the benchmark's own on a free port, without persistence. */
export async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** A memory figure of a process from /proc/<pid>/status (VmHWM: peak resident, VmRSS: resident now), in bytes; NaN if unreadable. */
export function procMemory(pid, field = 'VmHWM') {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Writes `bytes` random bytes to a file, in 4 MiB blocks. */
export async function writeRandomFile(file, bytes) {
  const out = createWriteStream(file);
  const block = randomBytes(4 * 1024 * 1024);
  for (let left = bytes; left > 0; left -= block.length) {
    if (!out.write(left >= block.length ? block : block.subarray(0, left))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * Closed-loop PROPFIND load (autocannon knows only the standard methods):
 * `connections` keep-alive loops, each sending the next request once the
 * whole body of the last one has arrived.
 */
export async function propfindLoad(url, auth, { connections = 4, seconds = 10 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const end = performance.now() + seconds * 1000;
  const latencies = [];
  let failed = 0;
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'PROPFIND', agent, headers: { depth: '1', authorization: auth } }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          if (res.statusCode !== 207) failed++;
          latencies.push(performance.now() - t0);
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) await one();
  }));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: latencies[Math.floor(latencies.length / 2)] ?? 0, failed };
}

/** A positive integer setting from the environment, or the default. */
export function envInt(name, fallback) {
  const n = Number(process.env[name] || fallback);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

/** The median (the mean of the two middle values for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
