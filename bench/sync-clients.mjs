// Sync-client benchmark (issue 33): a first sync with Debian's `nextcloudcmd`
// of 2,000 small files (4 KiB, random) and of one large file (1 GiB, random),
// to Cirrus's /remote.php/ door, against the same client syncing the same
// files to Apache httpd 2.4 with mod_dav (plain WebDAV, with static
// status.php / capabilities / cloud/user files so the client accepts it:
// server/test/webdav/apache.ts), in the same run, the order alternating each
// round. Both store on the same disk (temp dirs of one file system), both
// behind Basic auth on loopback. Each round syncs into an empty server folder
// with a fresh client journal.
// - Cirrus gets what the client does against a Nextcloud server: chunked
//   uploads for the large file (chunking v2, assembled server-side),
//   checksums, X-OC-Mtime; Apache gets each file in one PUT (its
//   capabilities offer no chunking).
// - Cirrus answers a stored file once it is on disk (fsync); Apache once it
//   is in the page cache. For the large file the time to fdatasync what
//   Apache wrote is added, measured right after (the same durability).
// - The large file is also sent to Cirrus the way it goes to Apache (one PUT:
//   the client told not to cut it), so the same requests meet both servers;
//   chunked, Cirrus appends the chunks to one staging file and renames it
//   into place (sync/chunked.ts), so it writes the file once either way.
// - Apache flushes nothing; Cirrus fsyncs each blob before it answers. A
//   second Cirrus started with CIRRUS_BENCHMARK_NO_FSYNC does the same work
//   as Apache (the guide's rule for a baseline that skips fsync: measured
//   both ways, both reported).
// - Peak resident memory: Cirrus's VmHWM over the whole run (target < 200 MB;
//   the durable Cirrus, which serves every run but the unflushed ones).
// - The client writes a PUT's headers and its small body separately with
//   Nagle's algorithm on, so the body waits for the server's acknowledgement
//   of the headers, which Linux delays by up to 40 ms: on this loopback each
//   small file costs both servers about that much. Cirrus answers the desktop
//   clients' PUTs with an interim 100 Continue at once (sync/early-continue.ts),
//   which carries the acknowledgement; Apache does not. With
//   CIRRUS_BENCH_SYNC_QUICKACK=1 (root: it sets `quickack 1` on the loopback
//   route for the run and restores it) no acknowledgement is delayed for
//   either server, and the ratio is the servers' own cost per file.
// Target: Cirrus at least as fast as Apache on each (time ratio Apache /
// Cirrus >= 1.0, the median of the rounds).
// Settings: CIRRUS_BENCH_SYNC_SMALL_FILES (2000), CIRRUS_BENCH_SYNC_BIG_MB
// (1024), CIRRUS_BENCH_SYNC_ROUNDS (3), CIRRUS_BENCH_SYNC_DATABASE (sqlite |
// postgres), CIRRUS_BENCH_SYNC_QUICKACK (unset; 1: no delayed acknowledgements on loopback).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADMIN, ROOT, api, envInt, fmt, median, procMemory, signIn, startCirrus, table, writeRandomFile } from './lib.mjs';

const SMALL_FILES = envInt('CIRRUS_BENCH_SYNC_SMALL_FILES', 2000);
const BIG_MB = envInt('CIRRUS_BENCH_SYNC_BIG_MB', 1024);
const ROUNDS = envInt('CIRRUS_BENCH_SYNC_ROUNDS', 3);
const DATABASE = process.env.CIRRUS_BENCH_SYNC_DATABASE ?? 'sqlite';
const TARGET = { ratio: 1.0, rssMB: 200 };
const QUICKACK = process.env.CIRRUS_BENCH_SYNC_QUICKACK === '1';

