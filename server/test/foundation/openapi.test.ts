// The schema-first contract: GET /api/v4/openapi.json describes every
// /api/v4 route, the answers of the main routes validate against the response
// schemas it publishes (JSON Schema 2020-12, as OpenAPI 3.1 says), request
// bodies refuse unknown fields naming them (except where an RFC says to
// ignore them), and the docs page is served.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import sharp from 'sharp';
import addFormats from 'ajv-formats';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { signIn, type ApiResponse } from '../helpers/client.js';
import { approve, createApp, exchange, postForm, startOAuthServer, type OAuthTestContext } from '../oauth/helpers.js';
import { ROOT_DIR } from '../../src/paths.js';

interface Operation {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

describe('OpenAPI document and response schemas', () => {
  let ctx: OAuthTestContext;
  let doc: Document;
  let ajv: Ajv2020;

  before(async () => {
    ctx = await startOAuthServer();
    const res = await ctx.api.raw('GET', '/api/v4/openapi.json');
    assert.equal(res.status, 200, res.text);
    doc = res.body as Document;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(doc as unknown as object, 'openapi.json');
  });
  after(() => ctx.server.close());

  /** Validates an answer against the document's schema for that route, method and status; returns the errors. */
  function check(path: string, method: string, res: ApiResponse): string[] {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is in the document`);
    const response = op.responses[String(res.status)];
    assert.ok(response, `${method.toUpperCase()} ${path} documents status ${res.status}`);
    const ref = `openapi.json#/paths/${escape(path)}/${method}/responses/${res.status}/content/application~1json/schema`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    return validate(res.body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  }
  function assertValid(path: string, method: string, res: ApiResponse): void {
    assert.deepEqual(check(path, method, res), [], `${method.toUpperCase()} ${path} ${res.status}: ${res.text}`);
  }

  it('is OpenAPI 3.1 with every /api/v4 route family, documented errors and named schemas', () => {
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/api/v4/session/token', '/api/v4/session/token/refresh', '/api/v4/user/me', '/api/v4/file', '/api/v4/share', '/api/v4/admin/oauthClient', '/api/v4/session/oauth/token', '/api/v4/file/upload/{id}']) {
      assert.ok(doc.paths[path], `${path} documented`);
    }
    for (const path of Object.keys(doc.paths)) assert.ok(path.startsWith('/api/v4/'), `${path}: only /api/v4 routes`);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        // A browser navigation's success is a redirect (the SSO start and callback).
        assert.ok(statuses.some((s) => s.startsWith('2') || s.startsWith('3')), `${method} ${path} documents its success`);
        assert.ok(statuses.includes('400') && statuses.includes('500'), `${method} ${path} documents 400 and 500`);
        // @fastify/swagger's filler for a route that declares no response schema at all.
        const undeclared = statuses.filter((st) => (op.responses[st] as { description?: string }).description === 'Default Response');
        assert.deepEqual(undeclared, [], `${method} ${path} declares its responses`);
      }
    }
    assert.ok(doc.components.schemas.User && doc.components.schemas.FileView && doc.components.schemas.ErrorEnvelope);
    assert.ok((doc.components.schemas.ErrorCode!.enum as number[]).includes(40001));
  });

