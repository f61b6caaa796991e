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
// CIRRUS_BENCH_LIST_FILES (100000); CIRRUS_BENCH_DATABASES=sqlite,postgres;
// rounds: CIRRUS_BENCH_UPLOAD_ROUNDS (3), CIRRUS_BENCH_DOWNLOAD_ROUNDS (6);
// CIRRUS_BENCH_VERBOSE=1 prints every measurement as it is taken.
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
import { startCirrus, freshPostgres, signIn, api, load, fmt, table, median } from './lib.mjs';
import { startNginx } from './files-nginx.mjs';
import { seedFolder } from './files-seed.mjs';
import { startNodeFloor } from './files-node-floor.mjs';

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
const DOWNLOAD_ROUNDS = envInt('CIRRUS_BENCH_DOWNLOAD_ROUNDS', 6);
const UPLOAD_ROUNDS = envInt('CIRRUS_BENCH_UPLOAD_ROUNDS', 3);
const TUS_CHUNK_MB = envInt('CIRRUS_BENCH_TUS_CHUNK_MB', 64);
const VERBOSE = process.env.CIRRUS_BENCH_VERBOSE === '1';
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
  const cpu0 = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpu0);
  await rm(file, { force: true });
  return { seconds, cpu: (cpu.user + cpu.system) / 1e6 };
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

