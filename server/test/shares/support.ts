// Helpers for the share tests: a server, people with files, shares made
// through the API, and anonymous requests to the public routes.
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type StartOptions } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';

export interface ShareView {
  id: string;
  url: string;
  path: string | null;
  type: 'file' | 'folder' | null;
  name: string | null;
  has_password: boolean;
  expires_at: string | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  status: 'active' | 'expired' | 'exhausted' | 'unavailable';
  created_at: string;
  updated_at: string;
}

export interface PublicView {
  id: string;
  type: 'file' | 'folder';
  name: string | null;
  size: number | null;
  mime_type: string | null;
  owner: { nickname: string };
  has_password: boolean;
  unlocked: boolean;
  expires_at: string | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  created_at: string;
}

export interface ItemView {
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  mime_type: string | null;
  updated_at: string;
}

export interface Person {
  id: string;
  email: string;
  token: string;
}

export interface Ctx {
  server: InjectedServer;
  api: Api;
  admin: string;
}

export async function setUp(options: StartOptions = {}): Promise<Ctx> {
  const server = await startInjectedServer({}, options);
  const api = new Api(server);
  const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  return { server, api, admin };
}

let counter = 0;

export async function newUser(ctx: Ctx, nickname?: string): Promise<Person> {
  counter++;
  const email = `share-${process.pid}-${counter}@example.com`;
  const { user, token } = await createUser(ctx.api, ctx.admin, email);
  if (nickname) await ctx.api.patch('/api/v4/user/setting', { nickname }, { token: token.access_token });
  return { id: user.id, email, token: token.access_token };
}

export async function upload(ctx: Ctx, who: Person, path: string, body: string | Buffer): Promise<void> {
  const res = await ctx.api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, {
    token: who.token,
    body,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (res.status !== 200) throw new Error(`upload ${path}: ${res.status} ${res.text}`);
}

export async function share(ctx: Ctx, who: Person, body: Record<string, unknown>): Promise<ShareView> {
  const res = await ctx.api.put<ShareView>('/api/v4/share', body, { token: who.token });
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`create share: ${res.status} ${res.text}`);
  return res.body.data;
}

export interface Bytes {
  status: number;
  headers: Headers;
  body: Buffer;
  json: { code: number; data: unknown; msg: string } | null;
}

/** An anonymous request for bytes (a share download). */
export async function fetchBytes(ctx: Ctx, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Bytes> {
  const res = await ctx.server.fetch(path, { method: init.method ?? 'GET', headers: init.headers, redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  let json: Bytes['json'] = null;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) json = JSON.parse(body.toString('utf8')) as Bytes['json'];
  return { status: res.status, headers: res.headers, body, json };
}

export async function unlock(ctx: Ctx, id: string, password: string): Promise<string> {
  const res = await ctx.api.post<{ token: string; expires_at: string }>(`/api/v4/share/unlock/${id}`, { password });
  if (res.status !== 200) throw new Error(`unlock: ${res.status} ${res.text}`);
  return res.body.data.token;
}

