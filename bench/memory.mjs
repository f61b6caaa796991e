// Where Cirrus's memory goes, phase by phase, under each of several node
// command lines (issue 9's and issue 10's < 200 MB peak): one server per
// setting, SQLite, the same WebDAV work as `bench/webdav.mjs` without Apache —
// rclone upload and download of SMALL × 4 KiB and of one BIG MiB file, then
// PROPFIND Depth 1 of a 10,000-entry folder (4 connections, 2 × 10 s). After
// each phase it records the process's peak (VmHWM) and current (VmRSS)
// resident memory. The settings compared are `npm start`'s node flags and
// none at all; CIRRUS_BENCH_MEMORY_SETTINGS replaces them ("|"-separated
// command lines, "-" for none).
// npm run bench -- memory   (CIRRUS_BENCH_DAV_SMALL_FILES, CIRRUS_BENCH_DAV_BIG_MB)
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, api, fmt, procMemory, propfindLoad, serveNodeArgs, signIn, startCirrus, table, writeRandomFile } from './lib.mjs';
import { seedFolder } from './files-seed.mjs';

const SMALL = Number(process.env.CIRRUS_BENCH_DAV_SMALL_FILES || 1000);
const BIG_MB = Number(process.env.CIRRUS_BENCH_DAV_BIG_MB || 1024);
const LIST = 10_000;

async function measure(nodeArgs, work) {
  const server = await startCirrus({ nodeArgs, replaceNodeArgs: true });
  try {
    const token = (await signIn(server.url)).access_token;
    const me = (await api(server.url, 'GET', '/api/v4/user/me', { token })).body.data;
    await api(server.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } });
    const account = (await api(server.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'memory' } })).body.data;
    const env = {
      ...process.env,
      RCLONE_CONFIG: path.join(work, 'none.conf'),
      RCLONE_CONFIG_C_TYPE: 'webdav',
      RCLONE_CONFIG_C_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_C_VENDOR: 'other',
      RCLONE_CONFIG_C_USER: ADMIN.email,
      RCLONE_CONFIG_C_PASS: execFileSync('rclone', ['obscure', account.password]).toString().trim(),
    };
    const rows = [];
    const note = (phase, result) => rows.push({ phase, result, peak: procMemory(server.pid, 'VmHWM'), now: procMemory(server.pid, 'VmRSS') });
    const rclone = (args) => {
      const t0 = performance.now();
      execFileSync('rclone', args, { env });
      return `${fmt((performance.now() - t0) / 1000, 2)} s`;
    };
    note('idle, after sign-in', '');
    note(`upload ${SMALL} × 4 KiB`, rclone(['copy', path.join(work, 'small'), 'c:small']));
    note(`download ${SMALL} × 4 KiB`, rclone(['copy', 'c:small', path.join(work, 'back-small')]));
    note(`upload 1 × ${BIG_MB} MiB`, rclone(['copy', path.join(work, 'big'), 'c:big']));
    note(`download 1 × ${BIG_MB} MiB`, rclone(['copy', 'c:big', path.join(work, 'back-big')]));
    rmSync(path.join(work, 'back-small'), { recursive: true, force: true });
    rmSync(path.join(work, 'back-big'), { recursive: true, force: true });
    const folder = (await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: '/list', type: 'folder' } })).body.data;
    await seedFolder({ database: { kind: 'sqlite', file: path.join(server.dataDir, 'cirrus.db') }, ownerId: me.id, folderId: folder.id, count: LIST });
    const auth = `Basic ${Buffer.from(`${ADMIN.email}:${account.password}`).toString('base64')}`;
    for (let i = 1; i <= 2; i++) {
      const load = await propfindLoad(`${server.url}/dav/list/`, auth, { connections: 4, seconds: 10 });
      if (load.failed) throw new Error(`${load.failed} PROPFIND requests failed`);
      note(`PROPFIND Depth 1 × ${fmt(LIST)} entries, 10 s (${i})`, `${fmt(load.rps, 1)} req/s`);
    }
    return rows;
  } finally {
    await server.stop();
  }
}

export async function run() {
  if (spawnSync('sh', ['-c', 'command -v rclone']).status !== 0) return { ok: true, md: '\n### Memory by phase\n\nSkipped: rclone is not installed (.ci/run installs it).\n' };
  const settings = process.env.CIRRUS_BENCH_MEMORY_SETTINGS
    ? process.env.CIRRUS_BENCH_MEMORY_SETTINGS.split('|').map((s) => (s.trim() === '-' ? [] : s.trim().split(/\s+/)))
    : [serveNodeArgs(), []];
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-memory-'));
  try {
    mkdirSync(path.join(work, 'small'));
    for (let i = 0; i < SMALL; i++) writeFileSync(path.join(work, 'small', `f${String(i).padStart(5, '0')}.bin`), randomBytes(4096));
    mkdirSync(path.join(work, 'big'));
    await writeRandomFile(path.join(work, 'big', 'big.bin'), BIG_MB * 1024 * 1024);
    const results = [];
    for (const args of settings) results.push({ args, rows: await measure(args, work) });
    const label = (args) => (args.length ? `\`${args.join(' ')}\`` : 'no flags');
    const header = ['phase', ...results.flatMap((r) => [`${label(r.args)}: result`, 'peak MB', 'now MB'])];
    const rows = results[0].rows.map((row, i) => [row.phase, ...results.flatMap((r) => [r.rows[i].result || '–', fmt(r.rows[i].peak / 1e6), fmt(r.rows[i].now / 1e6)])]);
    return { ok: true, md: table('Memory by phase: one Cirrus (SQLite) per node command line, WebDAV work in order; peak = VmHWM after the phase, now = VmRSS', header, rows) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
