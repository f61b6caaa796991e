// Many-instance benchmarks (issue 10), `npm run bench -- scale`:
// - a large file (CIRRUS_BENCH_S3_MB, default 1024 MiB) uploaded with a
//   streamed PUT and downloaded through Cirrus to and from s3rver, as a ratio
//   to the same transfer made straight to s3rver with the AWS SDK in the same
//   run (same part size as Cirrus), and to a bare Node relay process with the
//   same SDK (bench/s3-relay-floor.mjs: what relaying through any Node process
//   costs here), and Cirrus's peak RSS (VmHWM) over them;
//   targets: ratio ≥ 0.8 each way, peak RSS < 200 MB;
// - revocation propagation: two instances on one PostgreSQL database and one
//   Redis; a sign-out on one, then the other polled with the revoked access
//   token until it refuses it. CIRRUS_BENCH_REVOCATIONS (default 1000) with
//   Redis, then CIRRUS_BENCH_REVOCATIONS_NO_REDIS (default 50) with Redis
//   stopped (the database poll that stays as the fallback), for comparison.
import { spawn } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ROOT, ADMIN, api, fmt, freshPostgres, procMemory, serveNodeArgs, signIn, startCirrus, startRedis, table, writeRandomFile, envInt, median } from './lib.mjs';
import { startS3RelayFloor } from './s3-relay-floor.mjs';

