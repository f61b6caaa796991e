// Server cost of one small sync-client PUT (4 KiB to /remote.php/dav/files/…,
// with X-OC-Mtime and OC-Checksum as nextcloudcmd sends it), six at a time:
// the server's CPU (all its threads) and wall time per PUT, and with
// STATEMENTS=1 the SQL statements per PUT (a preload wraps better-sqlite3;
// counting costs CPU, so those runs are not timed against others).
//   node bench/sync-put-cost.mjs                      this build
//   node bench/sync-put-cost.mjs /tmp/old /work/main  builds side by side (each
//     a checkout after `npm run build:server`, with node_modules), alternated
//     ROUNDS times, the order reversed every other round
// Settings: PUTS (1500), PARALLEL (6), ROUNDS (3), STATEMENTS (unset), PROFILE (unset;
// a folder: the server writes a V8 CPU profile there when it stops, --cpu-prof).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, ROOT, api, median, signIn, startCirrus } from './lib.mjs';

const PUTS = Number(process.env.PUTS ?? 1500);
const PARALLEL = Number(process.env.PARALLEL ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const COUNT = process.env.STATEMENTS === '1';
const PROFILE = process.env.PROFILE;
const roots = process.argv.length > 2 ? process.argv.slice(2).map((d) => path.resolve(d)) : [ROOT];
const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-put-cost-'));
const countsFile = path.join(dir, 'counts.json');
const preload = path.join(dir, 'statements.mjs');
writeFileSync(
  preload,
  `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(${JSON.stringify(`${ROOT}/node_modules/`)});
let counts = new Map();
const Database = require('better-sqlite3');
const probe = new Database(':memory:');
const Statement = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();
for (const m of ['run', 'all', 'get', 'iterate']) {
  const orig = Statement[m];
  Statement[m] = function (...a) { counts.set(this.source, (counts.get(this.source) ?? 0) + 1); return orig.apply(this, a); };
}
process.on('SIGUSR2', () => { writeFileSync(process.env.CIRRUS_STATEMENTS_FILE, JSON.stringify([...counts])); counts = new Map(); });
`,
);

/** CPU time of a process, all threads, in ms. */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function snapshot(pid) {
  process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 300));
  return JSON.parse(readFileSync(countsFile, 'utf8'));
}

async function measure(root) {
  const site = await startCirrus({ root, env: { CIRRUS_STATEMENTS_FILE: countsFile }, nodeArgs: [...(COUNT ? [`--import=${preload}`] : []), ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [])] });
  try {
    const token = (await signIn(site.url)).access_token;
    const me = (await api(site.url, 'GET', '/api/v4/user/me', { token })).body.data;
    await api(site.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } });
    const account = (await api(site.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'bench' } })).body.data;
    const auth = `Basic ${Buffer.from(`${ADMIN.email}:${account.password}`).toString('base64')}`;
    const base = `${site.url}/remote.php/dav/files/${me.id}/t`;
    await fetch(base, { method: 'MKCOL', headers: { authorization: auth } });
    for (let d = 0; d < 20; d++) await fetch(`${base}/d${d}`, { method: 'MKCOL', headers: { authorization: auth } });
    const put = async (i) => {
      const body = randomBytes(4096);
      const res = await fetch(`${base}/d${i % 20}/f${i}.bin`, {
        method: 'PUT',
        body,
        headers: { authorization: auth, 'x-oc-mtime': String(1_700_000_000 + i), 'oc-checksum': `SHA1:${createHash('sha1').update(body).digest('hex')}`, 'content-type': 'application/octet-stream' },
      });
      if (res.status !== 201) throw new Error(`PUT: ${res.status} ${await res.text()}`);
    };
    // Warm-up: the routes' first requests compile their schemas.
    for (let i = 0; i < 50; i++) await put(1_000_000 + i);
    if (COUNT) await snapshot(site.pid);
    const c0 = cpuMs(site.pid);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: PARALLEL }, async () => { while (next < PUTS) await put(next++); }));
    const wall = (performance.now() - t0) / PUTS;
    const cpu = (cpuMs(site.pid) - c0) / PUTS;
    const statements = COUNT ? (await snapshot(site.pid)).reduce((n, [, c]) => n + c, 0) / PUTS : null;
    return { cpu, wall, statements };
  } finally {
    await site.stop();
  }
}

const results = roots.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  const order = roots.map((_, i) => i);
  if (round % 2 === 1) order.reverse();
  for (const i of order) {
    const r = await measure(roots[i]);
    results[i].push(r);
    console.error(`  round ${round + 1} ${roots[i]}: CPU ${r.cpu.toFixed(2)} ms/PUT, wall ${r.wall.toFixed(2)} ms/PUT${r.statements === null ? '' : `, ${r.statements.toFixed(1)} statements/PUT`}`);
  }
}
console.log(`\n${PUTS} sync PUTs of 4 KiB, ${PARALLEL} at a time, median of ${ROUNDS} rounds:\n`);
console.log('| build | server CPU ms/PUT | wall ms/PUT | statements/PUT |\n|---|---|---|---|');
for (const [i, root] of roots.entries()) {
  const rs = results[i];
  console.log(`| ${root} | ${median(rs.map((r) => r.cpu)).toFixed(2)} | ${median(rs.map((r) => r.wall)).toFixed(2)} | ${COUNT ? median(rs.map((r) => r.statements)).toFixed(1) : '–'} |`);
}
