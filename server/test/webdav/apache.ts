// Apache httpd with mod_dav + mod_dav_fs as the reference WebDAV server for
// the litmus comparison and the benchmark. It runs as our own child process
// (never the system service): its own config, lock database, document root
// and logs in a temp dir, on a free loopback port, Basic auth from its own
// htpasswd file. stop() ends exactly the process it started.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MODULES = '/usr/lib/apache2/modules';

export interface ApacheDav {
  url: string;
  user: string;
  password: string;
  pid: number;
  dataDir: string;
  /** Resident memory of the Apache processes (parent and children), in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

export function apacheAvailable(): boolean {
  return spawnSync('sh', ['-c', 'command -v apache2 && command -v htpasswd']).status === 0 && statSafe(`${MODULES}/mod_dav_fs.so`);
}

function statSafe(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function uidOf(name: string): number | null {
  const res = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  return res.status === 0 ? Number(res.stdout.trim()) : null;
}

function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) chownTree(full, uid, gid);
    else chownSync(full, uid, gid);
  }
}

/** Processes whose parent is `pid` (Apache's workers), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * What a Nextcloud sync client reads before it syncs, as static files (Apache
 * runs no PHP here): status.php, the OCS capabilities (no chunking, so the
 * client sends each file in one PUT: plain WebDAV) and cloud/user, with the
 * files under /remote.php/dav/files/<user>/ and /remote.php/webdav/. For the
 * sync benchmark's baseline (bench/sync-clients.mjs).
 */
function nextcloudShim(docRoot: string, user: string): void {
  const write = (rel: string, body: unknown) => {
    const file = path.join(docRoot, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(body));
  };
  write('status.php', { installed: true, maintenance: false, needsDbUpgrade: false, version: '30.0.0.0', versionstring: '30.0.0', edition: '', productname: 'Apache', extendedSupport: false });
  const capabilities = { version: { major: 30, minor: 0, micro: 0, string: '30.0.0', edition: '' }, capabilities: { core: { pollinterval: 60, 'webdav-root': 'remote.php/webdav' }, dav: {}, files: { bigfilechunking: false } } };
  const userData = { id: user, 'display-name': user, email: null, quota: { free: -3, used: 0, total: -3, relative: 0 } };
  for (const [v, code] of [['v1', 100], ['v2', 200]] as const) {
    const meta = { status: 'ok', statuscode: code, message: 'OK' };
    write(`ocs/${v}.php/cloud/capabilities`, { ocs: { meta, data: capabilities } });
    write(`ocs/${v}.php/cloud/user`, { ocs: { meta, data: userData } });
  }
}

export async function startApacheDav(options: { dataDir?: string; nextcloud?: boolean } = {}): Promise<ApacheDav> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-apache-'));
  const dataDir = options.dataDir ?? path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.join(dir, 'run'));
  const port = await freePort();
  const user = 'dav';
  const password = 'dav-password-123';
  spawnSync('htpasswd', ['-b', '-c', path.join(dir, 'htpasswd'), user, password], { stdio: 'ignore' });
  const root = process.getuid?.() === 0;
  const www = root ? uidOf('www-data') : null;
  const conf = [
    `ServerRoot ${dir}`,
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    `PidFile ${dir}/run/httpd.pid`,
    `Mutex file:${dir}/run`,
    `DefaultRuntimeDir ${dir}/run`,
    `ErrorLog ${dir}/error.log`,
    'LogLevel warn',
    ...['mpm_event', 'authz_core', 'authn_core', 'auth_basic', 'authn_file', 'authz_user', 'alias', 'mime', 'dav', 'dav_fs'].map(
      (m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`,
    ),
    ...(root && www !== null ? ['User www-data', 'Group www-data'] : []),
    `DavLockDB ${dir}/run/DavLock`,
    `TypesConfig /etc/mime.types`,
    'KeepAlive On',
    'MaxKeepAliveRequests 0',
    `DocumentRoot ${dir}/empty`,
    ...(options.nextcloud
      ? [
          `LoadModule headers_module ${MODULES}/mod_headers.so`,
          `Alias /remote.php/dav/files/${user} ${dataDir}`,
          `Alias /remote.php/webdav ${dataDir}`,
          `<Directory ${dir}/empty>`,
          '  ForceType application/json',
          '</Directory>',
          // The client refuses an upload answered without an ETag ("the server did not acknowledge"), and
          // mod_dav's PUT sends none: a placeholder, enough for a first sync (nothing compares it later).
          `Header always set OC-ETag "\\"apache-put\\"" "expr=%{REQUEST_METHOD} == 'PUT'"`,
        ]
      : []),
    `Alias /dav ${dataDir}`,
    `<Directory ${dataDir}>`,
    '  Dav On',
    '  AuthType Basic',
    '  AuthName "dav"',
    `  AuthUserFile ${dir}/htpasswd`,
    '  Require valid-user',
    '  LimitXMLRequestBody 1048576',
    '</Directory>',
  ].join('\n');
  mkdirSync(path.join(dir, 'empty'));
  if (options.nextcloud) nextcloudShim(path.join(dir, 'empty'), user);
  writeFileSync(path.join(dir, 'httpd.conf'), `${conf}\n`);
  if (root && www !== null) chownTree(dir, www, www);
  const child: ChildProcess = spawn('apache2', ['-f', path.join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/dav/`, { method: 'OPTIONS' });
      await res.arrayBuffer();
      break;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        let log = '';
        try {
          log = readFileSync(path.join(dir, 'error.log'), 'utf8');
        } catch {
          /* none */
        }
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`apache2 did not start: ${stderr}${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const pid = child.pid!;
  return {
    url,
    user,
    password,
    pid,
    dataDir,
    rss: () => rssOf(pid) + childrenOf(pid).reduce((sum, p) => sum + rssOf(p), 0),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        // SIGTERM to the parent stops its workers too (graceful stop would wait for keep-alive clients).
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
