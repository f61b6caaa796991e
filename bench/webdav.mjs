// WebDAV benchmark (issue 9): Cirrus's /dav/ against Apache httpd 2.4 with
// mod_dav + mod_dav_fs, both on loopback, both storing on the same disk
// (temp dirs of one file system), both behind Basic auth, measured in the same
// run and alternating the order each round:
// - rclone (WebDAV backend, default 4 transfers) upload and download of
//   1,000 small files of 4 KiB, and of one large file (1 GiB by default);
// - PROPFIND Depth 1 of a 10,000-entry folder (autocannon, 4 connections);
// - the peak resident memory of each server over the whole run (Cirrus:
//   VmHWM of its process; Apache: the largest sum of its processes' RSS,
//   sampled every 100 ms).
// Targets: Cirrus at least 1.0x Apache's throughput on each, peak < 200 MB.
// Settings: CIRRUS_BENCH_DAV_BIG_MB (1024), CIRRUS_BENCH_DAV_SMALL_FILES (1000),
// CIRRUS_BENCH_DAV_LIST (10000), CIRRUS_BENCH_DAV_ROUNDS (3: the median is
// reported), CIRRUS_BENCH_DAV_DATABASE (sqlite | postgres; default sqlite).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCirrus, signIn, api, fmt, table, ROOT, ADMIN, procMemory, propfindLoad, writeRandomFile } from './lib.mjs';
import { seedFolder } from './files-seed.mjs';

function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

const BIG_MB = envInt('CIRRUS_BENCH_DAV_BIG_MB', 1024);
const SMALL_FILES = envInt('CIRRUS_BENCH_DAV_SMALL_FILES', 1000);
const LIST = envInt('CIRRUS_BENCH_DAV_LIST', 10_000);
const ROUNDS = envInt('CIRRUS_BENCH_DAV_ROUNDS', 3);
const DATABASE = process.env.CIRRUS_BENCH_DAV_DATABASE ?? 'sqlite';
const TARGET = { ratio: 1.0, rssMB: 200 };
const MiB = 1024 * 1024;

const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

