// Throughput of one instance and of two behind nginx (issue 10),
// `npm run bench -- cluster`:
// - `POST /api/v4/session/token/refresh` (the first-party token endpoint's
//   refresh grant: verify, rotate in the database, sign a new pair) and
//   `GET /api/v4/user/me` with an access token;
// - three set-ups, all on one fresh PostgreSQL database and one redis-server
//   of the benchmark's own: one instance straight, one instance through
//   nginx, two instances through nginx (round robin, upstream keep-alive);
// - load from wrk for a fixed time; CIRRUS_BENCH_CLUSTER_SECONDS (default 10)
//   per window, CIRRUS_BENCH_CLUSTER_ROUNDS (default 3) rounds, the order of
//   the set-ups rotated each round; medians and min–max reported.
// Refresh tokens rotate and a reused one revokes its family, so each wrk
// connection runs its own chain (one connection per wrk thread; a Lua script
// takes the next token from each answer), started from its own sign-in.
// On 2 cores, the instances, nginx, wrk and PostgreSQL share the same two
// CPUs: a second instance cannot double anything here; the table says what
// it does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { ADMIN, fmt, freePort, freshPostgres, signIn, startCirrus, startRedis, table, envInt, median } from './lib.mjs';

const SECONDS = envInt('CIRRUS_BENCH_CLUSTER_SECONDS', 10);
const ROUNDS = envInt('CIRRUS_BENCH_CLUSTER_ROUNDS', 3);
// Refresh chains (one wrk thread and connection each) and /user/me connections.
const CHAINS = envInt('CIRRUS_BENCH_CLUSTER_CHAINS', 16);
const CONNECTIONS = envInt('CIRRUS_BENCH_CLUSTER_CONNECTIONS', 32);
const NGINX = process.env.CIRRUS_BENCH_NGINX ?? '/usr/sbin/nginx';
const WRK = process.env.CIRRUS_BENCH_WRK ?? 'wrk';

