// Helpers for the sync-client tests: the Debian nextcloudcmd / owncloudcmd
// run as real clients (a HOME of their own), a logging proxy that counts the
// requests they send, and the byte-for-byte comparison of a local tree with
// the server's (read through the file API, not through the door under test).
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Api } from '../helpers/client.js';
import { download, list } from '../files/helpers.js';

export type ClientKind = 'nextcloudcmd' | 'owncloudcmd';

export function hasTool(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** The clients' own files in the synced folder (journal, logs), not part of the tree. */
export function isClientFile(name: string): boolean {
  return /^\.sync_.*\.db/.test(name) || /^\._sync_.*\.db/.test(name) || name.startsWith('.owncloudsync.log') || name === '.sync-exclude.lst';
}

/** Runs one sync; resolves with the client's log. `home` keeps the client's settings between runs. */
export function runClient(kind: ClientKind, local: string, url: string, user: string, password: string, home: string, extra: string[] = [], signal?: AbortSignal): Promise<string> {
  mkdirSync(home, { recursive: true });
  const args = ['--non-interactive', '-u', user, '-p', password];
  if (kind === 'owncloudcmd') {
    // Debian's owncloudcmd ships without a system exclude list and refuses to start without one.
    const exclude = path.join(home, 'exclude.lst');
    writeFileSync(exclude, '*.~*\n.owncloudsync.log*\n._sync_*.db*\n.sync_*.db*\n.csync_journal.db*\n');
    args.push('--exclude', exclude);
  }
  args.push(...extra, local, url);
  return new Promise((resolve, reject) => {
    execFile(kind, args, { env: { ...process.env, HOME: home, LANG: 'C.UTF-8' }, timeout: 600_000, maxBuffer: 256 * 1024 * 1024, signal, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const log = stdout + stderr;
      if (err) reject(new Error(`${kind} failed (${err.message}):\n${log.split('\n').filter((l) => /warn|error|fatal|critical/i.test(l)).slice(-40).join('\n')}`));
      else resolve(log);
    });
  });
}

export interface Logged {
  method: string;
  url: string;
  depth: string | undefined;
  status: number;
}

export interface LoggingProxy {
  url: string;
  log: Logged[];
  /** When set and true for a request, the proxy neither forwards nor answers it (a stalled network), until the client gives up. */
  hold?: (method: string, url: string) => boolean;
  close(): Promise<void>;
}

/** A plain forwarding proxy on loopback that records every request. */
export async function loggingProxy(target: string): Promise<LoggingProxy> {
  const to = new URL(target);
  const log: Logged[] = [];
  const server = http.createServer((req, res) => {
    if (proxy.hold?.(req.method!, req.url!)) {
      log.push({ method: req.method!, url: req.url!, depth: req.headers.depth as string | undefined, status: 0 });
      return;
    }
    const up = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: `${to.hostname}:${to.port}` }, agent: false },
      (upRes) => {
        log.push({ method: req.method!, url: req.url!, depth: req.headers.depth as string | undefined, status: upRes.statusCode! });
        res.writeHead(upRes.statusCode!, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const proxy: LoggingProxy = {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  return proxy;
}

/** path -> sha256 (files) or 'dir' (folders), relative, '/'-separated, NFC. */
export type Tree = Map<string, string>;

export function localTree(root: string): Tree {
  const out: Tree = new Map();
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      if (rel === '' && isClientFile(name)) continue;
      const full = path.join(dir, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      if (statSync(full).isDirectory()) {
        out.set(r.normalize('NFC'), 'dir');
        walk(full, r);
      } else out.set(r.normalize('NFC'), createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(root, '');
  return out;
}

interface Listed {
  name: string;
  type: 'file' | 'folder';
}

/** The server's tree below `base` through the file API. */
export async function serverTree(api: Api, token: string, base = '/'): Promise<Tree> {
  const out: Tree = new Map();
  const walk = async (dir: string, rel: string) => {
    let pageToken = '';
    do {
      const res = await list(api, token, dir, `&page_size=1000${pageToken ? `&next_page_token=${encodeURIComponent(pageToken)}` : ''}`);
      if (res.status !== 200) throw new Error(`list ${dir}: ${res.status} ${res.text}`);
      const data = res.body.data as unknown as { files: Listed[]; next_page_token: string };
      for (const f of data.files) {
        const r = rel === '' ? f.name : `${rel}/${f.name}`;
        const p = dir === '/' ? `/${f.name}` : `${dir}/${f.name}`;
        if (f.type === 'folder') {
          out.set(r, 'dir');
          await walk(p, r);
        } else {
          const got = await download(api, token, p);
          if (got.status !== 200) throw new Error(`download ${p}: ${got.status}`);
          out.set(r, createHash('sha256').update(got.body).digest('hex'));
        }
      }
      pageToken = data.next_page_token;
    } while (pageToken);
  };
  await walk(base, '');
  return out;
}

/** A readable difference of two trees ('' when equal). */
export function treeDiff(local: Tree, server: Tree): string {
  const lines: string[] = [];
  for (const [p, h] of local) if (server.get(p) !== h) lines.push(`${server.has(p) ? 'differs' : 'only local'}: ${p}`);
  for (const p of server.keys()) if (!local.has(p)) lines.push(`only on server: ${p}`);
  return lines.slice(0, 30).join('\n');
}
