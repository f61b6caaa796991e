// Helpers for the WebDAV tests: a person with a WebDAV account, Basic
// credentials, raw WebDAV requests over loopback, and the Debian tools
// (litmus, rclone, apache2) the tests drive as real clients.
import { spawnSync } from 'node:child_process';
import { Api } from '../helpers/client.js';
import type { TestServer } from '../helpers/harness.js';
import { adminToken, newUser, type Person } from '../files/helpers.js';

export interface DavAccount {
  id: string;
  name: string;
  path: string;
  readonly: boolean;
  created_at: string;
  password: string;
}

export interface DavPerson extends Person {
  email: string;
  account: DavAccount;
  /** `Basic …` for the account. */
  basic: string;
}

export function basicHeader(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`, 'utf8').toString('base64')}`;
}

export async function emailOf(api: Api, token: string): Promise<string> {
  const me = await api.get<{ email: string }>('/api/v4/user/me', { token });
  return me.body.data.email;
}

export async function createAccount(api: Api, token: string, body: { name: string; path?: string; readonly?: boolean }): Promise<DavAccount> {
  const res = await api.put<DavAccount>('/api/v4/devices/dav', body, { token });
  if (res.status !== 200) throw new Error(`create dav account: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function davPerson(server: TestServer, account: { path?: string; readonly?: boolean } = {}): Promise<DavPerson> {
  const api = new Api(server);
  const person = await newUser(api, await adminToken(api));
  const email = await emailOf(api, person.token);
  if (account.path && account.path !== '/') {
    const made = await api.post('/api/v4/file/create', { path: account.path, type: 'folder' }, { token: person.token });
    if (made.status !== 200) throw new Error(`mkdir ${account.path}: ${made.text}`);
  }
  const acc = await createAccount(api, person.token, { name: 'laptop', ...account });
  return { ...person, email, account: acc, basic: basicHeader(email, acc.password) };
}

export interface DavResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** One WebDAV request: `auth` is a full Authorization value (Basic … or Bearer …). */
export async function dav(server: TestServer, method: string, path: string, auth: string | null, opts: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<DavResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (auth) headers.authorization = auth;
  // The server's own transport: the socket, or app.inject for an injected server.
  const res = await new Api(server).fetch(path, { method, headers, body: opts.body as BodyInit | undefined, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export function hasTool(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

export const PROPFIND_ALL = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