async function floorUpload(floor, bytes) {
  const t0 = performance.now();
  const res = await sendBody(`${floor.url}/`, { method: 'PUT', headers: {}, bytes });
  const seconds = (performance.now() - t0) / 1000;
  if (res.status !== 200 || res.body !== bytes) throw new Error(`the Node floor server took ${JSON.stringify(res.body)} bytes, not ${bytes}`);
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

/** Uploads: a small PUT, then rounds of (disk baseline, PUT, tus) in rotating order; VmHWM along the way. */
async function measureUploads({ server, floor, scratch, token, database, bytes, rssAtStart }) {
  const rss = { start: rssAtStart, signIn: procStatus(server.pid) };
  // The small one first, on a fresh process, so VmHWM then shows its peak alone.
  const smallSeconds = await putUpload(server, token, '/bench/small.bin', SMALL_MB * MiB);
  rss.small = procStatus(server.pid);
  const rounds = { disk: [], node: [], put: [], tus: [], diskCpu: 0, nodeCpu: 0, putCpu: 0, tusCpu: 0, smallSeconds, rss };
  const log = (kind, seconds, cpu) => VERBOSE && console.error(`  ${kind}: ${fmt(bytes / MB / seconds)} MB/s${cpu === undefined ? '' : `, server CPU ${fmt(cpu, 2)} s`}`);
  const timed = async (kind, fn, pid = server.pid) => {
    const cpu0 = cpuSeconds(pid);
    const seconds = await fn();
    const cpu = cpuSeconds(pid) - cpu0;
    rounds[kind].push(seconds);
    rounds[`${kind}Cpu`] += cpu;
    log(kind, seconds, cpu);
  };
  const writers = {
    disk: async () => {
      const { seconds, cpu } = await diskWrite(path.join(scratch, 'baseline.bin'), bytes);
      rounds.disk.push(seconds);
      rounds.diskCpu += cpu;
      log('disk', seconds, cpu);
    },
    node: () => timed('node', () => floorUpload(floor, bytes), floor.pid),
    put: () => timed('put', () => putUpload(server, token, '/bench/big.bin', bytes)),
    tus: () => timed('tus', () => tusUpload(server, token, '/bench/big-tus.bin', bytes, TUS_CHUNK_MB * MiB)),
  };
  const order = Object.keys(writers);
  for (let r = 0; r < UPLOAD_ROUNDS; r++) {
    console.error(`  ${database}: upload round ${r + 1}/${UPLOAD_ROUNDS}`);
    // Rotate the order each round: the shared disk's speed drifts.
    for (let i = 0; i < order.length; i++) await writers[order[(i + r) % order.length]]();
  }
  rss.big = procStatus(server.pid);
  // The PUT's bytes are checked when downloaded; the tus upload must at least have become a whole file.
  const info = await data(await api(server.url, 'GET', `/api/v4/file/info?path=${encodeURIComponent('/bench/big-tus.bin')}`, { token }), 'file info');
  if (info.size !== bytes) throw new Error(`the tus upload left a file of ${info.size} bytes, not ${bytes}`);
  return rounds;
}

/** Downloads: Cirrus and nginx (serving a copy of the stored bytes, fetched through the API and checked) alternately. */
async function measureDownloads({ server, floor, www, token, database, bytes }) {
  const copy = path.join(www, 'big.bin');
  const fileUrl = `${server.url}/api/v4/file/content?path=${encodeURIComponent('/bench/big.bin')}`;
  await curl(fileUrl, { token, out: copy });
  // Written back now, not by the kernel in the middle of the timed downloads.
  const handle = await open(copy, 'r');
  await handle.sync();
  await handle.close();
  if ((await fileCrc(copy)) !== payloadCrc(bytes)) throw new Error('the downloaded file differs from the uploaded bytes');
  const nginx = await startNginx({ root: www, dir: tempDir('cirrus-bench-nginx-') });
  onCleanup(() => nginx.stop());
  const down = { cirrus: [], nginx: [], node: [], cirrusCpu: 0, nginxCpu: 0, nodeCpu: 0, nginxVersion: nginx.version };
  const targets = {
    cirrus: { pid: server.pid, get: () => curl(fileUrl, { token }) },
    nginx: { pid: nginx.pid, get: () => curl(`${nginx.url}/big.bin`) },
    node: { pid: floor.pid, get: () => curl(`${floor.url}/big.bin`) },
  };
  const one = async (who) => {
    const { pid, get } = targets[who];
    const cpu0 = cpuSeconds(pid);
    const r = await get();
    if (r.bytes !== bytes) throw new Error(`${who} sent ${r.bytes} bytes, not ${bytes}`);
    const cpu = cpuSeconds(pid) - cpu0;
    if (VERBOSE) console.error(`  ${who}: ${fmt(bytes / MB / r.seconds)} MB/s, server CPU ${fmt(cpu, 2)} s`);
    return { seconds: r.seconds, cpu };
  };
  const order = Object.keys(targets);
  for (const who of order) await one(who);
  console.error(`  ${database}: ${DOWNLOAD_ROUNDS} download rounds`);
  for (let r = 0; r < DOWNLOAD_ROUNDS; r++) {
    // Rotate who goes first, so drift on a shared machine hits all alike.
    for (let i = 0; i < order.length; i++) {
      const who = order[(i + r) % order.length];
      const m = await one(who);
      down[who].push(m.seconds);
      down[`${who}Cpu`] += m.cpu;
    }
  }
  await nginx.stop();
  down.rssEnd = procStatus(server.pid);
  return down;
}

/** Listing: a folder of LIST_FILES files (seeded through the file repository), first and 10th page. */
async function measureListing({ server, token, database, dbConfig, ownerId }) {
  const folder = await data(await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: '/list', type: 'folder' } }), 'creating /list');
  console.error(`  ${database}: seeding ${fmt(LIST_FILES)} files`);
  const s0 = performance.now();
  await seedFolder({ database: dbConfig, ownerId, folderId: folder.id, count: LIST_FILES });
  const seedSeconds = (performance.now() - s0) / 1000;
  const listPath = `/api/v4/file?path=${encodeURIComponent('/list')}&page_size=100`;
  const firstPage = await data(await api(server.url, 'GET', listPath, { token }), 'listing /list');
  if (firstPage.files.length !== Math.min(100, LIST_FILES)) throw new Error(`the first page holds ${firstPage.files.length} entries`);
  // The 10th page: follow the tokens there once, then time it.
  let pageToken = firstPage.next_page_token;
  for (let p = 2; p < 10 && pageToken; p++) {
    pageToken = (await data(await api(server.url, 'GET', `${listPath}&next_page_token=${encodeURIComponent(pageToken)}`, { token }), 'paging')).next_page_token;
  }
  const listUrl = server.url + listPath;
  await sequentialGets(listUrl, token, 50); // warm-up
  // Server CPU per request too: on a shared machine latency includes waiting for a core, CPU time does not.
  const timed = async (url, n) => {
    const cpu0 = cpuSeconds(server.pid);
    const latencies = await sequentialGets(url, token, n);
    return { latencies, cpuMs: ((cpuSeconds(server.pid) - cpu0) * 1000) / n };
  };
  const first = await timed(listUrl, LIST_REQUESTS);
  const tenth = pageToken ? await timed(`${listUrl}&next_page_token=${encodeURIComponent(pageToken)}`, Math.ceil(LIST_REQUESTS / 2)) : null;
  const loaded = await load({ url: listUrl, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 5 });
  return { seedSeconds, first, tenth, loaded };
}

