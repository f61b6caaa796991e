// What the audit log and activity history cost the hot paths (issue 37):
// password sign-in (POST /session/token: an audit row), a small upload
// (PUT /file/content: an activity row in the change's transaction) and a
// WebDAV PUT (the same through /dav/), on a server that records against one
// started with CIRRUS_BENCHMARK_RECORDING_OFF=true (no audit hook, no actor
// hook, no activity sink), both running in the same run on the same machine.
// Each round loads one path on one server for a short window, then the same
// path on the other, the order swapped every round (ABBA…), so drift on a
// busy machine hits both alike; each round gives a with/without ratio and the
// median of the rounds is reported. Two figures per path: operations per
// second (closed loops, WORKERS at a time) and the server's CPU time per
// operation (from /proc, which other load disturbs less). The audit writer
// runs in the server process, so its batches count in the CPU figure.
// Target: recording costs under 5 % on each path, in CPU per operation.
// npm run bench -- audit-cost   (CIRRUS_BENCH_AUDIT_ROUNDS 8, CIRRUS_BENCH_AUDIT_SECONDS 2,
// CIRRUS_BENCH_AUDIT_WORKERS 4, CIRRUS_BENCH_AUDIT_DATABASE sqlite | postgres,
// CIRRUS_BENCH_AUDIT_PATHS: a comma list of words picking the paths, e.g. webdav)
import { readFileSync } from 'node:fs';
import { ADMIN, api, chainLoad, envInt, fmt, median, signIn, startCirrus, table } from './lib.mjs';

const ROUNDS = envInt('CIRRUS_BENCH_AUDIT_ROUNDS', 8);
const SECONDS = envInt('CIRRUS_BENCH_AUDIT_SECONDS', 2);
const WORKERS = envInt('CIRRUS_BENCH_AUDIT_WORKERS', 4);
const DATABASE = process.env.CIRRUS_BENCH_AUDIT_DATABASE ?? 'sqlite';
const TARGET = 1.05;
const PICK = (process.env.CIRRUS_BENCH_AUDIT_PATHS ?? '').toLowerCase().split(',').filter(Boolean);
const BODY = Buffer.alloc(4096, 'a');

/** CPU seconds (user + system) the server process has used (Linux /proc). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function prepare(recording) {
  const server = await startCirrus({ database: DATABASE, env: recording ? {} : { CIRRUS_BENCHMARK_RECORDING_OFF: 'true' } });
  const token = (await signIn(server.url)).access_token;
  const me = (await api(server.url, 'GET', '/api/v4/user/me', { token })).body.data;
  await api(server.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } });
  const account = (await api(server.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'audit-cost' } })).body.data;
  if (!account?.password) throw new Error('could not make a WebDAV account');
  const basic = `Basic ${Buffer.from(`${ADMIN.email}:${account.password}`).toString('base64')}`;
  return { server, token, basic, name: recording ? 'with' : 'without', windows: 0 };
}

/** The three paths: each `step` makes one operation and says whether it succeeded. */
const PATHS = {
  'POST /session/token (password sign-in)': async (s) => ({
    step: async () => {
      const res = await fetch(`${s.server.url}/api/v4/session/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }) });
      const body = await res.json();
      return body.code === 0;
    },
  }),
  'PUT /file/content (4 KiB upload)': async (s) => {
    const folder = `/bench-${s.windows}`;
    return {
      step: async (worker, state) => {
        state.i = (state.i ?? 0) + 1;
        const res = await fetch(`${s.server.url}/api/v4/file/content?path=${encodeURIComponent(`${folder}/w${worker}-${state.i}.bin`)}`, { method: 'PUT', headers: { authorization: `Bearer ${s.token}` }, body: BODY });
        const body = await res.json();
        return body.code === 0;
      },
    };
  },
  'WebDAV PUT (4 KiB)': async (s) => {
    const folder = `/dav/dav-${s.windows}`;
    const made = await fetch(`${s.server.url}${folder}/`, { method: 'MKCOL', headers: { authorization: s.basic } });
    if (made.status !== 201) throw new Error(`MKCOL ${folder}: ${made.status}`);
    return {
      step: async (worker, state) => {
        state.i = (state.i ?? 0) + 1;
        const res = await fetch(`${s.server.url}${folder}/w${worker}-${state.i}.bin`, { method: 'PUT', headers: { authorization: s.basic }, body: BODY });
        await res.arrayBuffer();
        return res.status === 201 || res.status === 204;
      },
    };
  },
};

async function window(s, path, seconds) {
  s.windows++;
  const { step } = await PATHS[path](s);
  const c0 = cpuSeconds(s.server.pid);
  const r = await chainLoad({ workers: WORKERS, duration: seconds, step });
  return { ops: r.total, rps: r.rps, cpuPerOp: (cpuSeconds(s.server.pid) - c0) / Math.max(1, r.total), failed: r.failed };
}

export async function run() {
  const withRec = await prepare(true);
  const without = await prepare(false);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  try {
    const rows = [];
    let ok = true;
    let failed = 0;
    for (const path of Object.keys(PATHS).filter((p) => PICK.length === 0 || PICK.some((w) => p.toLowerCase().includes(w)))) {
      // Warm both (caches, JIT, the first rows of each table).
      await window(withRec, path, 1);
      await window(without, path, 1);
      const rps = [];
      const cpu = [];
      const sums = { with: { ops: 0, cpu: 0 }, without: { ops: 0, cpu: 0 } };
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? [withRec, without] : [without, withRec];
        const got = {};
        for (const s of order) {
          got[s.name] = await window(s, path, SECONDS);
          sums[s.name].ops += got[s.name].ops;
          sums[s.name].cpu += got[s.name].cpuPerOp * got[s.name].ops;
          failed += got[s.name].failed;
        }
        rps.push(got.with.rps / got.without.rps);
        cpu.push(got.with.cpuPerOp / got.without.cpuPerOp);
        console.error(`  ${path} round ${r + 1}: with ${fmt(got.with.rps, 1)} op/s ${fmt(got.with.cpuPerOp * 1e3, 2)} ms CPU/op, without ${fmt(got.without.rps, 1)} op/s ${fmt(got.without.cpuPerOp * 1e3, 2)} ms CPU/op`);
      }
      const cpuRatio = median(cpu);
      if (!(cpuRatio < TARGET)) ok = false;
      const per = (k) => sums[k].cpu / sums[k].ops;
      rows.push([
        path,
        fmt(sums.with.ops / (ROUNDS * SECONDS), 1),
        fmt(sums.without.ops / (ROUNDS * SECONDS), 1),
        median(rps).toFixed(3),
        fmt(per('with') * 1e3, 3),
        fmt(per('without') * 1e3, 3),
        `**${cpuRatio.toFixed(3)}**`,
        `${Math.min(...cpu).toFixed(3)}–${Math.max(...cpu).toFixed(3)}`,
      ]);
    }
    const md =
      table(
        `Audit log + activity: with vs without recording, ${DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite'}, two servers in the same run (${ROUNDS} alternated rounds of ${SECONDS} s per path and server; ${WORKERS} closed loops; load average ${load} at the start)`,
        ['path', 'with op/s', 'without op/s', 'with / without op/s (median of rounds)', 'with CPU ms/op', 'without CPU ms/op', 'with / without CPU per op (median)', 'range over rounds'],
        rows,
      ) + `\n\nTarget: recording costs under 5 % (CPU per operation with / without < ${TARGET}) on each path; failed operations: ${failed}.\n`;
    return { md, ok: ok && failed === 0 };
  } finally {
    await withRec.server.stop();
    await without.server.stop();
  }
}