/** Sets `quickack 1` on the loopback route (no delayed acknowledgements); answers the function that restores it. */
function quickAckOnLoopback() {
  const route = spawnSync('ip', ['route', 'show', 'table', 'local', '127.0.0.1'], { encoding: 'utf8' }).stdout.trim();
  if (!route.startsWith('local 127.0.0.1 ')) throw new Error(`no loopback route to change: ${JSON.stringify(route)}`);
  const plain = route.replace(/\s+quickack \d+/, '').split(/\s+/);
  const set = spawnSync('ip', ['route', 'change', ...plain, 'table', 'local', 'quickack', '1'], { encoding: 'utf8' });
  if (set.status !== 0) throw new Error(`ip route change (root needed): ${set.stderr}`);
  return () => spawnSync('ip', ['route', 'change', ...plain, 'table', 'local']);
}

function has(tool) {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

/** One first sync of `local` to the server folder `folder` at `url`; resolves with its wall time in ms. */
function sync(local, url, user, password, home, folder, env = {}) {
  mkdirSync(home, { recursive: true });
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile('nextcloudcmd', ['--non-interactive', '-u', user, '-p', password, '--path', `/${folder}`, local, url], { env: { ...process.env, HOME: home, LANG: 'C.UTF-8', ...env }, timeout: 1_800_000, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`nextcloudcmd failed: ${err.message}\n${(stdout + stderr).split('\n').filter((l) => /warn|error|fatal|critical/i.test(l)).slice(-30).join('\n')}`));
      else resolve(performance.now() - t0);
    });
  });
}

async function datasync(file) {
  const t0 = performance.now();
  const fh = await open(file, 'r+');
  await fh.datasync();
  await fh.close();
  return performance.now() - t0;
}