function report({ database, bytes, up, down, list, load0 }) {
  const mbps = (s) => bytes / MB / s;
  const best = (xs) => mbps(Math.min(...xs));
  const med = (xs) => mbps(median(xs));
  const perGiB = (cpu, n) => fmt(cpu / n / (bytes / 2 ** 30), 2);
  const downRatio = med(down.cirrus) / med(down.nginx);
  const downBestRatio = best(down.cirrus) / best(down.nginx);
  const putRatio = med(up.put) / med(up.disk);
  const tusRatio = med(up.tus) / med(up.disk);
  const { rss } = up;
  const peak = Math.max(rss.big.hwmMB, down.rssEnd.hwmMB);
  const p50 = quantile(list.first.latencies, 0.5);
  const checks = {
    download: downRatio >= TARGET.download,
    upload: putRatio >= TARGET.upload,
    rss: peak < TARGET.rssMB,
    list: database !== 'sqlite' || p50 < TARGET.listP50,
    listFailures: list.loaded.failed === 0,
  };
  const dl = table(
    `Download of a ${FILE_MB} MiB file on ${database} (curl -o /dev/null over loopback, page cache warm; one warm-up each, then ${DOWNLOAD_ROUNDS} rounds, the order rotated each round)`,
    ['server', 'best MB/s', 'median MB/s', 'server CPU s per GiB'],
    [
      [`nginx ${down.nginxVersion} (sendfile)`, fmt(best(down.nginx)), fmt(med(down.nginx)), perGiB(down.nginxCpu, DOWNLOAD_ROUNDS)],
      ['Node floor: fs.createReadStream piped to the response', fmt(best(down.node)), fmt(med(down.node)), perGiB(down.nodeCpu, DOWNLOAD_ROUNDS)],
      ['Cirrus GET /api/v4/file/content', fmt(best(down.cirrus)), fmt(med(down.cirrus)), perGiB(down.cirrusCpu, DOWNLOAD_ROUNDS)],
    ],
  );
  const ul = table(
    `Upload of a ${FILE_MB} MiB file on ${database} (streamed from a generator; ${UPLOAD_ROUNDS} rounds, the order rotated each round; the baseline and Cirrus write to the same file system)`,
    ['writer', 'best MB/s', 'median MB/s', 'ratio to baseline (median)', 'writer CPU s per GiB'],
    [
      ['baseline: fs.createWriteStream + fsync', fmt(best(up.disk)), fmt(med(up.disk)), '1.00', perGiB(up.diskCpu, UPLOAD_ROUNDS)],
      ['Node floor: request piped to fs.createWriteStream + fsync', fmt(best(up.node)), fmt(med(up.node)), fmt(med(up.node) / med(up.disk), 2), perGiB(up.nodeCpu, UPLOAD_ROUNDS)],
      ['Cirrus PUT /api/v4/file/content', fmt(best(up.put)), fmt(med(up.put)), fmt(putRatio, 2), perGiB(up.putCpu, UPLOAD_ROUNDS)],
      [`Cirrus tus (${TUS_CHUNK_MB} MiB PATCHes)`, fmt(best(up.tus)), fmt(med(up.tus)), fmt(tusRatio, 2), perGiB(up.tusCpu, UPLOAD_ROUNDS)],
    ],
  );
  const mem = table(
    `Server memory on ${database} (VmHWM = peak RSS of the server process so far, from /proc)`,
    ['after', 'VmHWM MB', 'VmRSS MB'],
    [
      ['start', fmt(rss.start.hwmMB), fmt(rss.start.rssMB)],
      ['one sign-in (argon2id)', fmt(rss.signIn.hwmMB), fmt(rss.signIn.rssMB)],
      [`a ${SMALL_MB} MiB PUT (${fmt((SMALL_MB * MiB) / MB / up.smallSeconds)} MB/s)`, fmt(rss.small.hwmMB), fmt(rss.small.rssMB)],
      [`${UPLOAD_ROUNDS} × (${FILE_MB} MiB PUT + ${FILE_MB} MiB tus)`, fmt(rss.big.hwmMB), fmt(rss.big.rssMB)],
      [`${2 + DOWNLOAD_ROUNDS} downloads of ${FILE_MB} MiB from Cirrus`, fmt(down.rssEnd.hwmMB), fmt(down.rssEnd.rssMB)],
    ],
  );
  const q = (xs) => [fmt(quantile(xs, 0.5), 1), fmt(quantile(xs, 0.99), 1), fmt(xs[xs.length - 1], 1)];
  const { first, tenth, loaded } = list;
  const ls = table(
    `Listing a folder of ${fmt(LIST_FILES)} files on ${database} (seeded in ${fmt(list.seedSeconds, 1)} s; page_size=100; sequential requests after 50 warm-ups, then autocannon)`,
    ['request', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'server CPU ms per request'],
    [
      ['first page, sequential', first.latencies.length, ...q(first.latencies), fmt(first.cpuMs, 2)],
      ...(tenth ? [['10th page (next_page_token), sequential', tenth.latencies.length, ...q(tenth.latencies), fmt(tenth.cpuMs, 2)]] : []),
      [`first page, 10 connections: ${fmt(loaded.rps)} req/s, ${loaded.failed} failed`, loaded.total, fmt(loaded.p50, 1), fmt(loaded.p99, 1), '–', '–'],
    ],
  );
  const verdict = (pass) => (pass ? 'met' : '**missed**');
  const summary =
    `\nOn ${database}: download ${fmt(downRatio, 2)} × nginx (median; best ${fmt(downBestRatio, 2)}; target ≥ ${TARGET.download}, checked on the median: ${verdict(checks.download)}); ` +
    `upload ${fmt(putRatio, 2)} × disk (median; target ≥ ${TARGET.upload}: ${verdict(checks.upload)}); ` +
    `peak RSS ${fmt(peak)} MB, ${Math.round(rss.big.hwmMB - rss.small.hwmMB) || 0} MB more after the ${FILE_MB} MiB uploads than after the ${SMALL_MB} MiB one (target < ${TARGET.rssMB}: ${verdict(checks.rss)}); ` +
    `first page p50 ${fmt(p50, 1)} ms${database === 'sqlite' ? ` (target < ${TARGET.listP50}: ${verdict(checks.list)})` : ''}. ` +
    `Load average of the machine (1 min) at the start / end: ${fmt(load0, 1)} / ${fmt(os.loadavg()[0], 1)} on ${os.cpus().length} cores.\n`;
  return { md: [dl, ul, mem, ls, summary].join('\n'), ok: Object.values(checks).every(Boolean) };
}

async function benchDatabase(database) {
  const mark = cleanups.length;
  try {
    const load0 = os.loadavg()[0];
    const { server, dbConfig } = await startServer(database);
    const rssAtStart = procStatus(server.pid);
    const token = (await signIn(server.url)).access_token;
    const me = await data(await api(server.url, 'GET', '/api/v4/user/me', { token }), 'GET /user/me');
    await data(await api(server.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } }), 'raising the quota');
    const www = tempDir('cirrus-bench-www-');
    const scratch = tempDir('cirrus-bench-write-');
    const floor = await startNodeFloor({ root: www, scratch });
    onCleanup(() => floor.stop());
    const ctx = { server, floor, www, scratch, token, database, dbConfig, ownerId: me.id, bytes: FILE_MB * MiB, rssAtStart };
    const up = await measureUploads(ctx);
    const down = await measureDownloads(ctx);
    const list = await measureListing(ctx);
    return report({ database, bytes: ctx.bytes, up, down, list, load0 });
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
