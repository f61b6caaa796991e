// The admin API for OAuth applications and `npm run cirrus -- app create`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createUser } from '../helpers/client.js';
import { ROOT_DIR } from '../../src/paths.js';
import { createApp, postForm, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const run = promisify(execFile);
const PATH = '/api/v4/admin/oauthClient';

describe('OAuth apps (admin API and CLI)', () => {
  let ctx: OAuthTestContext;
  before(async () => {
    ctx = await startOAuthServer();
  });
  after(() => ctx.server.close());

  /** Whether a client authenticates with this secret (introspection answers 200 only then). */
  const secretWorks = async (id: string, secret: string) => (await postForm(ctx, { token: 'x', client_id: id, client_secret: secret }, { path: '/api/v4/session/oauth/introspect' })).status === 200;
  const put = (body: unknown, id?: string) => ctx.api.put<AppView>(id ? `${PATH}/${id}` : PATH, body, { token: ctx.adminToken });
  const valid = { name: 'My App', icon: 'https://icons.example/app.png', redirect_uris: [REDIRECT_URI], scopes: ['openid', 'Files.Read'] };

  it('creates an app: a UUID client ID, a generated secret shown once and stored only as a hash', async () => {
    const res = await put({ client: { ...valid, homepage_url: 'https://my.example', description: 'Does things' } });
    assert.equal(res.status, 200, res.text);
    const app = res.body.data;
    assert.match(app.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(app.secret && app.secret.length >= 43);
    assert.equal(app.is_enabled, true);
    assert.equal(app.is_public, false);
    assert.deepEqual(app.redirect_uris, [REDIRECT_URI]);
    assert.ok(await secretWorks(app.id, app.secret!));

    const got = await ctx.api.get<AppView>(`${PATH}/${app.id}`, { token: ctx.adminToken });
    assert.equal(got.status, 200);
    assert.equal('secret' in got.body.data, false);
    assert.equal(got.text.includes(app.secret!), false);
    const row = await ctx.server.built.services.db.selectFrom('oauth_clients').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    assert.match(row.secret_hash!, /^[0-9a-f]{64}$/);
    assert.equal(JSON.stringify(row).includes(app.secret!), false);

    const list = await ctx.api.post<{ clients: AppView[]; pagination: { total: number } }>(PATH, {}, { token: ctx.adminToken });
    assert.equal(list.status, 200);
    assert.ok(list.body.data.clients.some((c) => c.id === app.id));
    assert.equal(list.text.includes(app.secret!), false);
  });

  it('accepts an admin-supplied secret of at least 16 characters, and no shorter one', async () => {
    const short = await put({ client: { ...valid, secret: 'fifteen-chars-x' } });
    assert.equal(short.status, 400);
    assert.equal(short.body.code, 40001);
    const res = await put({ client: { ...valid, secret: 'sixteen-chars-xx' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.secret, 'sixteen-chars-xx');
    assert.ok(await secretWorks(res.body.data.id, 'sixteen-chars-xx'));
  });

  it('regenerates the secret: the new one works, the old one stops', async () => {
    const app = await createApp(ctx);
    const res = await put({ client: { regenerate_secret: true } }, app.id);
    assert.equal(res.status, 200);
    const fresh = res.body.data.secret!;
    assert.ok(fresh && fresh !== app.secret);
    assert.ok(await secretWorks(app.id, fresh));
    assert.equal(await secretWorks(app.id, app.secret), false);
  });

  it('updates fields without showing the secret', async () => {
    const app = await createApp(ctx);
    const res = await put({ client: { name: 'Renamed', redirect_uris: ['https://new.example/cb', 'com.example.app:/oauth'] } }, app.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.name, 'Renamed');
    assert.deepEqual(res.body.data.redirect_uris, ['https://new.example/cb', 'com.example.app:/oauth']);
    assert.equal('secret' in res.body.data, false);
    assert.ok(await secretWorks(app.id, app.secret));
  });

  it('refuses invalid apps with 400/40001 and stores nothing', async () => {
    const before = (await ctx.api.post<{ pagination: { total: number } }>(PATH, {}, { token: ctx.adminToken })).body.data.pagination.total;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['http redirect to a public host (RFC 9700 §2.6)', { redirect_uris: ['http://client.example/cb'] }],
      ['redirect with a fragment (RFC 6749 §3.1.2)', { redirect_uris: ['https://client.example/cb#x'] }],
      ['relative redirect', { redirect_uris: ['/cb'] }],
      ['javascript: redirect', { redirect_uris: ['javascript:alert(1)'] }],
      ['data: redirect', { redirect_uris: ['data:text/html,x'] }],
      ['redirect with credentials', { redirect_uris: ['https://user:pw@client.example/cb'] }],
      ['redirect with a space', { redirect_uris: ['https://client.example/a b'] }],
      ['no redirect', { redirect_uris: [] }],
      ['duplicate redirects', { redirect_uris: [REDIRECT_URI, REDIRECT_URI] }],
      ['unknown scope', { scopes: ['openid', 'Files.Delete'] }],
      ['no scope', { scopes: [] }],
      ['empty name', { name: '   ' }],
      ['http icon', { icon: 'http://icons.example/a.png' }],
      ['icon with markup', { icon: '<svg onload=x>' }],
      ['javascript homepage', { homepage_url: 'javascript:alert(1)' }],
      ['public client with a secret', { is_public: true, secret: 'sixteen-chars-xx' }],
      ['secret with a space', { secret: 'sixteen chars xxx' }],
    ];
    for (const [why, patch] of cases) {
      const res = await put({ client: { ...valid, ...patch } });
      assert.equal(res.status, 400, `${why}: ${res.text}`);
      assert.equal(res.body.code, 40001, why);
    }
    const missing = await put({ client: { name: 'x' } });
    assert.equal(missing.status, 400);
    const after = (await ctx.api.post<{ pagination: { total: number } }>(PATH, {}, { token: ctx.adminToken })).body.data.pagination.total;
    assert.equal(after, before);
  });

  it('is for administrators only (403), and needs a sign-in (401)', async () => {
    const user = await createUser(ctx.api, ctx.adminToken, 'not-admin@example.com');
    assert.equal((await ctx.api.put(PATH, { client: valid }, { token: user.token.access_token })).status, 403);
    assert.equal((await ctx.api.post(PATH, {}, { token: user.token.access_token })).status, 403);
    assert.equal((await ctx.api.post(PATH, {})).status, 401);
  });

  it('RFC 8628 §3.1: an app limited to the device grant registers without redirect URIs; one with authorization_code still needs one (RFC 6749 §3.1.2)', async () => {
    const device = 'urn:ietf:params:oauth:grant-type:device_code';
    const { redirect_uris: _, ...withoutUris } = valid;
    const tv = await put({ client: { ...withoutUris, is_public: true, grant_types: [device, 'refresh_token'] } });
    assert.equal(tv.status, 200, tv.text);
    assert.deepEqual(tv.body.data.redirect_uris, []);
    const empty = await put({ client: { ...valid, redirect_uris: [], grant_types: [device] } });
    assert.equal(empty.status, 200, empty.text);

    // The device flow starts for it (RFC 8628 §3.1–3.2).
    const started = await postForm(ctx, { client_id: tv.body.data.id, scope: 'openid' }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(started.status, 200, started.text);
    // No authorization request can succeed: nothing is registered to match.
    const authorize = await ctx.api.get(`/api/v4/session/oauth/authorize?response_type=code&client_id=${tv.body.data.id}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&scope=openid&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`);
    assert.notEqual(authorize.status, 303);

    for (const client of [withoutUris, { ...valid, redirect_uris: [] }, { ...withoutUris, grant_types: ['authorization_code', device] }]) {
      const refused = await put({ client });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 40001);
      assert.match(refused.body.msg, /redirect_uris/);
      assert.deepEqual((refused.body as { data?: unknown }).data, { field: 'redirect_uris' });
    }
    // Adding authorization_code later needs URIs too; with them it is accepted, and they are matched exactly as before.
    const addCode = await put({ client: { grant_types: ['authorization_code', device] } }, tv.body.data.id);
    assert.equal(addCode.status, 400, addCode.text);
    const withUris = await put({ client: { grant_types: ['authorization_code', device], redirect_uris: [REDIRECT_URI] } }, tv.body.data.id);
    assert.equal(withUris.status, 200, withUris.text);
    assert.deepEqual(withUris.body.data.redirect_uris, [REDIRECT_URI]);
    // A bad URI is still refused on a device-only app when one is given.
    const bad = await put({ client: { ...withoutUris, grant_types: [device], redirect_uris: ['http://example.com/cb'] } });
    assert.equal(bad.status, 400);
  });

  it('deletes an app (404 afterwards) and answers 404 for unknown ids', async () => {
    const app = await createApp(ctx);
    assert.equal((await ctx.api.delete(`${PATH}/${app.id}`, undefined, { token: ctx.adminToken })).status, 200);
    assert.equal((await ctx.api.get(`${PATH}/${app.id}`, { token: ctx.adminToken })).status, 404);
    assert.equal((await ctx.api.delete(`${PATH}/${app.id}`, undefined, { token: ctx.adminToken })).status, 404);
    assert.equal((await put({ client: { name: 'x' } }, app.id)).status, 404);
    assert.equal(await secretWorks(app.id, app.secret), false);
  });

  describe('npm run cirrus -- app create', () => {
    const cli = (args: string[]) => {
      const db = ctx.server.config.database;
      const env = { ...process.env, CIRRUS_DATA_DIR: ctx.server.config.dataDir, CIRRUS_LOG_LEVEL: 'silent', ...(db.kind === 'postgres' ? { CIRRUS_DATABASE_URL: db.url } : {}) };
      return run(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), 'app', 'create', ...args], { env, cwd: ROOT_DIR }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    };

    it('registers an app and prints its client ID and secret, which work at once', async () => {
      const res = await cli(['--name', 'CLI App', '--redirect-uri', REDIRECT_URI, '--redirect-uri', 'http://127.0.0.1/cb', '--scope', 'openid profile', '--scope', 'offline_access']);
      assert.equal(res.code, 0, res.stderr);
      const id = /client_id:\s+(\S+)/.exec(res.stdout)?.[1];
      const secret = /client_secret:\s+(\S+)/.exec(res.stdout)?.[1];
      assert.ok(id && secret, res.stdout);
      const got = await ctx.api.get<AppView>(`${PATH}/${id}`, { token: ctx.adminToken });
      assert.equal(got.body.data.name, 'CLI App');
      assert.deepEqual(got.body.data.scopes, ['openid', 'profile', 'offline_access']);
      assert.deepEqual(got.body.data.redirect_uris, [REDIRECT_URI, 'http://127.0.0.1/cb']);
      assert.ok(await secretWorks(id, secret));
    });

    it('registers a public client without a secret', async () => {
      const res = await cli(['--name', 'CLI Native', '--redirect-uri', 'http://127.0.0.1/cb', '--scope', 'openid', '--public']);
      assert.equal(res.code, 0, res.stderr);
      assert.doesNotMatch(res.stdout, /client_secret/);
      const id = /client_id:\s+(\S+)/.exec(res.stdout)?.[1];
      assert.equal((await ctx.api.get<AppView>(`${PATH}/${id}`, { token: ctx.adminToken })).body.data.is_public, true);
    });

    it('--grant (repeatable) sets the grant types; without it, authorization_code and refresh_token', async () => {
      const device = 'urn:ietf:params:oauth:grant-type:device_code';
      const res = await cli(['--name', 'CLI TV', '--redirect-uri', REDIRECT_URI, '--scope', 'openid', '--public', '--grant', device, '--grant', 'refresh_token']);
      assert.equal(res.code, 0, res.stderr);
      const id = /client_id:\s+(\S+)/.exec(res.stdout)?.[1];
      const got = await ctx.api.get<AppView & { grant_types: string[] }>(`${PATH}/${id}`, { token: ctx.adminToken });
      assert.deepEqual(got.body.data.grant_types, [device, 'refresh_token']);
      const plain = await cli(['--name', 'CLI Web', '--redirect-uri', REDIRECT_URI, '--scope', 'openid']);
      const plainId = /client_id:\s+(\S+)/.exec(plain.stdout)?.[1];
      assert.deepEqual((await ctx.api.get<AppView & { grant_types: string[] }>(`${PATH}/${plainId}`, { token: ctx.adminToken })).body.data.grant_types, ['authorization_code', 'refresh_token']);
      const bad = await cli(['--name', 'CLI Bad', '--redirect-uri', REDIRECT_URI, '--scope', 'openid', '--grant', 'implicit']);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /grant_types/);
    });

    it('RFC 8628: an app with only the device grant needs no --redirect-uri', async () => {
      const device = 'urn:ietf:params:oauth:grant-type:device_code';
      const res = await cli(['--name', 'CLI TV only', '--scope', 'openid', '--public', '--grant', device]);
      assert.equal(res.code, 0, res.stderr);
      const id = /client_id:\s+(\S+)/.exec(res.stdout)?.[1];
      const got = await ctx.api.get<AppView & { grant_types: string[] }>(`${PATH}/${id}`, { token: ctx.adminToken });
      assert.deepEqual(got.body.data.grant_types, [device]);
      assert.deepEqual(got.body.data.redirect_uris, []);
    });

    it('refuses bad input with a message and a non-zero exit', async () => {
      const [missing, badScope] = await Promise.all([
        cli(['--name', 'No Redirect', '--scope', 'openid']),
        cli(['--name', 'Bad', '--redirect-uri', REDIRECT_URI, '--scope', 'Files.Delete']),
      ]);
      // Without --grant, the app may use authorization_code, which needs a redirect URI.
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /redirect_uris/);
      assert.equal(badScope.code, 1);
      assert.match(badScope.stderr, /scope/);
    });
  });
});
