// CORS for browser apps (issue 11; docs/security.md "Cross-origin requests").
// The Fetch standard's CORS protocol (fetch.spec.whatwg.org, "CORS protocol")
// decides what a page may read; RFC 6749 §3.2 / §5.1 and RFC 7009 §2 name the
// endpoints a public browser client must reach; RFC 9700 §4.x and the IETF
// "OAuth 2.0 for Browser-Based Applications" draft recommend allowing them only
// to the client's own origins and never with credentials (cookies). RFC 7662
// introspection is for resource servers and gets no CORS. Discovery (RFC 8414
// §3, OIDC Discovery §4) and the JWKS (RFC 7517) are public: any origin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser } from '../helpers/client.js';
import { consent, createApp, pkcePair, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const SPA = 'https://spa.example';
const OTHER = 'https://other.example';
const EVIL = 'https://evil.example';
const DISABLED = 'https://disabled.example';
const CONFIDENTIAL = 'https://server-side.example';

describe('CORS', () => {
  let ctx: OAuthTestContext;
  /** A public client (a single-page app: no secret, PKCE). */
  let spa: AppView;
  let confidential: AppView & { secret: string };
  let userToken: string;

  const request = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    ctx.api.fetch(path, { method, headers, body, redirect: 'manual' });
  const preflight = (path: string, origin: string, method: string, requestHeaders = 'authorization') =>
    request('OPTIONS', path, { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders });
  const form = (origin: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    request('POST', path, { origin, 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(fields).toString());

  function allows(res: Response, origin: string, what: string): void {
    assert.equal(res.headers.get('access-control-allow-origin'), origin, `${what}: Access-Control-Allow-Origin`);
    assert.equal(res.headers.get('access-control-allow-credentials'), null, `${what}: never Allow-Credentials`);
  }
  function refuses(res: Response, what: string): void {
    assert.equal(res.headers.get('access-control-allow-origin'), null, `${what}: no Access-Control-Allow-Origin`);
    assert.equal(res.headers.get('access-control-allow-credentials'), null, `${what}: never Allow-Credentials`);
  }
  const varies = (res: Response) => assert.match(res.headers.get('vary') ?? '', /\bOrigin\b/i, 'Vary: Origin');

  before(async () => {
    ctx = await startOAuthServer();
    spa = await createApp(ctx, { name: 'SPA', is_public: true, redirect_uris: [`${SPA}/callback`, 'com.example.spa:/cb'], scopes: ['openid', 'offline_access', 'Files.Read'] });
    await createApp(ctx, { name: 'Other', redirect_uris: [`${OTHER}/cb`] });
    confidential = await createApp(ctx, { name: 'Server-side', redirect_uris: [`${CONFIDENTIAL}/cb`] });
    await createApp(ctx, { name: 'Disabled', redirect_uris: [`${DISABLED}/cb`], is_enabled: false });
    userToken = (await createUser(ctx.api, ctx.adminToken, 'cors@example.com')).token.access_token;
  });
  after(() => ctx.server.close());

  it('RFC 8414 §3, OIDC Discovery §4, RFC 7517: discovery documents and the JWKS answer any origin with *', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/api/v4/session/oauth/jwks']) {
      const res = await request('GET', path, { origin: EVIL });
      assert.equal(res.status, 200, path);
      allows(res, '*', path);
      const pre = await preflight(path, 'https://any.example', 'GET', 'accept');
      assert.equal(pre.status, 204, path);
      allows(pre, '*', `${path} preflight`);
      assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
    }
  });

  it('RFC 6749 §3.2 / RFC 7009 §2: token and revocation endpoints allow the origins of the named client\'s redirect URIs only', async () => {
    for (const path of ['/api/v4/session/oauth/token', '/api/v4/session/oauth/revoke']) {
      const fields: Record<string, string> = path.endsWith('token') ? { grant_type: 'refresh_token', refresh_token: 'x', client_id: spa.id } : { token: 'x', client_id: spa.id };
      const own = await form(SPA, path, fields);
      allows(own, SPA, `${path} from the client's origin`);
      varies(own);
      assert.match(own.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/i);
      refuses(await form(OTHER, path, fields), `${path} from another client's origin`);
      refuses(await form(EVIL, path, fields), `${path} from an unregistered origin`);
      refuses(await form(DISABLED, path, fields), `${path} from a disabled client's origin`);
      refuses(await form('null', path, fields), `${path} from an opaque origin`);
      // client_secret_basic: the client is the Basic user name.
      const basic = { authorization: `Basic ${Buffer.from(`${encodeURIComponent(confidential.id)}:${encodeURIComponent(confidential.secret)}`).toString('base64')}` };
      const { client_id: _drop, ...noId } = fields;
      const viaBasic = await form(CONFIDENTIAL, path, noId, basic);
      assert.notEqual(viaBasic.status, 401, 'the client authenticated');
      allows(viaBasic, CONFIDENTIAL, `${path} with Basic`);
      refuses(await form(SPA, path, noId, basic), `${path} with Basic from another client's origin`);

      // Preflights carry no body: any enabled client's origin may send; the answer above decides what it reads.
      const pre = await preflight(path, SPA, 'POST', 'content-type, authorization');
      assert.equal(pre.status, 204);
      allows(pre, SPA, `${path} preflight`);
      varies(pre);
      assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
      refuses(await preflight(path, EVIL, 'POST'), `${path} preflight from an unregistered origin`);
      refuses(await preflight(path, DISABLED, 'POST'), `${path} preflight from a disabled client's origin`);
    }
  });

  it('RFC 7662 §4: introspection is for resource servers, so no browser origin may read it', async () => {
    const res = await form(CONFIDENTIAL, '/api/v4/session/oauth/introspect', { token: 'x', client_id: confidential.id, client_secret: confidential.secret });
    assert.equal(res.status, 200);
    refuses(res, 'introspection');
    refuses(await preflight('/api/v4/session/oauth/introspect', CONFIDENTIAL, 'POST'), 'introspection preflight');
  });

  it('a real token from the client\'s origin: the code exchange, userinfo and the files API all answer that origin', async () => {
    const { verifier, challenge } = pkcePair();
    const approved = await consent(ctx, userToken, { response_type: 'code', client_id: spa.id, redirect_uri: `${SPA}/callback`, scope: 'openid Files.Read', code_challenge: challenge, code_challenge_method: 'S256' });
    const code = approved.body.data.code!;
    const exchanged = await form(SPA, '/api/v4/session/oauth/token', { grant_type: 'authorization_code', code, client_id: spa.id, code_verifier: verifier });
    assert.equal(exchanged.status, 200);
    allows(exchanged, SPA, 'code exchange');
    const token = ((await exchanged.json()) as { access_token: string }).access_token;

    for (const path of ['/api/v4/session/oauth/userinfo', '/api/v4/file?path=%2F']) {
      const res = await request('GET', path, { origin: SPA, authorization: `Bearer ${token}` });
      assert.equal(res.status, 200, path);
      allows(res, SPA, path);
      varies(res);
      // Another enabled client's origin is a registered origin too: the token decides what it can do.
      allows(await request('GET', path, { origin: OTHER, authorization: `Bearer ${token}` }), OTHER, `${path} from another client's origin`);
      const evil = await request('GET', path, { origin: EVIL, authorization: `Bearer ${token}` });
      assert.equal(evil.status, 200, 'the server answers; the browser keeps the answer from the page');
      refuses(evil, `${path} from an unregistered origin`);
      varies(evil);
    }
    // Errors are readable too, so an app can see why (RFC 6750 §3: WWW-Authenticate).
    const denied = await request('GET', '/api/v4/file?path=%2F', { origin: SPA, authorization: 'Bearer nope' });
    assert.equal(denied.status, 401);
    allows(denied, SPA, '401');
    assert.match(denied.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/i);
  });

  it('preflights of the Bearer API name the methods and headers (tus headers on uploads); unregistered origins get none', async () => {
    const pre = await preflight('/api/v4/file/upload/abc123', SPA, 'PATCH', 'authorization, tus-resumable, upload-offset, content-type');
    assert.equal(pre.status, 204);
    allows(pre, SPA, 'tus preflight');
    varies(pre);
    const methods = pre.headers.get('access-control-allow-methods') ?? '';
    for (const m of ['PATCH', 'HEAD', 'DELETE']) assert.match(methods, new RegExp(`\\b${m}\\b`), m);
    const headers = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'content-type', 'tus-resumable', 'upload-offset', 'upload-length', 'upload-metadata']) assert.ok(headers.includes(h), h);
    assert.ok(Number(pre.headers.get('access-control-max-age')) > 0);
    refuses(await preflight('/api/v4/file/upload/abc123', EVIL, 'PATCH'), 'tus preflight from an unregistered origin');
    // A preflight is not a tus OPTIONS: without the CORS headers the tus answer is unchanged.
    const tus = await request('OPTIONS', '/api/v4/file/upload', {});
    assert.equal(tus.headers.get('tus-version'), '1.0.0');
    const list = await preflight('/api/v4/file', SPA, 'GET');
    allows(list, SPA, 'file list preflight');
  });

  it('routes that take no token, and first-party-only routes, answer no origin', async () => {
    const signIn = await request('POST', '/api/v4/session/token', { origin: SPA, 'content-type': 'application/json' }, JSON.stringify({ email: 'cors@example.com', password: 'user-password-123' }));
    assert.equal(signIn.status, 200);
    refuses(signIn, 'password sign-in');
    refuses(await preflight('/api/v4/session/token', SPA, 'POST', 'content-type'), 'password sign-in preflight');
    refuses(await preflight('/api/v4/session/oauth/consent', SPA, 'POST'), 'consent preflight (first-party only)');
    refuses(await request('POST', '/api/v4/session/oauth/consent', { origin: SPA, authorization: `Bearer ${userToken}`, 'content-type': 'application/json' }, '{}'), 'consent');
    refuses(await request('GET', '/session/authorize', { origin: SPA }), 'authorization page');
  });

  it('the allowed set follows the registered clients at once: creation, a new redirect URI, disabling, deletion', async () => {
    const NEW = 'https://new.example';
    const probe = () => preflight('/api/v4/file', NEW, 'GET');
    refuses(await probe(), 'before registration');
    const app = await createApp(ctx, { name: 'New', redirect_uris: [`${NEW}/cb`] });
    allows(await probe(), NEW, 'after creation');
    const moved = await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { redirect_uris: ['https://moved.example/cb'] } }, { token: ctx.adminToken });
    assert.equal(moved.status, 200, moved.text);
    refuses(await probe(), 'after its redirect URI moved');
    allows(await preflight('/api/v4/file', 'https://moved.example', 'GET'), 'https://moved.example', 'the new origin');
    await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { is_enabled: false } }, { token: ctx.adminToken });
    refuses(await preflight('/api/v4/file', 'https://moved.example', 'GET'), 'after disabling');
    await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { is_enabled: true } }, { token: ctx.adminToken });
    allows(await preflight('/api/v4/file', 'https://moved.example', 'GET'), 'https://moved.example', 'after enabling again');
    await ctx.api.delete(`/api/v4/admin/oauthClient/${app.id}`, undefined, { token: ctx.adminToken });
    refuses(await preflight('/api/v4/file', 'https://moved.example', 'GET'), 'after deletion');
    // Origins are exact: another port or scheme of a registered origin is another origin.
    refuses(await preflight('/api/v4/file', 'https://spa.example:8443', 'GET'), 'another port');
    refuses(await preflight('/api/v4/file', 'http://spa.example', 'GET'), 'http instead of https');
  });
});