function rclone(args, env) {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { ...process.env, ...env }, maxBuffer: 64 * MiB, timeout: 3_600_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`rclone ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function data(res, what) {
  if (res.body?.code !== 0) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.data;
}

/** fdatasync of a file: what it takes to put bytes already written on the disk. */
async function datasync(file) {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

export async function run() {
  const missing = ['rclone', 'apache2', 'htpasswd'].filter((t) => !has(t));
  if (missing.length) return { ok: true, md: `\n### WebDAV against Apache mod_dav\n\nSkipped: ${missing.join(', ')} not installed (.ci/run installs them).\n` };
  const { startApacheDav } = await import(pathToFileURL(path.join(ROOT, 'dist/server/test/webdav/apache.js')).href);
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-dav-'));
  const cleanup = [() => rmSync(work, { recursive: true, force: true })];
  try {
    // ---- the data, made once ----
    const small = path.join(work, 'small');
    mkdirSync(small);
    for (let i = 0; i < SMALL_FILES; i++) writeFileSync(path.join(small, `f${String(i).padStart(5, '0')}.bin`), randomBytes(4096));
    const bigDir = path.join(work, 'big');
    mkdirSync(bigDir);
    await writeRandomFile(path.join(bigDir, 'big.bin'), BIG_MB * MiB);

    // ---- the servers ----
    const cirrus = await startCirrus({ database: DATABASE });
    cleanup.push(() => cirrus.stop());
    const token = (await signIn(cirrus.url)).access_token;
    const me = data(await api(cirrus.url, 'GET', '/api/v4/user/me', { token }), 'GET /user/me');
    data(await api(cirrus.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } }), 'raising the quota');
    const account = data(await api(cirrus.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'bench' } }), 'creating the WebDAV account');
    const apache = await startApacheDav();
    cleanup.push(() => apache.stop());
    let apachePeak = 0;
    const sampler = setInterval(() => (apachePeak = Math.max(apachePeak, apache.rss())), 100);
    cleanup.push(() => clearInterval(sampler));

    const obscure = async (pw) => (await rclone(['obscure', pw], {})).trim();
    const remotes = {
      Cirrus: { name: 'cirrus', env: { RCLONE_CONFIG_CIRRUS_TYPE: 'webdav', RCLONE_CONFIG_CIRRUS_URL: `${cirrus.url}/dav/`, RCLONE_CONFIG_CIRRUS_VENDOR: 'other', RCLONE_CONFIG_CIRRUS_USER: ADMIN.email, RCLONE_CONFIG_CIRRUS_PASS: await obscure(account.password) } },
      Apache: { name: 'apache', env: { RCLONE_CONFIG_APACHE_TYPE: 'webdav', RCLONE_CONFIG_APACHE_URL: `${apache.url}/dav/`, RCLONE_CONFIG_APACHE_VENDOR: 'other', RCLONE_CONFIG_APACHE_USER: apache.user, RCLONE_CONFIG_APACHE_PASS: await obscure(apache.password) } },
    };
    const common = { RCLONE_CONFIG: path.join(work, 'none.conf') };
    const times = { Cirrus: { smallUp: [], smallDown: [], bigUp: [], bigDown: [] }, Apache: { smallUp: [], smallDown: [], bigUp: [], bigUpSync: [], bigDown: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['Cirrus', 'Apache'] : ['Apache', 'Cirrus'];
      for (const server of order) {
        const { name, env } = remotes[server];
        const e = { ...common, ...env };
        const back = path.join(work, `back-${server}-${round}`);
        times[server].smallUp.push(await timed(() => rclone(['copy', small, `${name}:small-${round}`], e)));
        times[server].smallDown.push(await timed(() => rclone(['copy', `${name}:small-${round}`, path.join(back, 'small')], e)));
        times[server].bigUp.push(await timed(() => rclone(['copy', bigDir, `${name}:big-${round}`], e)));
        // Cirrus answers a PUT once the file is on disk (fsync); Apache as soon as it is in the page cache.
        // For the same durability, the time to fdatasync the file Apache wrote, measured right after.
        if (server === 'Apache') times.Apache.bigUpSync.push(await timed(() => datasync(path.join(apache.dataDir, `big-${round}`, 'big.bin'))));
        times[server].bigDown.push(await timed(() => rclone(['copy', `${name}:big-${round}`, path.join(back, 'big')], e)));
        rmSync(back, { recursive: true, force: true });
        // Free the disk: delete on the server (Cirrus: to the trash, then empty it).
        await rclone(['purge', `${name}:big-${round}`], e);
        await rclone(['purge', `${name}:small-${round}`], e);
        if (server === 'Cirrus') await api(cirrus.url, 'DELETE', '/api/v4/file/trash', { token });
        if (process.env.CIRRUS_BENCH_VERBOSE === '1') console.error(server, round, JSON.stringify(Object.fromEntries(Object.entries(times[server]).map(([k, v]) => [k, v.at(-1)]))), server === 'Cirrus' ? `Cirrus VmHWM ${fmt(procMemory(cirrus.pid) / 1e6)} MB` : '');
      }
    }

    // ---- PROPFIND Depth 1 of a LIST-entry folder ----
    const folder = data(await api(cirrus.url, 'POST', '/api/v4/file/create', { token, json: { path: '/list', type: 'folder' } }), 'creating /list');
    const database = DATABASE === 'postgres' ? { kind: 'postgres', url: cirrus.databaseUrl } : { kind: 'sqlite', file: path.join(cirrus.dataDir, 'cirrus.db') };
    await seedFolder({ database, ownerId: me.id, folderId: folder.id, count: LIST });
    const listDir = path.join(apache.dataDir, 'list');
    mkdirSync(listDir);
    for (let i = 0; i < LIST; i++) writeFileSync(path.join(listDir, `file-${String(i).padStart(6, '0')}.txt`), '');
    spawnSync('chown', ['-R', 'www-data:www-data', listDir]);
    const basic = (u, p) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
    const targets = {
      Cirrus: { url: `${cirrus.url}/dav/list/`, auth: basic(ADMIN.email, account.password) },
      Apache: { url: `${apache.url}/dav/list/`, auth: basic(apache.user, apache.password) },
    };
    const listing = {};
    for (const [server, t] of Object.entries(targets)) {
      const res = await fetch(t.url, { method: 'PROPFIND', headers: { depth: '1', authorization: t.auth } });
      const text = await res.text();
      const responses = (text.match(/<D:response[ >]/g) ?? []).length;
      if (res.status !== 207 || responses !== LIST + 1) throw new Error(`${server} PROPFIND answered ${res.status} with ${responses} responses`);
      listing[server] = { bytes: text.length };
    }
    if (process.env.CIRRUS_BENCH_VERBOSE === '1') console.error(`before the PROPFIND load: Cirrus VmHWM ${fmt(procMemory(cirrus.pid) / 1e6)} MB`);
    for (const server of ['Apache', 'Cirrus', 'Apache', 'Cirrus']) {
      const t = targets[server];
      const r = await propfindLoad(t.url, t.auth, { connections: 4, seconds: 10 });
      if (process.env.CIRRUS_BENCH_VERBOSE === '1') console.error(`PROPFIND ${server}: ${fmt(r.rps, 1)} req/s, Cirrus VmHWM ${fmt(procMemory(cirrus.pid) / 1e6)} MB`);
      if (r.failed) throw new Error(`${server} PROPFIND load had ${r.failed} failures`);
      listing[server].rps = Math.max(listing[server].rps ?? 0, r.rps);
      listing[server].p50 = r.p50;
    }
    const cirrusPeak = procMemory(cirrus.pid);
    clearInterval(sampler);

    // ---- the report ----
    const rows = [];
    let ok = true;
    const line = (what, unit, cirrusRate, apacheRate) => {
      const ratio = cirrusRate / apacheRate;
      if (ratio < TARGET.ratio) ok = false;
      rows.push([what, `${fmt(cirrusRate, 1)} ${unit}`, `${fmt(apacheRate, 1)} ${unit}`, `${fmt(ratio, 2)}x`, ratio >= TARGET.ratio ? 'met' : '**missed**']);
    };
    const m = (server, k) => median(times[server][k]);
    line(`rclone upload, ${SMALL_FILES} × 4 KiB`, 'files/s', SMALL_FILES / m('Cirrus', 'smallUp'), SMALL_FILES / m('Apache', 'smallUp'));
    line(`rclone download, ${SMALL_FILES} × 4 KiB`, 'files/s', SMALL_FILES / m('Cirrus', 'smallDown'), SMALL_FILES / m('Apache', 'smallDown'));
    line(`rclone upload, 1 × ${BIG_MB} MiB`, 'MiB/s', BIG_MB / m('Cirrus', 'bigUp'), BIG_MB / m('Apache', 'bigUp'));
    const apacheDurable = median(times.Apache.bigUp.map((t, i) => t + times.Apache.bigUpSync[i]));
    rows.push([
      `rclone upload, 1 × ${BIG_MB} MiB, Apache's file then fdatasync'd (the durability of Cirrus's answer; not a target)`,
      `${fmt(BIG_MB / m('Cirrus', 'bigUp'), 1)} MiB/s`,
      `${fmt(BIG_MB / apacheDurable, 1)} MiB/s`,
      `${fmt(apacheDurable / m('Cirrus', 'bigUp'), 2)}x`,
      '–',
    ]);
    line(`rclone download, 1 × ${BIG_MB} MiB`, 'MiB/s', BIG_MB / m('Cirrus', 'bigDown'), BIG_MB / m('Apache', 'bigDown'));
    line(`PROPFIND Depth 1, ${fmt(LIST)} entries (${fmt(listing.Cirrus.bytes / MiB, 1)} / ${fmt(listing.Apache.bytes / MiB, 1)} MiB of XML)`, 'req/s', listing.Cirrus.rps, listing.Apache.rps);
    const memOk = cirrusPeak < TARGET.rssMB * 1e6;
    if (!memOk) ok = false;
    rows.push(['peak resident memory over the run', `${fmt(cirrusPeak / 1e6)} MB`, `${fmt(apachePeak / 1e6)} MB`, '–', memOk ? `met (< ${TARGET.rssMB} MB)` : '**missed**']);
    const md = table(
      `WebDAV: Cirrus (${DATABASE}) against Apache 2.4 mod_dav_fs, same run, same disk (median of ${ROUNDS} rounds; PROPFIND best of 2 × 10 s)`,
      ['workload', 'Cirrus', 'Apache', 'ratio', `target ≥ ${TARGET.ratio}x`],
      rows,
    );
    // Per round, so a slowdown after the first round shows (the order alternates: even rounds Cirrus first).
    const perRound = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cell = (k) => `${fmt(times.Cirrus[k][round], 2)} / ${fmt(times.Apache[k][round], 2)}`;
      perRound.push([String(round + 1), round % 2 === 0 ? 'Cirrus' : 'Apache', cell('smallUp'), cell('smallDown'), `${cell('bigUp')} + ${fmt(times.Apache.bigUpSync[round], 2)}`, cell('bigDown')]);
    }
    const rounds = table(
      'Per round, seconds (Cirrus / Apache; + the fdatasync of Apache\'s file)',
      ['round', 'first', `${SMALL_FILES} × 4 KiB up`, `${SMALL_FILES} × 4 KiB down`, `${BIG_MB} MiB up`, `${BIG_MB} MiB down`],
      perRound,
    );
    return { ok, md: md + rounds };
  } finally {
    for (const fn of cleanup.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error(`clean-up failed: ${err.message}`);
      }
    }
  }
}
