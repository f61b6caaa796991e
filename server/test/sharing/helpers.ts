// Helpers for the sharing tests: people with e-mails, grants, and the
// recipient's view of "Shared with me".
import assert from 'node:assert/strict';
import { Api, signIn } from '../helpers/client.js';

const PASSWORD = 'user-password-123';
import { adminToken, type Person } from '../files/helpers.js';
import { dav } from '../webdav/helpers.js';
import type { TestServer } from '../helpers/harness.js';

export interface Member extends Person {
  email: string;
  nickname: string;
}

export interface SharedItem {
  id: string;
  name: string;
  type: 'file' | 'folder';
  path: string;
  permission: 'read' | 'write';
  owner: { id: string; nickname: string; email: string };
  new: boolean;
}

export interface Grant {
  id: string;
  user?: { id: string; email: string; nickname: string };
  group?: { id: number; name: string };
  permission: 'read' | 'write';
}

let counter = 0;

export async function member(api: Api, admin: string, opts: { nickname?: string; groupId?: number } = {}): Promise<Member> {
  counter++;
  const email = `share-${process.pid}-${counter}-${Date.now()}@example.com`;
  const nickname = opts.nickname ?? `Person ${counter}`;
  const made = await api.put<{ id: string }>('/api/v4/admin/user', { email, password: PASSWORD, nickname, ...(opts.groupId !== undefined ? { group_id: opts.groupId } : {}) }, { token: admin });
  if (made.status !== 200) throw new Error(`create user: ${made.status} ${made.text}`);
  const { token } = await signIn(api, email, PASSWORD);
  return { id: made.body.data.id, token: token.access_token, email, nickname };
}

/** People made by the administrator, one per nickname, in order: the usual cast of a sharing test. */
export async function members<const N extends readonly string[]>(api: Api, ...nicknames: N): Promise<{ [K in keyof N]: Member }> {
  const admin = await adminToken(api);
  const made: Member[] = [];
  for (const nickname of nicknames) made.push(await member(api, admin, { nickname }));
  return made as { [K in keyof N]: Member };
}

export async function newGroup(api: Api, admin: string, name: string): Promise<number> {
  const res = await api.put<{ id: number }>('/api/v4/admin/group', { name: `${name}-${process.pid}-${Date.now()}`, storage_quota: 1 << 30 }, { token: admin });
  if (res.status !== 200) throw new Error(`create group: ${res.status} ${res.text}`);
  return res.body.data.id;
}

export async function grant(api: Api, owner: Person, body: { path: string; user?: string; group?: number; permission: 'read' | 'write'; reshare?: boolean }) {
  return api.put<Grant>('/api/v4/file/access', body, { token: owner.token });
}

export async function sharedWith(api: Api, p: Person): Promise<SharedItem[]> {
  const res = await api.get<SharedItem[]>('/api/v4/file/shared', { token: p.token });
  if (res.status !== 200) throw new Error(`shared: ${res.status} ${res.text}`);
  return res.body.data;
}

export { adminToken };

/** The /dav/ URL path of a tree path, each name percent-encoded. */
export const davPath = (p: string) => '/dav' + p.split('/').map(encodeURIComponent).join('/');

/**
 * Every WebDAV write answers 403 to `auth` (RFC 4918 §9.2–§9.10): PUT, MOVE,
 * COPY, DELETE, PROPPATCH and LOCK of the file at `file` (MOVE and COPY to
 * `moveTo`), and MKCOL of `newFolder`; tree paths.
 */
export async function assertDavWritesRefused(server: TestServer, auth: string, paths: { file: string; moveTo: string; newFolder: string }): Promise<void> {
  const target = davPath(paths.file);
  const dest = { destination: `${server.url}${davPath(paths.moveTo)}` };
  const proppatch = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
  const lock = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
  for (const [method, path, opts] of [
    ['PUT', target, { body: 'x' }],
    ['MOVE', target, { headers: dest }],
    ['COPY', target, { headers: dest }],
    ['DELETE', target, {}],
    ['PROPPATCH', target, { body: proppatch, headers: { 'content-type': 'application/xml' } }],
    ['LOCK', target, { body: lock, headers: { 'content-type': 'application/xml' } }],
    ['MKCOL', davPath(paths.newFolder), {}],
  ] as const) {
    const res = await dav(server, method, path, auth, opts);
    assert.equal(res.status, 403, `${method} ${res.status} ${res.text}`);
  }
}
