// Helpers for the file tests: a signed-in user per test file, raw uploads,
// and a minimal ZIP reader (central directory, ZIP64) to check archives.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../helpers/harness.js';

export interface FileView {
  id: string;
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  mime_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface Person {
  id: string;
  token: string;
}

let counter = 0;

export async function adminToken(api: Api): Promise<string> {
  return (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
}

export async function newUser(api: Api, admin: string): Promise<Person> {
  counter++;
  const { user, token } = await createUser(api, admin, `files-${process.pid}-${counter}-${Date.now()}@example.com`);
  return { id: user.id, token: token.access_token };
}

export const q = (path: string) => encodeURIComponent(path);

export async function put(api: Api, token: string, path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return api.call<FileView>('PUT', `/api/v4/file/content?path=${q(path)}`, { token, body, headers: { 'content-type': 'application/octet-stream', ...headers } });
}

export async function download(api: Api, token: string, path: string, headers: Record<string, string> = {}) {
  const res = await api.fetch(`/api/v4/file/content?path=${q(path)}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

export async function list(api: Api, token: string, path: string, extra = '') {
  return api.get<{ files: FileView[]; next_page_token: string | null }>(`/api/v4/file?path=${q(path)}${extra}`, { token });
}

export async function names(api: Api, token: string, path: string): Promise<string[]> {
  const res = await list(api, token, path, '&page_size=1000');
  if (res.status !== 200) throw new Error(`list ${path}: ${res.status} ${res.text}`);
  return res.body.data.files.map((f) => f.name);
}

export async function capacity(api: Api, token: string): Promise<{ used: number; total: number; versions: number; reserved: number }> {
  return (await api.get<{ used: number; total: number; versions: number; reserved: number }>('/api/v4/user/capacity', { token })).body.data;
}

/** Uploads directory and staging contents of the server's storage, for cleanup checks. */
export async function storageCounts(server: TestServer): Promise<{ staging: number; blobs: number; uploads: number }> {
  const { readdirSync } = await import('node:fs');
  const path = await import('node:path');
  const root = path.join(server.config.dataDir, 'files');
  const staging = readdirSync(path.join(root, 'staging')).length;
  let blobs = 0;
  for (const d of readdirSync(path.join(root, 'blobs'))) blobs += readdirSync(path.join(root, 'blobs', d)).length;
  const db = server.built.services.db;
  const uploads = Number((await db.selectFrom('uploads').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { staging, blobs, uploads };
}

/** A raw HTTP request whose body is written by `write` (to cut connections, lie about lengths). */
export function rawRequest(
  server: Pick<TestServer, 'url'>,
  /** `agent: false`: a connection of its own, never a pooled one (the server may be killed under it). */
  opts: { method: string; path: string; headers: Record<string, string>; agent?: false },
  write: (req: ClientRequest) => void,
): Promise<{ status: number | null; headers: Record<string, string | string[] | undefined>; body: string; error?: Error }> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: opts.method, path: opts.path, headers: opts.headers, agent: opts.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? null, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? null, headers: res.headers, body: '', error }));
    });
    req.on('error', (error) => resolve({ status: null, headers: {}, body: '', error }));
    write(req);
  });
}

/** A streamed PUT the test feeds itself: the request stays open (its body short of the declared length) until the test writes the rest or ends it. */
export interface OpenPut {
  req: ClientRequest;
  /** The answer's status once its body has ended; null when the connection failed (the server died). */
  status: Promise<number | null>;
}

/** Starts `PUT /api/v4/file/content` of `declared` bytes on a connection of its own and sends `first` of them. */
export function openPut(baseUrl: string, token: string, path: string, declared: number, first: Buffer): OpenPut {
  let req!: ClientRequest;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': String(declared) };
  const answer = rawRequest({ url: baseUrl }, { method: 'PUT', path: `/api/v4/file/content?path=${encodeURIComponent(path)}`, headers, agent: false }, (r) => {
    req = r;
    if (first.length > 0) r.write(first);
  });
  return { req, status: answer.then((res) => res.status) };
}

export interface ZipRecord {
  name: string;
  size: number;
  crc32: number;
  offset: number;
  zip64: boolean;
}

/** Reads the central directory from the archive's tail (ZIP64 aware). */
export function readCentralDirectory(tail: Buffer, archiveSize: number): { entries: ZipRecord[]; zip64End: boolean } {
  const base = archiveSize - tail.length;
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  let zip64End = false;
  const locator = eocd - 20;
  if (locator >= 0 && tail.readUInt32LE(locator) === 0x07064b50) {
    const recordAt = Number(tail.readBigUInt64LE(locator + 8)) - base;
    if (tail.readUInt32LE(recordAt) !== 0x06064b50) throw new Error('bad zip64 end record');
    count = Number(tail.readBigUInt64LE(recordAt + 32));
    cdSize = Number(tail.readBigUInt64LE(recordAt + 40));
    cdOffset = Number(tail.readBigUInt64LE(recordAt + 48));
    zip64End = true;
  }
  let p = cdOffset - base;
  if (p < 0) throw new Error('tail too short for the central directory');
  const entries: ZipRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (tail.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central header at ${p}`);
    const nameLen = tail.readUInt16LE(p + 28);
    const extraLen = tail.readUInt16LE(p + 30);
    const commentLen = tail.readUInt16LE(p + 32);
    let size = tail.readUInt32LE(p + 24);
    let offset = tail.readUInt32LE(p + 42);
    const name = tail.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    let x = p + 46 + nameLen;
    const end = x + extraLen;
    let zip64 = false;
    while (x < end) {
      const id = tail.readUInt16LE(x);
      const len = tail.readUInt16LE(x + 2);
      if (id === 1) {
        zip64 = true;
        let y = x + 4;
        if (size === 0xffffffff) {
          size = Number(tail.readBigUInt64LE(y));
          y += 16;
        }
        if (offset === 0xffffffff) offset = Number(tail.readBigUInt64LE(y));
      }
      x += 4 + len;
    }
    entries.push({ name, size, crc32: tail.readUInt32LE(p + 16), offset, zip64 });
    p = end + commentLen;
  }
  if (p - (cdOffset - base) !== cdSize) throw new Error('central directory size mismatch');
  return { entries, zip64End };
}

/** The stored data of one entry of a whole archive in memory. */
export function entryData(zip: Buffer, rec: ZipRecord): Buffer {
  if (zip.readUInt32LE(rec.offset) !== 0x04034b50) throw new Error('bad local header');
  const nameLen = zip.readUInt16LE(rec.offset + 26);
  const extraLen = zip.readUInt16LE(rec.offset + 28);
  const start = rec.offset + 30 + nameLen + extraLen;
  return zip.subarray(start, start + rec.size);
}