export async function run() {
  const missing = ['nextcloudcmd', 'apache2', 'htpasswd'].filter((t) => !has(t));
  if (missing.length) return { ok: true, md: `\n### Sync clients against Apache mod_dav\n\nSkipped: ${missing.join(', ')} not installed (.ci/run installs them).\n` };
  const { startApacheDav } = await import(pathToFileURL(path.join(ROOT, 'dist/server/test/webdav/apache.js')).href);
  const work = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-sync-'));
  const cleanup = [() => rmSync(work, { recursive: true, force: true })];
  if (QUICKACK) cleanup.push(quickAckOnLoopback());
  try {
    // The local trees, made once: the small files in 20 folders, and the large file.
    const smallDir = path.join(work, 'small');
    for (let i = 0; i < SMALL_FILES; i++) {
      const dir = path.join(smallDir, `d${i % 20}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `f${i}.bin`), randomBytes(4096));
    }
    const bigDir = path.join(work, 'big');
    mkdirSync(bigDir);
    await writeRandomFile(path.join(bigDir, 'big.bin'), BIG_MB * 1024 * 1024);

    // A Cirrus, its administrator's id and an app password for the client.
    const startSite = async (env) => {
      const site = await startCirrus({ database: DATABASE, env });
      cleanup.push(() => site.stop());
      const token = (await signIn(site.url)).access_token;
      const me = (await api(site.url, 'GET', '/api/v4/user/me', { token })).body.data;
      await api(site.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } });
      const account = (await api(site.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'bench' } })).body.data;
      return { site, me, account };
    };
    const main = await startSite({});
    const cirrus = main.site;
    // The same work as Apache, which flushes nothing: a second Cirrus that does not fsync its blobs.
    const unflushed = await startSite({ CIRRUS_BENCHMARK_NO_FSYNC: 'true' });
    const apache = await startApacheDav({ nextcloud: true });
    cleanup.push(() => apache.stop());

    // 'Cirrus (one PUT)': the same client settings as for Apache, so both servers get the same requests.
    const times = { small: { Cirrus: [], 'Cirrus (no fsync)': [], Apache: [], ApacheSync: [] }, big: { Cirrus: [], 'Cirrus (one PUT)': [], 'Cirrus (no fsync)': [], Apache: [], ApacheSync: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['Cirrus', 'Apache', 'Cirrus (no fsync)'] : ['Cirrus (no fsync)', 'Apache', 'Cirrus'];
      for (const kind of ['small', 'big']) {
        const servers = kind === 'big' ? [...order, 'Cirrus (one PUT)'] : order;
        for (const server of servers) {
          // A fresh copy of the local tree per run: the client writes its journal into it.
          const local = path.join(work, `${server.replace(/\W+/g, '-')}-${kind}-${round}`);
          spawnSync('cp', ['-a', kind === 'small' ? smallDir : bigDir, local]);
          const folder = `r${round}-${kind}${server === 'Cirrus (one PUT)' ? '-put' : ''}`;
          let url;
          const { site, me, account } = server === 'Cirrus (no fsync)' ? unflushed : main;
          if (server !== 'Apache') {
            const made = await fetch(`${site.url}/remote.php/dav/files/${me.id}/${folder}`, { method: 'MKCOL', headers: { authorization: `Basic ${Buffer.from(`${ADMIN.email}:${account.password}`).toString('base64')}` } });
            if (made.status !== 201) throw new Error(`MKCOL on Cirrus: ${made.status}`);
            url = `${site.url}/`;
          } else {
            mkdirSync(path.join(apache.dataDir, folder));
            spawnSync('chown', ['-R', '--reference', apache.dataDir, path.join(apache.dataDir, folder)]);
            url = `${apache.url}/`;
          }
          const user = server !== 'Apache' ? ADMIN.email : apache.user;
          const password = server !== 'Apache' ? account.password : apache.password;
          // Apache: one PUT per file. Without chunking capabilities the client still cuts large files into
          // the old chunking's "<name>-chunking-…" pieces (which plain WebDAV stores as pieces): a chunk size
          // above the file's size makes it send the file whole.
          // (The client reads it as a 32-bit int: 2^31 - 1 is the most; 4 GiB wraps to 0, and against a
          // server with chunking it then announces a transfer and sends no chunk.)
          const env = server === 'Apache' || server === 'Cirrus (one PUT)' ? { OWNCLOUD_CHUNK_SIZE: String(2 ** 31 - 1), OWNCLOUD_MAX_CHUNK_SIZE: String(2 ** 31 - 1) } : {};
          const ms = await sync(local, url, user, password, path.join(work, `home-${server.replace(/\W+/g, '-')}-${kind}-${round}`), folder, env);
          times[kind][server].push(ms);
          // The small files: Apache's file system synced once after the run (sync -f: syncfs), a lower bound
          // of what making them durable costs (Cirrus syncs each file and its row as it answers).
          if (server === 'Apache' && kind === 'small') {
            const t0 = performance.now();
            spawnSync('sync', ['-f', path.join(apache.dataDir, folder)]);
            times.small.ApacheSync.push(ms + performance.now() - t0);
          }
          if (server === 'Apache' && kind === 'big') {
            const stored = path.join(apache.dataDir, folder, 'big.bin');
            const size = (() => { try { return statSync(stored).size; } catch { return -1; } })();
            if (size !== BIG_MB * 1024 * 1024) throw new Error(`Apache holds ${readdirSync(path.join(apache.dataDir, folder)).join(', ')}: big.bin ${size} bytes`);
            times.big.ApacheSync.push(ms + (await datasync(stored)));
          }
          rmSync(local, { recursive: true, force: true });
          console.error(`  round ${round + 1} ${kind} ${server}: ${fmt(ms / 1000, 2)} s`);
        }
      }
    }
    const peakMB = procMemory(cirrus.pid, 'VmHWM') / 2 ** 20;
    const smallRatio = median(times.small.Apache) / median(times.small.Cirrus);
    const smallRatioSync = median(times.small.ApacheSync) / median(times.small.Cirrus);
    const bigRatio = median(times.big.ApacheSync) / median(times.big.Cirrus);
    const bigRatioCache = median(times.big.Apache) / median(times.big.Cirrus);
    const bigRatioPut = median(times.big.ApacheSync) / median(times.big['Cirrus (one PUT)']);
    const smallRatioNoFsync = median(times.small.Apache) / median(times.small['Cirrus (no fsync)']);
    const bigRatioNoFsync = median(times.big.Apache) / median(times.big['Cirrus (no fsync)']);
    const rows = [
      [`first sync of ${fmt(SMALL_FILES)} files of 4 KiB`, `${fmt(median(times.small.Cirrus) / 1000, 2)} s`, `${fmt(median(times.small.Apache) / 1000, 2)} s`, `**${smallRatio.toFixed(2)}**`],
      [`the same, Apache + one syncfs after the run (a lower bound of the same durability)`, `${fmt(median(times.small.Cirrus) / 1000, 2)} s`, `${fmt(median(times.small.ApacheSync) / 1000, 2)} s`, `${smallRatioSync.toFixed(2)}`],
      [`first sync of one ${fmt(BIG_MB)} MiB file (Apache + fdatasync: the same durability)`, `${fmt(median(times.big.Cirrus) / 1000, 2)} s`, `${fmt(median(times.big.ApacheSync) / 1000, 2)} s`, `**${bigRatio.toFixed(2)}**`],
      [`the same, Apache without fdatasync (page cache)`, `${fmt(median(times.big.Cirrus) / 1000, 2)} s`, `${fmt(median(times.big.Apache) / 1000, 2)} s`, `${bigRatioCache.toFixed(2)}`],
      [`the same work on both: one PUT to Cirrus too (the client told not to cut it), Apache + fdatasync`, `${fmt(median(times.big['Cirrus (one PUT)']) / 1000, 2)} s`, `${fmt(median(times.big.ApacheSync) / 1000, 2)} s`, `**${bigRatioPut.toFixed(2)}**`],
      [`the same durability on both: the small files, neither server flushing (Cirrus with CIRRUS_BENCHMARK_NO_FSYNC)`, `${fmt(median(times.small['Cirrus (no fsync)']) / 1000, 2)} s`, `${fmt(median(times.small.Apache) / 1000, 2)} s`, `**${smallRatioNoFsync.toFixed(2)}**`],
      [`the same durability on both: the 1 GiB file chunked to Cirrus, neither flushing`, `${fmt(median(times.big['Cirrus (no fsync)']) / 1000, 2)} s`, `${fmt(median(times.big.Apache) / 1000, 2)} s`, `${bigRatioNoFsync.toFixed(2)}`],
    ];
    const ok = smallRatio >= TARGET.ratio && bigRatio >= TARGET.ratio && peakMB < TARGET.rssMB;
    const md =
      table(
        `Sync clients: nextcloudcmd first sync to Cirrus (${DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite'}) and to Apache mod_dav, same run, median of ${ROUNDS} alternated rounds${QUICKACK ? ', loopback without delayed acknowledgements (route quickack)' : ''}`,
        ['work', 'Cirrus', 'Apache', 'Apache / Cirrus time (≥ 1.0: Cirrus as fast or faster)'],
        rows,
      ) + `\n\nCirrus peak RSS (VmHWM, whole run): **${fmt(peakMB, 0)} MB** (target < ${TARGET.rssMB} MB). Rounds (s): small ${times.small.Cirrus.map((t) => fmt(t / 1000, 1)).join(' / ')} vs ${times.small.Apache.map((t) => fmt(t / 1000, 1)).join(' / ')}; big ${times.big.Cirrus.map((t) => fmt(t / 1000, 1)).join(' / ')} vs ${times.big.ApacheSync.map((t) => fmt(t / 1000, 1)).join(' / ')}.\n`;
    return { md, ok };
  } finally {
    for (const f of cleanup.reverse()) await f();
  }
}
