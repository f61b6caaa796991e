// `npm run bench -- versions`: what keeping versions costs an overwrite
// (issue 21: at most 10 % more than with versions off). Two people on one
// server (SQLite): one in a group with max_versions 10 (each overwrite keeps
// the old content, and past ten prunes the oldest in the same transaction),
// one in a group with max_versions 0 (the old blob is dropped, as before
// versions existed). Each overwrites its own files with PUT /file/content,
// WORKERS at a time; the two run in alternating rounds in the same process so
// load from elsewhere on the machine falls on both alike.
// Settings: CIRRUS_BENCH_VERSIONS_BYTES (65536), CIRRUS_BENCH_VERSIONS_WORKERS (4),
// CIRRUS_BENCH_VERSIONS_ROUNDS (6), CIRRUS_BENCH_VERSIONS_SECONDS (4 per round).
import { randomBytes } from 'node:crypto';
import { ADMIN, api, envInt, fmt, median, signIn, startCirrus, table } from './lib.mjs';

const BYTES = envInt('CIRRUS_BENCH_VERSIONS_BYTES', 65_536);
const WORKERS = envInt('CIRRUS_BENCH_VERSIONS_WORKERS', 4);
const ROUNDS = envInt('CIRRUS_BENCH_VERSIONS_ROUNDS', 6);
const SECONDS = envInt('CIRRUS_BENCH_VERSIONS_SECONDS', 4);

async function person(url, admin, maxVersions) {
  const group = await api(url, 'PUT', '/api/v4/admin/group', { token: admin, json: { name: `bench-v${maxVersions}-${Date.now()}`, storage_quota: 2 ** 40, max_versions: maxVersions } });
  if (group.body.code !== 0) throw new Error(`group: ${JSON.stringify(group.body)}`);
  const email = `versions-${maxVersions}-${Date.now()}@example.com`;
  const made = await api(url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email, password: ADMIN.password } });
  if (made.body.code !== 0) throw new Error(`user: ${JSON.stringify(made.body)}`);
  const moved = await api(url, 'PUT', `/api/v4/admin/user/${made.body.data.id}`, { token: admin, json: { group_id: group.body.data.id } });
  if (moved.body.code !== 0) throw new Error(`move: ${JSON.stringify(moved.body)}`);
  return { token: (await signIn(url, email, ADMIN.password)).access_token };
}

/** WORKERS loops, each overwriting its own file, for SECONDS; returns the latencies (ms). */
async function overwrite(url, who, body) {
  const latencies = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      const target = `${url}/api/v4/file/content?path=${encodeURIComponent(`/bench/file-${w}.bin`)}`;
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(target, { method: 'PUT', headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/octet-stream' }, body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`PUT ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return latencies;
}

export async function run() {
  const server = await startCirrus({ database: 'sqlite' });
  try {
    const admin = (await signIn(server.url)).access_token;
    const on = await person(server.url, admin, 10);
    const off = await person(server.url, admin, 0);
    const body = randomBytes(BYTES);
    // Warm-up: both get their files, and "on" reaches its ten versions, so pruning is part of every measured write.
    for (let i = 0; i < 12; i++) for (const who of [on, off]) await Promise.all(Array.from({ length: WORKERS }, (_, w) => fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(`/bench/file-${w}.bin`)}`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}` }, body })));
    const runs = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always follows the other's checkpoint.
      const order = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const mode of order) runs[mode].push(...(await overwrite(server.url, mode === 'on' ? on : off, body)));
    }
    const row = (mode) => {
      const xs = runs[mode].slice().sort((a, b) => a - b);
      const rate = xs.length / (ROUNDS * SECONDS);
      return { rate, p50: median(xs), p99: xs[Math.floor(xs.length * 0.99)] ?? 0, n: xs.length };
    };
    const a = row('off');
    const b = row('on');
    const cost = a.rate / b.rate - 1;
    const versionsNow = (await api(server.url, 'GET', '/api/v4/user/capacity', { token: on.token })).body.data.versions;
    const ok = cost <= 0.1 && versionsNow === 10 * WORKERS * BYTES;
    const md =
      table(
        `Overwrite cost of versions: PUT of ${fmt(BYTES / 1024)} KiB over an existing file, ${WORKERS} at a time, SQLite, ${ROUNDS} alternating rounds of ${SECONDS} s each`,
        ['group', 'overwrites/s', 'p50, ms', 'p99, ms', 'overwrites'],
        [
          ['max_versions 0 (off)', fmt(a.rate, 1), fmt(a.p50, 1), fmt(a.p99, 1), fmt(a.n)],
          ['max_versions 10 (on, pruning each write)', fmt(b.rate, 1), fmt(b.p50, 1), fmt(b.p99, 1), fmt(b.n)],
        ],
      ) +
      `\n\nCost of versions: **${fmt(cost * 100, 1)} %** fewer overwrites per second (target ≤ 10 %). Versions kept at the end: ${versionsNow === 10 * WORKERS * BYTES ? 'exactly 10 per file' : `WRONG (${versionsNow} bytes)`}.`;
    return { md, ok };
  } finally {
    await server.stop();
  }
}
