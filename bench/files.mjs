// File service benchmark (issue: file service), on SQLite and on PostgreSQL:
// - download of a large file over loopback, as a ratio to nginx serving the
//   same bytes in the same run (target ≥ 0.9);
// - upload of a large file (raw PUT, and tus in chunks), as a ratio to writing
//   the same bytes to disk with a plain stream + fsync (target ≥ 0.6), and the
//   server's peak RSS after a small and after the large uploads (target
//   < 200 MB, independent of the file size);
// - the first page (100 entries) of a folder holding 100,000 files: p50 and
//   p99 latency (target p50 < 20 ms on SQLite).
// Sizes: CIRRUS_BENCH_FILE_MB (default 1024), CIRRUS_BENCH_SMALL_MB (256),
// CIRRUS_BENCH_LIST_FILES (100000); CIRRUS_BENCH_DATABASES=sqlite,postgres.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import http from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { startCirrus, freshPostgres, signIn, api, load, fmt, table } from './lib.mjs';
import { startNginx } from './files-nginx.mjs';
import { seedFolder } from './files-seed.mjs';

const MiB = 1024 * 1024;
const MB = 1e6;

function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

const FILE_MB = envInt('CIRRUS_BENCH_FILE_MB', 1024);
const SMALL_MB = envInt('CIRRUS_BENCH_SMALL_MB', Math.max(1, Math.min(256, Math.floor(FILE_MB / 4))));
const LIST_FILES = envInt('CIRRUS_BENCH_LIST_FILES', 100_000);
const LIST_REQUESTS = envInt('CIRRUS_BENCH_LIST_REQUESTS', 500);
const DOWNLOAD_ROUNDS = envInt('CIRRUS_BENCH_DOWNLOAD_ROUNDS', 4);
const UPLOAD_ROUNDS = envInt('CIRRUS_BENCH_UPLOAD_ROUNDS', 3);
const TUS_CHUNK_MB = envInt('CIRRUS_BENCH_TUS_CHUNK_MB', 64);
const DATABASES = (process.env.CIRRUS_BENCH_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);

const TARGET = { download: 0.9, upload: 0.6, rssMB: 200, listP50: 20 };

// ---- clean-up, also on Ctrl-C: large temp files must not outlive the run ----

const cleanups = [];
/** Folders removed synchronously when the process exits, whatever the reason. */
const tempDirs = new Set();
process.on('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function onCleanup(fn) {
  cleanups.push(fn);
}
async function runCleanups(downTo = 0) {
  while (cleanups.length > downTo) {
    try {
      await cleanups.pop()();
    } catch (err) {
      console.error(`clean-up failed: ${err.message}`);
    }
  }
}
function removeOnExit(dir) {
  tempDirs.add(dir);
  onCleanup(() => {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  });
}
function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  removeOnExit(dir);
  return dir;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    // stderr may be a pipe that is gone already; clean-up must not die of EPIPE.
    process.stderr.on('error', () => undefined);
    setTimeout(() => process.exit(130), 20_000).unref();
    void runCleanups().finally(() => process.exit(130));
  });
}

// ---- payload: deterministic bytes from a generator, never all in memory ----

const POOL = Array.from({ length: 8 }, () => randomBytes(MiB));

/** Bytes [start, end) of the payload, 1 MiB at a time; start is MiB-aligned. */
function* payload(end, start = 0) {
  if (start % MiB !== 0) throw new Error('payload ranges start on a MiB boundary');
  for (let off = start; off < end; off += MiB) {
    const chunk = POOL[(off / MiB) % POOL.length];
    yield end - off >= MiB ? chunk : chunk.subarray(0, end - off);
  }
}

function payloadCrc(bytes) {
  let c = 0;
  for (const chunk of payload(bytes)) c = crc32(chunk, c);
  return c;
}

async function fileCrc(file) {
  let c = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: MiB })) c = crc32(chunk, c);
  return c;
}