const MiB = 1024 * 1024;
const FILE_MB = envInt('CIRRUS_BENCH_S3_MB', 1024);
const REVOCATIONS = envInt('CIRRUS_BENCH_REVOCATIONS', 1000);
const REVOCATIONS_NO_REDIS = envInt('CIRRUS_BENCH_REVOCATIONS_NO_REDIS', 50);
const ROUNDS = envInt('CIRRUS_BENCH_S3_ROUNDS', 3);
// Cirrus's S3 part size: the SDK baseline uses the same, with lib-storage's default of 4 parts in flight.
const PART = 8 * MiB;
const QUEUE = 4;
const TARGET = { ratio: 0.8, rssMB: 200, revocationP99Ms: 1000 };
const BUCKET = 'cirrus-bench';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startS3rver(dir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/s3rver.mjs'), dir, BUCKET, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}

/**
 * The baseline's client, configured as a careful operator would: keep-alive
 * sockets (as many as parts in flight), no checksums that S3 does not
 * require (the SDK's default since 3.729 computes a CRC of every part it
 * sends and checks the one of every object it reads: CPU that Cirrus's
 * client does not spend either).
 */
function baselineClient(endpoint) {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestHandler: { httpAgent: new http.Agent({ keepAlive: true, maxSockets: 16 }) },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Peak resident set size of a process so far (Linux VmHWM), in MB. */
const peakRssMB = (pid) => procMemory(pid) / 1e6;

/** Streams the file as the body of one request; resolves with the status and seconds taken. */
function sendFile(url, method, pathname, headers, file, size) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(new URL(pathname, url), { method, headers: { ...headers, 'content-length': String(size) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text, seconds: (performance.now() - t0) / 1000 }));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

/**
 * Reads a response body to the end, counting bytes; resolves with the count
 * and seconds taken. With followRedirect, a 302 is followed once, without the
 * credentials (as browsers and curl do for another origin).
 */
function receive(url, pathname, headers, { followRedirect = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const get = (target, hdrs, redirected) =>
      http
        .get(target, { headers: hdrs }, (res) => {
          if (followRedirect && !redirected && res.statusCode === 302 && res.headers.location) {
            res.resume();
            get(new URL(res.headers.location, target), {}, true);
            return;
          }
          let bytes = 0;
          res.on('data', (d) => (bytes += d.length));
          res.on('end', () => resolve({ status: res.statusCode, bytes, redirected, seconds: (performance.now() - t0) / 1000 }));
        })
        .on('error', reject);
    get(new URL(pathname, url), headers, false);
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** Runs `fn`, returning its seconds and the CPU seconds of each process it involved. */
async function timed(pids, fn) {
  const cpu0 = pids.map(cpuSeconds);
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  return { result, seconds, cpu: [...pids.map((p, i) => cpuSeconds(p) - cpu0[i]), (self.user + self.system) / 1e6] };
}

async function transfers() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-s3-'));
  const size = FILE_MB * MiB;
  const file = path.join(dir, 'source.bin');
  // Random bytes (nothing compresses or deduplicates), written once and read by both sides.
  await writeRandomFile(file, size);
  const s3 = await startS3rver(path.join(dir, 's3'));
  const client = baselineClient(s3.endpoint);
  const floor = await startS3RelayFloor({ endpoint: s3.endpoint, bucket: BUCKET, nodeArgs: serveNodeArgs() });
  const s3Env = { CIRRUS_STORAGE: 's3', CIRRUS_S3_ENDPOINT: s3.endpoint, CIRRUS_S3_BUCKET: BUCKET, CIRRUS_S3_ACCESS_KEY_ID: 'S3RVER', CIRRUS_S3_SECRET_ACCESS_KEY: 'S3RVER', CIRRUS_S3_FORCE_PATH_STYLE: 'true' };
  // Kept across a restart: the presigned rounds run on a second server over the same data.
  const dataDir = path.join(dir, 'cirrus');
  mkdirSync(dataDir);
  let cirrus = await startCirrus({ env: s3Env, dataDir });
  try {
    const rssAtStart = peakRssMB(cirrus.pid);
    const token = (await signIn(cirrus.url)).access_token;
    const auth = { authorization: `Bearer ${token}` };
    // The default quota may be smaller than the file.
    const me = await api(cirrus.url, 'GET', '/api/v4/user/me', { token });
    const raised = await api(cirrus.url, 'PUT', `/api/v4/admin/user/${me.body.data.id}`, { token, json: { storage_quota: 2 ** 50 } });
    if (raised.status !== 200) throw new Error(`raising the quota answered ${raised.status}`);
    const MBs = (seconds) => size / 1e6 / seconds;
    const pids = [cirrus.pid, s3.pid];
    const cirrusPath = `/api/v4/file/content?path=${encodeURIComponent('/bench/source.bin')}`;

    const sdkUp = () => timed(pids, () => new Upload({ client, params: { Bucket: BUCKET, Key: 'direct/source.bin', Body: createReadStream(file, { highWaterMark: MiB }) }, partSize: PART, queueSize: QUEUE }).done());
    const cirrusUp = () =>
      timed(pids, async () => {
        const up = await sendFile(cirrus.url, 'PUT', cirrusPath, { ...auth, 'content-type': 'application/octet-stream' }, file, size);
        if (up.status !== 200) throw new Error(`Cirrus upload answered ${up.status}: ${up.text}`);
      });
    const sdkDown = () =>
      timed(pids, async () => {
        const obj = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'direct/source.bin' }));
        let bytes = 0;
        for await (const chunk of obj.Body) bytes += chunk.length;
        if (bytes !== size) throw new Error(`SDK download: ${bytes} bytes, expected ${size}`);
      });
    const cirrusDown = () =>
      timed(pids, async () => {
        const down = await receive(cirrus.url, cirrusPath, auth);
        if (down.status !== 200 || down.bytes !== size) throw new Error(`Cirrus download: ${down.status} ${down.bytes} bytes, expected ${size}`);
      });

    // The Node floor: a bare relay process with the same SDK (bench/s3-relay-floor.mjs).
    const floorUp = () =>
      timed([floor.pid, s3.pid], async () => {
        const up = await sendFile(floor.url, 'PUT', '/floor/source.bin', {}, file, size);
        if (up.status !== 200) throw new Error(`the relay floor's upload answered ${up.status}: ${up.text}`);
      });
    const floorDown = () =>
      timed([floor.pid, s3.pid], async () => {
        const down = await receive(floor.url, '/floor/source.bin', {});
        if (down.status !== 200 || down.bytes !== size) throw new Error(`relay floor download: ${down.status} ${down.bytes} bytes, expected ${size}`);
      });

    // The three paths run back to back, in a rotated order every round; each round gives one sample of each ratio.
    const rounds = { up: [], down: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [dir, sdk, floorRun, ours] of [['up', sdkUp, floorUp, cirrusUp], ['down', sdkDown, floorDown, cirrusDown]]) {
        const runs = [['sdk', sdk], ['floor', floorRun], ['cirrus', ours]];
        const order = [...runs.slice(r % 3), ...runs.slice(0, r % 3)];
        const got = {};
        for (const [name, run] of order) got[name] = await run();
        const { sdk: a, floor: f, cirrus: b } = got;
        rounds[dir].push({ sdk: a, floor: f, cirrus: b, ratio: a.seconds / b.seconds, floorRatio: f.seconds / b.seconds });
        console.error(
          `  round ${r + 1} ${dir}: SDK ${fmt(MBs(a.seconds), 1)} MB/s, Node relay ${fmt(MBs(f.seconds), 1)} MB/s, Cirrus ${fmt(MBs(b.seconds), 1)} MB/s, ratio ${fmt(a.seconds / b.seconds, 2)}; ` +
            `CPU-s cirrus-or-relay/s3rver/client SDK ${a.cpu.map((c) => fmt(c, 1)).join('/')} relay ${f.cpu.map((c) => fmt(c, 1)).join('/')} Cirrus ${b.cpu.map((c) => fmt(c, 1)).join('/')}`,
        );
      }
    }
    const rss = peakRssMB(cirrus.pid);

    // Presigned downloads (CIRRUS_S3_PRESIGNED_DOWNLOADS=true): the same file
    // from a restarted server that answers the GET with a redirect to the
    // store; the client follows it. Paired with the SDK like the rounds above.
    await cirrus.stop();
    cirrus = await startCirrus({ env: { ...s3Env, CIRRUS_S3_PRESIGNED_DOWNLOADS: 'true' }, dataDir });
    pids[0] = cirrus.pid; // the SDK rounds' CPU columns follow the new server
    const presignedAuth = { authorization: `Bearer ${(await signIn(cirrus.url)).access_token}` };
    const presigned = [];
    for (let r = 0; r < ROUNDS; r++) {
      const run = () =>
        timed([cirrus.pid, s3.pid], async () => {
          const down = await receive(cirrus.url, cirrusPath, presignedAuth, { followRedirect: true });
          if (down.status !== 200 || down.bytes !== size || !down.redirected) throw new Error(`presigned download: ${down.status} ${down.bytes} bytes, redirected ${down.redirected}`);
        });
      let a, b;
      if (r % 2 === 0) {
        a = await sdkDown();
        b = await run();
      } else {
        b = await run();
        a = await sdkDown();
      }
      presigned.push({ sdk: a, cirrus: b, ratio: a.seconds / b.seconds });
      console.error(`  round ${r + 1} presigned down: SDK ${fmt(MBs(a.seconds), 1)} MB/s, Cirrus (redirected) ${fmt(MBs(b.seconds), 1)} MB/s, ratio ${fmt(a.seconds / b.seconds, 2)}`);
    }

    const summary = (dir) => {
      const rs = rounds[dir];
      const ratios = rs.map((x) => x.ratio);
      return {
        sdk: median(rs.map((x) => MBs(x.sdk.seconds))),
        floor: median(rs.map((x) => MBs(x.floor.seconds))),
        cirrus: median(rs.map((x) => MBs(x.cirrus.seconds))),
        ratio: median(ratios),
        spread: `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}`,
        floorRatio: median(rs.map((x) => x.floorRatio)),
        floorVsSdk: median(rs.map((x) => x.sdk.seconds / x.floor.seconds)),
        cpu: (side) => median(rs.map((x) => x[side].cpu[0] + x[side].cpu[1] + x[side].cpu[2])),
        ownCpu: (side) => median(rs.map((x) => x[side].cpu[0])),
      };
    };
    const up = summary('up');
    const down = summary('down');
    const ok = up.ratio >= TARGET.ratio && down.ratio >= TARGET.ratio && rss < TARGET.rssMB;
    const row = (label, s) => [
      label,
      fmt(s.sdk, 1),
      fmt(s.floor, 1),
      fmt(s.cirrus, 1),
      `**${fmt(s.ratio, 2)}**`,
      s.spread,
      fmt(s.floorVsSdk, 2),
      fmt(s.floorRatio, 2),
      `${fmt(s.cpu('sdk'), 1)} / ${fmt(s.cpu('floor'), 1)} / ${fmt(s.cpu('cirrus'), 1)}`,
      `${fmt(s.ownCpu('floor'), 1)} / ${fmt(s.ownCpu('cirrus'), 1)}`,
    ];
    const md =
      table(`S3 transfers: ${FILE_MB} MiB through Cirrus vs the AWS SDK straight to s3rver, and vs a bare Node relay (${ROUNDS} rounds, medians)`, [
        'direction',
        'AWS SDK → s3rver MB/s',
        'bare Node relay MB/s',
        'Cirrus MB/s',
        'Cirrus ÷ SDK (target ≥ 0.8)',
        'Cirrus ÷ SDK min–max',
        'bare relay ÷ SDK',
        'Cirrus ÷ bare relay',
        'CPU-s, all processes: SDK / relay / Cirrus path',
        'CPU-s of the relay / of Cirrus',
      ], [row('upload (streamed PUT)', up), row('download (GET)', down)]) +
      `\n\nWith \`CIRRUS_S3_PRESIGNED_DOWNLOADS=true\` (a redirect to a presigned URL of the store, followed by the client): ` +
      `${fmt(median(presigned.map((x) => MBs(x.cirrus.seconds))), 1)} MB/s against the SDK's ${fmt(median(presigned.map((x) => MBs(x.sdk.seconds))), 1)} MB/s, ` +
      `ratio **${fmt(median(presigned.map((x) => x.ratio)), 2)}** (min–max ${fmt(Math.min(...presigned.map((x) => x.ratio)), 2)}–${fmt(Math.max(...presigned.map((x) => x.ratio)), 2)}).` +
      `\n\nCirrus peak RSS (VmHWM) after all rounds: **${fmt(rss, 0)} MB** (target < ${TARGET.rssMB} MB); ${fmt(rssAtStart, 0)} MB before the first request.`;
    return { md, ok };
  } finally {
    client.destroy();
    await cirrus.stop();
    await floor.stop();
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Signs out on `from`, then asks `to` with the access token until it is refused: ms from the sign-out's answer. */
async function propagation(from, to, pair) {
  const out = await api(from.url, 'DELETE', '/api/v4/session/token', { json: { refresh_token: pair.refresh_token } });
  if (out.status !== 200) throw new Error(`sign-out answered ${out.status}`);
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(`${to.url}/api/v4/user/me`, { headers: { authorization: `Bearer ${pair.access_token}` } });
    await res.arrayBuffer();
    if (res.status === 401) return performance.now() - t0;
    if (res.status !== 200) throw new Error(`/user/me answered ${res.status}`);
    if (performance.now() - t0 > 10_000) throw new Error('the token was still accepted after 10 s');
  }
}