  it('docs/api.md and the document list the same /api/v4 routes (one truth for what exists)', () => {
    const text = readFileSync(path.join(ROOT_DIR, 'docs/api.md'), 'utf8');
    const inDocs = new Set<string>();
    for (const m of text.matchAll(/^\| *((?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)(?:, *(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS))*) `([^`]+)`/gm)) {
      let route = m[2]!.split('?')[0]!;
      if (route === '/api/v4/openapi.json' || route.startsWith('/api/docs')) continue;
      if (!route.startsWith('/api/')) {
        if (route === '/' || route.startsWith('/.well-known') || route.startsWith('/s/') || route.startsWith('/assets') || route === '/session/authorize' || route === '/session/logout' || route === '/device') continue;
        // The sync clients' protocol (api-contract §14) lives outside /api/v4, like /dav/.
        if (route === '/status.php' || /^\/(ocs|remote\.php|index\.php)\//.test(route)) continue;
        route = `/api/v4${route}`;
      }
      route = route.replace(/:([A-Za-z_]+)/g, '{$1}');
      for (const method of m[1]!.split(/, */)) if (method !== 'OPTIONS') inDocs.add(`${method} ${route}`);
    }
    const inDocument = new Set<string>();
    for (const [route, item] of Object.entries(doc.paths)) for (const method of Object.keys(item)) if (method !== 'options') inDocument.add(`${method.toUpperCase()} ${route}`);
    assert.deepEqual([...inDocument].filter((r) => !inDocs.has(r)).sort(), [], 'in the OpenAPI document but not in docs/api.md');
    assert.deepEqual([...inDocs].filter((r) => !inDocument.has(r)).sort(), [], 'in docs/api.md but not in the OpenAPI document');
  });

  it('every JSON request body refuses unknown fields, at every depth, except the consent body (RFC 6749 §3.1)', () => {
    const open: string[] = [];
    const walk = (schema: Record<string, unknown>, where: string): void => {
      // A dictionary (no named properties, every value of one declared type, such as a provider's group_map) has no unknown fields to refuse.
      const dictionary = schema.properties === undefined && typeof schema.additionalProperties === 'object';
      if (schema.type === 'object' && schema.additionalProperties !== false && !dictionary) open.push(where);
      for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(sub, `${where}.${name}`);
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const json = op.requestBody?.content['application/json'];
        if (json) walk(json.schema, `${method.toUpperCase()} ${path}`);
      }
    }
    assert.deepEqual(open, ['POST /api/v4/session/oauth/consent']);
  });

  it('the main routes answer what their response schemas say (sign-in, refresh, user/me, listing, share, admin apps, token errors)', async () => {
    const signedIn = await ctx.api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(signedIn.status, 200);
    assertValid('/api/v4/session/token', 'post', signedIn);
    const wrongPassword = await ctx.api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: 'not-the-password' });
    assert.equal(wrongPassword.status, 401);
    assertValid('/api/v4/session/token', 'post', wrongPassword);

    const pair = (signedIn.body.data as { token: { access_token: string; refresh_token: string } }).token;
    const refreshed = await ctx.api.post('/api/v4/session/token/refresh', { refresh_token: pair.refresh_token });
    assert.equal(refreshed.status, 200);
    assertValid('/api/v4/session/token/refresh', 'post', refreshed);
    const token = (refreshed.body.data as { access_token: string }).access_token;

    const me = await ctx.api.get('/api/v4/user/me', { token });
    assert.equal(me.status, 200);
    assertValid('/api/v4/user/me', 'get', me);
    const anonymous = await ctx.api.get('/api/v4/user/me');
    assert.equal(anonymous.status, 401);
    assertValid('/api/v4/user/me', 'get', anonymous);

    const put = await ctx.api.raw('PUT', '/api/v4/file/content?path=/docs/a.txt', { token, body: 'hello', headers: { 'content-type': 'text/plain' } });
    assert.equal(put.status, 200, put.text);
    assertValid('/api/v4/file/content', 'put', put);
    const listing = await ctx.api.get('/api/v4/file?path=/docs', { token });
    assert.equal(listing.status, 200);
    assertValid('/api/v4/file', 'get', listing);
    const missing = await ctx.api.get('/api/v4/file?path=/nowhere', { token });
    assert.equal(missing.status, 404);
    assertValid('/api/v4/file', 'get', missing);

    const share = await ctx.api.put('/api/v4/share', { path: '/docs/a.txt', password: 'open sesame' }, { token });
    assert.equal(share.status, 200, share.text);
    assertValid('/api/v4/share', 'put', share);

    const app = await createApp(ctx);
    const apps = await ctx.api.post('/api/v4/admin/oauthClient', {}, { token });
    assert.equal(apps.status, 200);
    assertValid('/api/v4/admin/oauthClient', 'post', apps);

    const code = await approve(ctx, token, app);
    const tokens = await exchange(ctx, app, code);
    assert.equal(tokens.status, 200, tokens.text);
    assertValid('/api/v4/session/oauth/token', 'post', tokens);
    const replay = await exchange(ctx, app, code);
    assert.equal(replay.status, 400);
    assertValid('/api/v4/session/oauth/token', 'post', replay);
    const badClient = await postForm(ctx, { grant_type: 'authorization_code', code: 'x', client_id: app.id, client_secret: 'wrong' });
    assert.equal(badClient.status, 401);
    assertValid('/api/v4/session/oauth/token', 'post', badClient);
    const badGrant = await postForm(ctx, { grant_type: 'password', client_id: app.id, client_secret: app.secret });
    assert.equal(badGrant.status, 400);
    assertValid('/api/v4/session/oauth/token', 'post', badGrant);
  });

  it('the dashboard, search, sessions and WebDAV account routes answer what their schemas say', async () => {
    const { token: pair } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const token = pair.access_token;
    const put = await ctx.api.raw('PUT', '/api/v4/file/content?path=/found/needle.txt', { token, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(put.status, 200, put.text);
    const search = await ctx.api.get('/api/v4/file/search?q=needle', { token });
    assert.equal(search.status, 200, search.text);
    assert.equal((search.body.data as { files: unknown[] }).files.length, 1);
    assertValid('/api/v4/file/search', 'get', search);

    const sessions = await ctx.api.get('/api/v4/user/session', { token });
    assert.equal(sessions.status, 200, sessions.text);
    assertValid('/api/v4/user/session', 'get', sessions);
    const notMine = await ctx.api.delete('/api/v4/user/session/nope', undefined, { token });
    assert.equal(notMine.status, 404, notMine.text);
    assertValid('/api/v4/user/session/{id}', 'delete', notMine);

    const summary = await ctx.api.get('/api/v4/admin/summary', { token });
    assert.equal(summary.status, 200, summary.text);
    assertValid('/api/v4/admin/summary', 'get', summary);
    const users = await ctx.api.post('/api/v4/admin/user', { keyword: 'example', order_by: 'email' }, { token });
    assert.equal(users.status, 200, users.text);
    assertValid('/api/v4/admin/user', 'post', users);
    const groups = await ctx.api.get('/api/v4/admin/group', { token });
    assert.equal(groups.status, 200, groups.text);
    assertValid('/api/v4/admin/group', 'get', groups);
    const group = await ctx.api.put('/api/v4/admin/group', { name: 'Schema testers', storage_quota: 1024 }, { token });
    assert.equal(group.status, 200, group.text);
    assertValid('/api/v4/admin/group', 'put', group);
    const taken = await ctx.api.put('/api/v4/admin/group', { name: 'schema TESTERS' }, { token });
    assert.equal(taken.status, 409, taken.text);
    assertValid('/api/v4/admin/group', 'put', taken);

    const dav = await ctx.api.put('/api/v4/devices/dav', { name: 'laptop', readonly: true }, { token });
    assert.equal(dav.status, 200, dav.text);
    assertValid('/api/v4/devices/dav', 'put', dav);
    const davList = await ctx.api.get('/api/v4/devices/dav', { token });
    assertValid('/api/v4/devices/dav', 'get', davList);
    const davUnknown = await ctx.api.put('/api/v4/devices/dav', { name: 'phone', read_only: true }, { token });
    assert.equal(davUnknown.status, 400, davUnknown.text);
    assert.equal(davUnknown.body.msg, 'read_only: is not an accepted field');
  });

  it('the routes main gained since the contract (avatars, sorting, archives, admin share search, health) answer what their schemas say', async () => {
    const { token: pair } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const token = pair.access_token;
    for (const [p, body] of [['/later/b.txt', 'bbbb'], ['/later/a.txt', 'a']] as const) {
      const put = await ctx.api.raw('PUT', `/api/v4/file/content?path=${p}`, { token, body, headers: { 'content-type': 'text/plain' } });
      assert.equal(put.status, 200, put.text);
    }

    const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 128, b: 255 } } }).png().toBuffer();
    const avatar = await ctx.api.raw('PUT', '/api/v4/user/avatar', { token, body: picture, headers: { 'content-type': 'image/png' } });
    assert.equal(avatar.status, 200, avatar.text);
    assertValid('/api/v4/user/avatar', 'put', avatar);
    assert.equal(doc.paths['/api/v4/user/avatar']!.put!.requestBody?.content['image/png']?.schema.format, 'binary', 'the picture body is documented');
    const notPicture = await ctx.api.raw('PUT', '/api/v4/user/avatar', { token, body: 'not a picture', headers: { 'content-type': 'image/png' } });
    assert.equal(notPicture.status, 400, notPicture.text);
    assertValid('/api/v4/user/avatar', 'put', notPicture);
    // The serializer writes only declared fields: avatar_url (user views) and picture (userinfo) must be declared.
    const me = await ctx.api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token });
    assertValid('/api/v4/user/me', 'get', me);
    assert.equal(me.body.data.avatar_url, (avatar.body as { data: { avatar_url: string } }).data.avatar_url);
    const userinfo = await ctx.api.raw('GET', '/api/v4/session/oauth/userinfo', { token });
    assert.equal(userinfo.status, 200, userinfo.text);
    assertValid('/api/v4/session/oauth/userinfo', 'get', userinfo);
    assert.match(String((userinfo.body as { picture?: string }).picture), /\/api\/v4\/user\/avatar\//);
    const removed = await ctx.api.delete('/api/v4/user/avatar', undefined, { token });
    assertValid('/api/v4/user/avatar', 'delete', removed);

    const sorted = await ctx.api.get<{ files: { name: string }[] }>('/api/v4/file?path=/later&order_by=size&order=desc', { token });
    assert.equal(sorted.status, 200, sorted.text);
    assertValid('/api/v4/file', 'get', sorted);
    assert.deepEqual(sorted.body.data.files.map((f) => f.name), ['b.txt', 'a.txt']);
    const badSort = await ctx.api.get('/api/v4/file?path=/later&order_by=colour', { token });
    assert.equal(badSort.status, 400, badSort.text);
    assertValid('/api/v4/file', 'get', badSort);

    const link = await ctx.api.post('/api/v4/file/archive/url', { paths: ['/later/a.txt', '/later/b.txt'], name: 'both' }, { token });
    assert.equal(link.status, 200, link.text);
    assertValid('/api/v4/file/archive/url', 'post', link);
    const missing = await ctx.api.post('/api/v4/file/archive/url', { paths: ['/later/none.txt'] }, { token });
    assert.equal(missing.status, 404, missing.text);
    assertValid('/api/v4/file/archive/url', 'post', missing);
    const unknown = await ctx.api.post('/api/v4/file/archive', { paths: ['/later/a.txt'], format: 'tar' }, { token });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.msg, 'format: is not an accepted field');

    const share = await ctx.api.put('/api/v4/share', { path: '/later/a.txt' }, { token });
    assert.equal(share.status, 200, share.text);
    const shares = await ctx.api.post('/api/v4/admin/share', { keyword: 'a.txt', order_by: 'item', order_direction: 'asc' }, { token });
    assert.equal(shares.status, 200, shares.text);
    assertValid('/api/v4/admin/share', 'post', shares);
    const badOrder = await ctx.api.post('/api/v4/admin/share', { order_by: 'colour' }, { token });
    assert.equal(badOrder.status, 400, badOrder.text);
    assertValid('/api/v4/admin/share', 'post', badOrder);

    // Not an envelope: the health object itself, jobs included; 503 shares the schema.
    const health = await ctx.api.raw('GET', '/api/v4/site/health');
    assert.equal(health.status, 200, health.text);
    assertValid('/api/v4/site/health', 'get', health);
    assert.equal(typeof (health.body as { jobs?: unknown }).jobs, 'object');
    assert.ok(doc.paths['/api/v4/site/health']!.get!.responses['503']);
    assert.equal(doc.paths['/metrics'], undefined, '/metrics is Prometheus text outside the document');
  });

  it('the validator is not a rubber stamp: an extra field, a wrong type or a missing field fails', async () => {
    const { token } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const me = await ctx.api.get('/api/v4/user/me', { token: token.access_token });
    const data = me.body.data as Record<string, unknown>;
    const variant = (body: unknown): ApiResponse => ({ ...me, body });
    assert.notDeepEqual(check('/api/v4/user/me', 'get', variant({ ...me.body, data: { ...data, password_hash: 'x' } })), []);
    assert.notDeepEqual(check('/api/v4/user/me', 'get', variant({ ...me.body, data: { ...data, is_admin: 'yes' } })), []);
    const { email: _email, ...withoutEmail } = data;
    assert.notDeepEqual(check('/api/v4/user/me', 'get', variant({ ...me.body, data: withoutEmail })), []);
  });

  it('an unknown body field is a 400 naming it, and changes nothing (PATCH /user/setting two_fa_enabled)', async () => {
    const { token } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await ctx.api.patch('/api/v4/user/setting', { nickname: 'Changed', two_fa_enabled: true }, { token: token.access_token });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 40001);
    assert.match(res.body.msg, /two_fa_enabled/);
    assertValid('/api/v4/user/setting', 'patch', res);
    const after = await ctx.api.get<{ nickname: string; two_fa_enabled: boolean }>('/api/v4/user/setting', { token: token.access_token });
    assert.notEqual(after.body.data.nickname, 'Changed');
    assert.equal(after.body.data.two_fa_enabled, false);

    const nested = await ctx.api.put('/api/v4/admin/oauthClient', { client: { name: 'X', icon: 'mdi:cloud', redirect_uris: ['https://x.example/cb'], scopes: ['openid'], colour: 'blue' } }, { token: token.access_token });
    assert.equal(nested.status, 400, nested.text);
    assert.match(nested.body.msg, /colour/);
  });

  it('RFC 6749 §3.1: unknown authorization request parameters are ignored by the consent API', async () => {
    const { token } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const app = await createApp(ctx);
    const code = await approve(ctx, token.access_token, app, { ui_locales: 'de', claims_locales: 'de', foo: 'bar' });
    assert.ok(code.length > 20);
  });

  it('RFC 6749 §3.2: unknown token request parameters are ignored', async () => {
    const { token } = await signIn(ctx.api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const app = await createApp(ctx);
    const code = await approve(ctx, token.access_token, app);
    const res = await exchange(ctx, app, code, { unknown_parameter: 'x', resource: 'https://ignored.example' });
    assert.equal(res.status, 200, res.text);
  });

  it('serves a docs page at /api/docs without a token, with a CSP that allows only this origin', async () => {
    const page = await ctx.api.raw('GET', '/api/docs');
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /https?:|\*/, 'no third-party source allowed');
    assert.doesNotMatch(page.text, /https?:\/\//, 'the page references nothing absolute');
    const json = await ctx.api.raw('GET', '/api/docs/json');
    assert.equal(json.status, 200);
    assert.deepEqual(json.body, doc);
  });
});