// ---- measurements -------------------------------------------------------------

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { hwmMB: (kb('VmHWM') * 1024) / MB, rssMB: (kb('VmRSS') * 1024) / MB };
}

/** User + system CPU seconds a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Sends `bytes` of the payload (from `start`) as a request body; resolves with the response. */
function sendBody(url, { method, headers, bytes, start = 0 }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': String(bytes) }, agent: false }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* tus answers have no body */
        }
        resolve({ status: res.statusCode, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    pipeline(Readable.from(payload(start + bytes, start)), req).catch(reject);
  });
}

/** Baseline: the payload piped into fs.createWriteStream, then fsync. */
async function diskWrite(file, bytes) {
  const t0 = performance.now();
  await pipeline(Readable.from(payload(bytes)), createWriteStream(file));
  // fsync through a second descriptor: it flushes the file, whichever descriptor wrote it.
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  await rm(file, { force: true });
  return seconds;
}

async function putUpload(server, token, filePath, bytes) {
  const t0 = performance.now();
  const res = await sendBody(`${server.url}/api/v4/file/content?path=${encodeURIComponent(filePath)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    bytes,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (res.status !== 200 || res.body?.code !== 0 || res.body.data?.size !== bytes) {
    throw new Error(`PUT ${filePath} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  return seconds;
}

async function tusUpload(server, token, filePath, bytes, chunkBytes) {
  const tus = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const t0 = performance.now();
  const created = await fetch(`${server.url}/api/v4/file/upload`, {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(bytes), 'upload-metadata': `path ${Buffer.from(filePath).toString('base64')}` },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`tus create failed: ${created.status} ${await created.text()}`);
  const target = new URL(location, server.url).toString();
  for (let offset = 0; offset < bytes; ) {
    const n = Math.min(chunkBytes, bytes - offset);
    const res = await sendBody(target, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      bytes: n,
      start: offset,
    });
    if (res.status !== 204 || Number(res.headers['upload-offset']) !== offset + n) {
      throw new Error(`tus PATCH at ${offset} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    offset += n;
  }
  return (performance.now() - t0) / 1000;
}

/** One download with curl to /dev/null (or a file): seconds and bytes as curl measured them. */
function curl(url, { token, out = '/dev/null' } = {}) {
  return new Promise((resolve, reject) => {
    const args = ['-s', '-S', '-o', out, '-w', '%{http_code} %{size_download} %{time_total}', ...(token ? ['-H', `Authorization: Bearer ${token}`] : []), url];
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const [status, size, seconds] = text.trim().split(' ').map(Number);
      if (code !== 0 || status !== 200) reject(new Error(`curl ${url} failed: exit ${code}, HTTP ${status}`));
      else resolve({ bytes: size, seconds });
    });
  });
}

/** GETs `url` sequentially `n` times; latencies in ms. */
async function sequentialGets(url, token, n) {
  const latencies = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  }
  return latencies.sort((a, b) => a - b);
}

// ---- one database -------------------------------------------------------------

async function startServer(database) {
  if (database === 'sqlite') {
    const server = await startCirrus();
    removeOnExit(server.dataDir);
    onCleanup(() => server.stop());
    return { server, dbConfig: { kind: 'sqlite', file: path.join(server.dataDir, 'cirrus.db') } };
  }
  // Our own database (not startCirrus's), so that the seeding step can connect to it too.
  const pgDb = await freshPostgres(process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  onCleanup(() => pgDb.drop());
  const server = await startCirrus({ env: { CIRRUS_DATABASE_URL: pgDb.url } });
  removeOnExit(server.dataDir);
  onCleanup(() => server.stop());
  return { server, dbConfig: { kind: 'postgres', url: pgDb.url } };
}

async function data(res, what) {
  if (res.body?.code !== 0) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.data;
}

async function benchDatabase(database) {
  const mark = cleanups.length;
  try {
    const { server, dbConfig } = await startServer(database);
    const rss = { start: procStatus(server.pid) };
    const load0 = os.loadavg()[0];
    const token = (await signIn(server.url)).access_token;
    rss.signIn = procStatus(server.pid);
    const me = await data(await api(server.url, 'GET', '/api/v4/user/me', { token }), 'GET /user/me');
    await data(await api(server.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } }), 'raising the quota');

    const bytes = FILE_MB * MiB;
    const small = SMALL_MB * MiB;

    // ---- uploads: the small one first, so VmHWM then shows its peak alone ----
    const smallSeconds = await putUpload(server, token, '/bench/small.bin', small);
    rss.small = procStatus(server.pid);
    const scratch = tempDir('cirrus-bench-write-');
    const rounds = { disk: [], put: [], tus: [], putCpu: 0, tusCpu: 0 };
    const timed = async (kind, fn) => {
      const cpu0 = cpuSeconds(server.pid);
      rounds[kind].push(await fn());
      rounds[`${kind}Cpu`] += cpuSeconds(server.pid) - cpu0;
    };
    const writers = {
      disk: async () => rounds.disk.push(await diskWrite(path.join(scratch, 'baseline.bin'), bytes)),
      put: () => timed('put', () => putUpload(server, token, '/bench/big.bin', bytes)),
      tus: () => timed('tus', () => tusUpload(server, token, '/bench/big-tus.bin', bytes, TUS_CHUNK_MB * MiB)),
    };
    const order = ['disk', 'put', 'tus'];
    for (let r = 0; r < UPLOAD_ROUNDS; r++) {
      console.error(`  ${database}: upload round ${r + 1}/${UPLOAD_ROUNDS}`);
      // Rotate the order each round: the shared disk's speed drifts.
      for (let i = 0; i < order.length; i++) await writers[order[(i + r) % order.length]]();
    }
    rss.big = procStatus(server.pid);

    // ---- downloads: nginx serves a copy of the stored bytes (fetched through the API, checked) ----
    const www = tempDir('cirrus-bench-www-');
    const copy = path.join(www, 'big.bin');
    const fileUrl = `${server.url}/api/v4/file/content?path=${encodeURIComponent('/bench/big.bin')}`;
    await curl(fileUrl, { token, out: copy });
    const expectedCrc = payloadCrc(bytes);
    if ((await fileCrc(copy)) !== expectedCrc) throw new Error('the downloaded file differs from the uploaded bytes');
    const nginx = await startNginx({ root: www, dir: tempDir('cirrus-bench-nginx-') });
    onCleanup(() => nginx.stop());
    const down = { cirrus: [], nginx: [], cirrusCpu: 0, nginxCpu: 0 };
    const one = async (who) => {
      const pid = who === 'cirrus' ? server.pid : nginx.pid;
      const cpu0 = cpuSeconds(pid);
      const r = who === 'cirrus' ? await curl(fileUrl, { token }) : await curl(`${nginx.url}/big.bin`);
      if (r.bytes !== bytes) throw new Error(`${who} sent ${r.bytes} bytes, not ${bytes}`);
      return { seconds: r.seconds, cpu: cpuSeconds(pid) - cpu0 };
    };
    await one('cirrus');
    await one('nginx');
    for (let r = 0; r < DOWNLOAD_ROUNDS; r++) {
      // Alternate who goes first, so drift on a shared machine hits both alike.
      for (const who of r % 2 ? ['nginx', 'cirrus'] : ['cirrus', 'nginx']) {
        const m = await one(who);
        down[who].push(m.seconds);
        down[`${who}Cpu`] += m.cpu;
      }
    }
    await nginx.stop();
    rss.end = procStatus(server.pid);

    // ---- listing: a folder of LIST_FILES files, seeded through the file repository ----
    const folder = await data(await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: '/list', type: 'folder' } }), 'creating /list');
    const s0 = performance.now();
    await seedFolder({ database: dbConfig, ownerId: me.id, folderId: folder.id, count: LIST_FILES });
    const seedSeconds = (performance.now() - s0) / 1000;
    const listUrl = `${server.url}/api/v4/file?path=${encodeURIComponent('/list')}&page_size=100`;
    const firstPage = await data(await api(server.url, 'GET', '/api/v4/file?path=%2Flist&page_size=100', { token }), 'listing /list');
    if (firstPage.files.length !== Math.min(100, LIST_FILES)) throw new Error(`the first page holds ${firstPage.files.length} entries`);
    // The 10th page: follow the tokens there once, then time it.
    let pageToken = firstPage.next_page_token;
    for (let p = 2; p < 10 && pageToken; p++) {
      pageToken = (await data(await api(server.url, 'GET', `/api/v4/file?path=%2Flist&page_size=100&next_page_token=${encodeURIComponent(pageToken)}`, { token }), 'paging')).next_page_token;
    }
    await sequentialGets(listUrl, token, 50); // warm-up
    // Server CPU per request too: on a shared machine latency includes waiting for a core, CPU time does not.
    const cpu0 = cpuSeconds(server.pid);
    const first = await sequentialGets(listUrl, token, LIST_REQUESTS);
    const firstCpuMs = ((cpuSeconds(server.pid) - cpu0) * 1000) / LIST_REQUESTS;
    const cpu1 = cpuSeconds(server.pid);
    const tenth = pageToken ? await sequentialGets(`${listUrl}&next_page_token=${encodeURIComponent(pageToken)}`, token, Math.ceil(LIST_REQUESTS / 2)) : null;
    const tenthCpuMs = tenth ? ((cpuSeconds(server.pid) - cpu1) * 1000) / tenth.length : 0;
    const listLoad = await load({ url: listUrl, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 5 });

    // ---- report ----
    const mbps = (s) => bytes / MB / s;
    const best = (xs) => mbps(Math.min(...xs));
    const med = (xs) => mbps(median(xs));
    const downRatio = med(down.cirrus) / med(down.nginx);
    const putRatio = med(rounds.put) / med(rounds.disk);
    const tusRatio = med(rounds.tus) / med(rounds.disk);
    const peak = Math.max(rss.big.hwmMB, rss.end.hwmMB);
    const p50 = quantile(first, 0.5);
    const checks = {
      download: downRatio >= TARGET.download,
      upload: putRatio >= TARGET.upload,
      rss: peak < TARGET.rssMB,
      list: database !== 'sqlite' || p50 < TARGET.listP50,
    };
    const perGiB = (cpu, n) => fmt(cpu / n / (bytes / 2 ** 30), 2);
    const dl = table(
      `Download of a ${FILE_MB} MiB file on ${database} (curl -o /dev/null over loopback, page cache warm, ${DOWNLOAD_ROUNDS} alternating rounds after one warm-up each)`,
      ['server', 'best MB/s', 'median MB/s', 'server CPU s per GiB'],
      [
        [`nginx ${nginx.version} (sendfile)`, fmt(best(down.nginx)), fmt(med(down.nginx)), perGiB(down.nginxCpu, DOWNLOAD_ROUNDS)],
        ['Cirrus GET /api/v4/file/content', fmt(best(down.cirrus)), fmt(med(down.cirrus)), perGiB(down.cirrusCpu, DOWNLOAD_ROUNDS)],
      ],
    );
    const ul = table(
      `Upload of a ${FILE_MB} MiB file on ${database} (streamed from a generator; ${UPLOAD_ROUNDS} rounds, the order rotated each round; the baseline and Cirrus write to the same file system)`,
      ['writer', 'best MB/s', 'median MB/s', 'ratio to baseline (median)', 'server CPU s per GiB'],
      [
        ['baseline: fs.createWriteStream + fsync', fmt(best(rounds.disk)), fmt(med(rounds.disk)), '1.00', '–'],
        ['Cirrus PUT /api/v4/file/content', fmt(best(rounds.put)), fmt(med(rounds.put)), fmt(putRatio, 2), perGiB(rounds.putCpu, UPLOAD_ROUNDS)],
        [`Cirrus tus (${TUS_CHUNK_MB} MiB PATCHes)`, fmt(best(rounds.tus)), fmt(med(rounds.tus)), fmt(tusRatio, 2), perGiB(rounds.tusCpu, UPLOAD_ROUNDS)],
      ],
    );
    const mem = table(
      `Server memory on ${database} (VmHWM = peak RSS of the server process, from /proc)`,
      ['after', 'VmHWM MB', 'VmRSS MB'],
      [
        ['start', fmt(rss.start.hwmMB), fmt(rss.start.rssMB)],
        ['one sign-in (argon2id)', fmt(rss.signIn.hwmMB), fmt(rss.signIn.rssMB)],
        [`a ${SMALL_MB} MiB PUT (${fmt(small / MB / smallSeconds)} MB/s)`, fmt(rss.small.hwmMB), fmt(rss.small.rssMB)],
        [`${UPLOAD_ROUNDS} × (${FILE_MB} MiB PUT + ${FILE_MB} MiB tus)`, fmt(rss.big.hwmMB), fmt(rss.big.rssMB)],
        [`${2 + 2 * DOWNLOAD_ROUNDS} downloads of ${FILE_MB} MiB`, fmt(rss.end.hwmMB), fmt(rss.end.rssMB)],
      ],
    );
    const q = (xs) => [fmt(quantile(xs, 0.5), 1), fmt(quantile(xs, 0.99), 1), fmt(xs[xs.length - 1], 1)];
    const ls = table(
      `Listing a folder of ${fmt(LIST_FILES)} files on ${database} (seeded in ${fmt(seedSeconds, 1)} s; page_size=100; sequential requests after 50 warm-ups, then autocannon)`,
      ['request', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'server CPU ms per request'],
      [
        ['first page, sequential', first.length, ...q(first), fmt(firstCpuMs, 2)],
        ...(tenth ? [['10th page (next_page_token), sequential', tenth.length, ...q(tenth), fmt(tenthCpuMs, 2)]] : []),
        [`first page, 10 connections: ${fmt(listLoad.rps)} req/s, ${listLoad.failed} failed`, listLoad.total, fmt(listLoad.p50, 1), fmt(listLoad.p99, 1), '–', '–'],
      ],
    );
    const verdict = (pass) => (pass ? 'met' : '**missed**');
    const summary =
      `\nOn ${database}: download ${fmt(downRatio, 2)} × nginx (target ≥ ${TARGET.download}: ${verdict(checks.download)}); ` +
      `upload ${fmt(putRatio, 2)} × disk (target ≥ ${TARGET.upload}: ${verdict(checks.upload)}); ` +
      `peak RSS ${fmt(peak)} MB (target < ${TARGET.rssMB}: ${verdict(checks.rss)}); ` +
      `first page p50 ${fmt(p50, 1)} ms${database === 'sqlite' ? ` (target < ${TARGET.listP50}: ${verdict(checks.list)})` : ''}. ` +
      `Load average of the machine (1 min) at the start / end: ${fmt(load0, 1)} / ${fmt(os.loadavg()[0], 1)} on ${os.cpus().length} cores.\n`;
    return { md: [dl, ul, mem, ls, summary].join('\n'), ok: Object.values(checks).every(Boolean) && listLoad.failed === 0 };
  } finally {
    // This database's server, nginx and temp files; earlier ones are gone already.
    await runCleanups(mark);
  }
}

export async function runAll() {
  const results = [];
  try {
    for (const database of DATABASES) {
      console.error(`files on ${database} …`);
      results.push(await benchDatabase(database));
    }
  } finally {
    await runCleanups();
  }
  return results;
}