async function revocations() {
  const redis = await startRedis();
  const db = await freshPostgres(process.env.CIRRUS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const env = { CIRRUS_DATABASE_URL: db.url, CIRRUS_REDIS_URL: redis.url };
  const a = await startCirrus({ env });
  const b = await startCirrus({ env });
  try {
    // Sessions made up front (an argon2id sign-in is slow by design), four at a time.
    const total = REVOCATIONS + REVOCATIONS_NO_REDIS;
    const pairs = [];
    for (let i = 0; i < total; i += 4) pairs.push(...(await Promise.all(Array.from({ length: Math.min(4, total - i) }, (_, k) => signIn((i + k) % 2 ? b.url : a.url, ADMIN.email, ADMIN.password)))));
    const measure = async (list) => {
      const ms = [];
      for (const [i, pair] of list.entries()) ms.push(i % 2 ? await propagation(b, a, pair) : await propagation(a, b, pair));
      return ms.sort((x, y) => x - y);
    };
    const withRedis = await measure(pairs.slice(0, REVOCATIONS));
    await redis.stop();
    await sleep(3_000); // both instances notice the outage and take the database path
    const withoutRedis = await measure(pairs.slice(REVOCATIONS));
    const row = (label, ms) => [label, String(ms.length), fmt(percentile(ms, 50), 1), fmt(percentile(ms, 99), 1), fmt(ms[ms.length - 1], 1)];
    const ok = percentile(withRedis, 99) < TARGET.revocationP99Ms && percentile(withoutRedis, 99) < 5_000;
    const md = table('Revocation propagation between two instances (sign-out on one, refused on the other)', ['path', 'sign-outs', 'p50 ms', 'p99 ms', 'max ms'], [
      row('Redis fan-out', withRedis),
      row('Redis stopped: database poll (1 s)', withoutRedis),
    ]);
    return { md, ok };
  } finally {
    await a.stop();
    await b.stop();
    await redis.stop();
    await db.drop();
  }
}

export async function runAll() {
  const load0 = os.loadavg()[0];
  // CIRRUS_BENCH_SCALE picks parts: transfers, revocations (default: both).
  const parts = (process.env.CIRRUS_BENCH_SCALE ?? 'transfers,revocations').split(',');
  const results = [];
  if (parts.includes('transfers')) results.push(await transfers());
  if (parts.includes('revocations')) results.push(await revocations());
  // The machine may be shared: the load says how much the figures can be trusted.
  results[results.length - 1].md += `\n\nLoad average of the machine (1 min) at the start / end: ${fmt(load0, 1)} / ${fmt(os.loadavg()[0], 1)} on ${os.cpus().length} cores.`;
  return results;
}
