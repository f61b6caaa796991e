// Shared set-up for the OAuth tests: a server with a stub web page, an admin,
// apps registered through the admin API, and the authorization step driven
// through the consent API the way the authorize page drives it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type StartOptions, type TestServer } from '../helpers/harness.js';
import { startInjectedServer } from '../helpers/inject.js';
import { Api, signIn } from '../helpers/client.js';

export const REDIRECT_URI = 'https://client.example/callback';
export const PAGE_MARKER = 'cirrus-authorize-page-stub';

export interface AppView {
  id: string;
  name: string;
  icon: string;
  redirect_uris: string[];
  scopes: string[];
  is_public: boolean;
  is_enabled: boolean;
  grant_types: string[];
  secret?: string;
}

export interface OAuthTestContext {
  server: TestServer;
  api: Api;
  adminToken: string;
}

/**
 * A server whose web page is a stub, so these tests do not depend on a web
 * build. Requests go through app.inject unless `transport` is 'socket' (for
 * OAuth client libraries that talk to a URL).
 */
export async function startOAuthServer(options: StartOptions & { transport?: 'inject' | 'socket'; env?: Record<string, string> } = {}): Promise<OAuthTestContext> {
  const webDir = mkdtempSync(path.join(tmpdir(), 'cirrus-web-'));
  writeFileSync(path.join(webDir, 'index.html'), `<!doctype html><title>${PAGE_MARKER}</title>`);
  const env = { ...options.env, CIRRUS_WEB_DIR: webDir };
  const server = options.transport === 'socket' ? await startServer(env, { clock: options.clock }) : await startInjectedServer(env, { clock: options.clock });
  const api = new Api(server);
  const adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  return { server, api, adminToken };
}

export async function createApp(ctx: OAuthTestContext, client: Record<string, unknown> = {}): Promise<AppView & { secret: string }> {
  const res = await ctx.api.put<AppView>(
    '/api/v4/admin/oauthClient',
    { client: { name: 'Test App', icon: 'cloud-upload', redirect_uris: [REDIRECT_URI], scopes: ['openid', 'profile', 'email', 'offline_access', 'UserInfo.Read', 'Files.Read'], ...client } },
    { token: ctx.adminToken },
  );
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`create app failed: ${res.status} ${res.text}`);
  return res.body.data as AppView & { secret: string };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface ConsentResult {
  redirect_uri: string;
  code?: string;
  state?: string | null;
}

/** POSTs the consent API as the authorize page does; returns the envelope response. */
export function consent(ctx: OAuthTestContext, userToken: string, body: Record<string, unknown>) {
  return ctx.api.post<ConsentResult>('/api/v4/session/oauth/consent', body, { token: userToken });
}

/** Approves a standard request and returns the code (throws when no code came back). */
export async function approve(ctx: OAuthTestContext, userToken: string, app: { id: string }, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await consent(ctx, userToken, { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: 'openid offline_access UserInfo.Read', ...extra });
  const code = res.body.data?.code;
  if (res.status !== 200 || typeof code !== 'string') throw new Error(`consent failed: ${res.status} ${res.text}`);
  return code;
}

export interface TokenBody {
  access_token?: string;
  refresh_token?: string;
  id_token?: string;
  token_type?: string;
  expires_in?: number;
  refresh_token_expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

/** POSTs a form to the token endpoint (or another client-authenticated endpoint). */
export function postForm(ctx: OAuthTestContext, form: Record<string, string>, opts: { path?: string; basic?: [string, string]; raw?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(opts.basic[0])}:${encodeURIComponent(opts.basic[1])}`).toString('base64')}`;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  return ctx.api.raw('POST', opts.path ?? '/api/v4/session/oauth/token', opts.raw !== undefined ? { body: opts.raw, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } } : { form, headers }) as Promise<{
    status: number;
    headers: Headers;
    body: TokenBody & Record<string, unknown>;
    text: string;
  }>;
}

/** Exchanges a code with client_secret_post. */
export function exchange(ctx: OAuthTestContext, app: { id: string; secret?: string }, code: string, extra: Record<string, string> = {}) {
  return postForm(ctx, { grant_type: 'authorization_code', code, client_id: app.id, ...(app.secret ? { client_secret: app.secret } : {}), ...extra });
}

/** Polls until `check` holds (revocations reach access tokens within 5 s). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