/** nginx in front of `upstreams`, as in docs/deployment.md (keep-alive upstream, no buffering). */
async function startNginx(upstreams) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-nginx-'));
  const port = await freePort();
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes auto;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream cirrus {
${upstreams.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port} reuseport backlog=4096;
    client_max_body_size 0;
    proxy_request_buffering off;
    proxy_buffering off;
    location / {
      proxy_pass http://cirrus;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/v4/site/ping`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || i > 100) throw new Error('nginx did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// wrk scripts: a refresh chain per thread (one connection each), and /user/me with one token.
const REFRESH_LUA = `
local counter = 0
local threads = {}
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end
function init(args)
  token = args[id]
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  return wrk.format(nil, "/api/v4/session/token/refresh", nil, '{"refresh_token":"' .. token .. '"}')
end
function response(status, headers, body)
  local next_token = string.match(body, '"refresh_token":"([^"]+)"')
  if status == 200 and next_token then token = next_token end
end
`;

/** Runs wrk; resolves with requests/s, latency p50/p99 (ms) and the count of failed answers. */
async function wrk(args) {
  // A 10 s timeout: an answer wrk gave up on would break its refresh chain (the token rotated unseen).
  const child = spawn(WRK, ['--latency', '--timeout', '10s', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${out}`);
  const ms = (label) => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    if (!m) return NaN;
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const failed = non2xx + (errors ? errors.slice(1).reduce((s, n) => s + Number(n), 0) : 0);
  return { rps, p50: ms(50), p99: ms(99), failed, detail: [errors?.[0], non2xx ? `${non2xx} non-2xx` : undefined].filter(Boolean).join(', '), raw: out };
}

export async function run() {
  const load0 = os.loadavg()[0];
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-cluster-'));
  const redis = await startRedis();
  const db = await freshPostgres(process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const env = { CIRRUS_DATABASE_URL: db.url, CIRRUS_REDIS_URL: redis.url, CIRRUS_TRUST_PROXY: 'true' };
  const a = await startCirrus({ env });
  const b = await startCirrus({ env });
  const host = (u) => new URL(u).host;
  const one = await startNginx([host(a.url)]);
  const two = await startNginx([host(a.url), host(b.url)]);
  const setups = [
    { label: '1 instance, direct', url: a.url },
    { label: '1 instance behind nginx', url: one.url },
    { label: '2 instances behind nginx', url: two.url },
  ];
  const results = new Map(setups.map((s) => [s.label, { refresh: [], me: [] }]));
  try {
    const meToken = (await signIn(a.url, ADMIN.email, ADMIN.password)).access_token;
    const meLua = path.join(dir, 'me.lua');
    writeFileSync(meLua, `wrk.headers["Authorization"] = "Bearer ${meToken}"\n`);
    const refreshLua = path.join(dir, 'refresh.lua');
    writeFileSync(refreshLua, REFRESH_LUA);
    // Warm-up: every process's code paths compiled and pools filled before the first window.
    const chains = async (n) => {
      const tokens = [];
      for (let i = 0; i < n; i += 4) tokens.push(...(await Promise.all(Array.from({ length: Math.min(4, n - i) }, (_, k) => signIn((i + k) % 2 ? b.url : a.url)))).map((p) => p.refresh_token));
      return tokens;
    };
    for (const s of setups) {
      await wrk(['-t2', '-c8', '-d2s', '-s', meLua, `${s.url}/api/v4/user/me`]);
      await wrk(['-t4', '-c4', '-d2s', '-s', refreshLua, `${s.url}/api/v4/session/token/refresh`, '--', ...(await chains(4))]);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const order = setups.map((_, i) => setups[(i + r) % setups.length]);
      for (const s of order) {
        // Fresh chains each window (sign-ins alternate between the instances; argon2id, ~40 ms each).
        const tokens = await chains(CHAINS);
        const refresh = await wrk([`-t${CHAINS}`, `-c${CHAINS}`, `-d${SECONDS}s`, '-s', refreshLua, `${s.url}/api/v4/session/token/refresh`, '--', ...tokens]);
        const me = await wrk(['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-s', meLua, `${s.url}/api/v4/user/me`]);
        results.get(s.label).refresh.push(refresh);
        results.get(s.label).me.push(me);
        console.error(`  round ${r + 1} ${s.label}: refresh ${fmt(refresh.rps, 0)} req/s (${refresh.failed} failed${refresh.detail ? `: ${refresh.detail}` : ''}), user/me ${fmt(me.rps, 0)} req/s (${me.failed} failed${me.detail ? `: ${me.detail}` : ''})`);
      }
    }
  } finally {
    await two.stop();
    await one.stop();
    await a.stop();
    await b.stop();
    await redis.stop();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = results.get(setups[0].label);
  const cell = (xs) => `${fmt(median(xs.map((x) => x.rps)), 0)} (${fmt(Math.min(...xs.map((x) => x.rps)), 0)}–${fmt(Math.max(...xs.map((x) => x.rps)), 0)})`;
  const lat = (xs) => `${fmt(median(xs.map((x) => x.p50)), 1)} / ${fmt(median(xs.map((x) => x.p99)), 1)}`;
  const rows = setups.map((s) => {
    const r = results.get(s.label);
    return [
      s.label,
      cell(r.refresh),
      fmt(median(r.refresh.map((x) => x.rps)) / median(base.refresh.map((x) => x.rps)), 2),
      lat(r.refresh),
      cell(r.me),
      fmt(median(r.me.map((x) => x.rps)) / median(base.me.map((x) => x.rps)), 2),
      lat(r.me),
      String(r.refresh.reduce((n, x) => n + x.failed, 0) + r.me.reduce((n, x) => n + x.failed, 0)),
    ];
  });
  const md =
    table(`Throughput, one instance and two behind nginx (PostgreSQL + Redis; wrk, ${SECONDS} s windows, ${ROUNDS} rounds: median (min–max))`, [
      'set-up',
      `token refresh req/s (${CHAINS} chains)`,
      '× direct',
      'refresh p50 / p99 ms',
      `GET /user/me req/s (${CONNECTIONS} connections)`,
      '× direct',
      'user/me p50 / p99 ms',
      'failed answers',
    ], rows) + `\n\nLoad average of the machine (1 min) at the start / end: ${fmt(load0, 1)} / ${fmt(os.loadavg()[0], 1)} on ${os.cpus().length} cores.`;
  const failed = [...results.values()].some((r) => [...r.refresh, ...r.me].some((x) => !(x.rps > 0)));
  return { md, ok: !failed };
}
