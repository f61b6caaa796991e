// Scopes on every route, the user's list of authorized apps, and what stops
// an app's tokens: the user revoking its grant, the admin disabling,
// narrowing or deleting it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, type TokenPair } from '../helpers/client.js';
import { approve, createApp, eventually, exchange, postForm, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

describe('grants and scopes', () => {
  let ctx: OAuthTestContext;
  let user: { user: { id: string }; token: TokenPair; password: string };
  let userToken: string;

  before(async () => {
    ctx = await startOAuthServer();
    user = await createUser(ctx.api, ctx.adminToken, 'grants@example.com');
    userToken = user.token.access_token;
  });
  after(() => ctx.server.close());

  async function tokensFor(app: AppView & { secret: string }, scope: string): Promise<{ access_token: string; refresh_token: string }> {
    const res = await exchange(ctx, app, await approve(ctx, userToken, app, { scope }));
    assert.equal(res.status, 200, res.text);
    return res.body as { access_token: string; refresh_token: string };
  }
  const me = (token: string) => ctx.api.get('/api/v4/user/me', { token });
  const refreshAtTokenEndpoint = (app: { id: string; secret: string }, token: string) =>
    postForm(ctx, { grant_type: 'refresh_token', refresh_token: token, client_id: app.id, client_secret: app.secret });
  const refreshAtSession = (token: string) => ctx.api.post('/api/v4/session/token/refresh', { refresh_token: token });
  const dies = (token: string) => eventually(async () => (await me(token)).status === 401);

  it('RFC 6750 §3.1: an OAuth token without UserInfo.Read gets 403 insufficient_scope on GET /api/v4/user/me', async () => {
    const app = await createApp(ctx);
    const t = await tokensFor(app, 'openid offline_access');
    const res = await me(t.access_token);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40089);
    assert.match(res.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="UserInfo.Read"/);
    assert.equal((await me((await tokensFor(app, 'UserInfo.Read')).access_token)).status, 200);
  });

  it('RFC 6750 §3.1: an OAuth token without UserSecurityInfo.Write cannot change the password', async () => {
    const app = await createApp(ctx, { scopes: ['UserInfo.Read', 'UserInfo.Write'] });
    const t = await tokensFor(app, 'UserInfo.Read UserInfo.Write');
    const res = await ctx.api.patch('/api/v4/user/setting', { current_password: user.password, new_password: 'another-password-1' }, { token: t.access_token });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40089);
    assert.match(res.headers.get('www-authenticate') ?? '', /scope="UserSecurityInfo.Write"/);
    // Nothing changed: the old password still signs in.
    assert.equal((await ctx.api.post('/api/v4/session/token', { email: 'grants@example.com', password: user.password })).status, 200);
  });

  it('RFC 6750 §3.1: an OAuth token without Files.Write cannot create files; with it, it can', async () => {
    const app = await createApp(ctx, { scopes: ['Files.Read', 'Files.Write'] });
    const readOnly = await tokensFor(app, 'Files.Read');
    const body = { path: '/made-by-oauth', type: 'folder' };
    const refused = await ctx.api.post('/api/v4/file/create', body, { token: readOnly.access_token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 40089);
    assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="Files.Write"/);
    const listing = await ctx.api.get('/api/v4/file?path=/', { token: readOnly.access_token });
    assert.equal(listing.status, 200, listing.text);
    assert.equal(listing.text.includes('made-by-oauth'), false, 'nothing was created');
    const writer = await tokensFor(app, 'Files.Write');
    const created = await ctx.api.post('/api/v4/file/create', body, { token: writer.access_token });
    assert.equal(created.status, 200, created.text);
    assert.equal((await ctx.api.get('/api/v4/file?path=/', { token: readOnly.access_token })).text.includes('made-by-oauth'), true);
  });

  it('OIDC Core §5.3: userinfo needs openid for an OAuth token and returns only the claims of its scopes', async () => {
    const app = await createApp(ctx);
    const without = await tokensFor(app, 'UserInfo.Read');
    assert.equal((await ctx.api.get('/api/v4/session/oauth/userinfo', { token: without.access_token })).status, 403);
    const bare = await tokensFor(app, 'openid');
    const info = await ctx.api.raw('POST', '/api/v4/session/oauth/userinfo', { token: bare.access_token });
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, { sub: user.user.id });
    const full = await tokensFor(app, 'openid profile email');
    const all = (await ctx.api.raw('GET', '/api/v4/session/oauth/userinfo', { token: full.access_token })).body as Record<string, unknown>;
    assert.equal(all.email, 'grants@example.com');
    assert.equal(typeof all.name, 'string');
    assert.equal((await ctx.api.raw('GET', '/api/v4/session/oauth/userinfo')).status, 401);
  });

  it('OIDC Core §5.1, api-contract §11: with the email scope the id_token carries email and email_verified, as userinfo does; without it, neither', async () => {
    const app = await createApp(ctx);
    const claims = (t: { id_token?: string }) => JSON.parse(Buffer.from(t.id_token!.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const withEmail = (await tokensFor(app, 'openid email')) as { access_token: string; id_token?: string };
    const info = (await ctx.api.raw('GET', '/api/v4/session/oauth/userinfo', { token: withEmail.access_token })).body as Record<string, unknown>;
    const id = claims(withEmail);
    assert.equal(id.email, 'grants@example.com');
    assert.equal(id.email_verified, false);
    assert.equal(id.email, info.email);
    assert.equal(id.email_verified, info.email_verified);
    const bare = claims((await tokensFor(app, 'openid')) as { id_token?: string });
    assert.equal('email' in bare, false);
    assert.equal('email_verified' in bare, false);
  });

  it('api-contract §5: an OAuth token cannot use the consent API, even with every scope', async () => {
    const app = await createApp(ctx, { scopes: ['openid', 'UserSecurityInfo.Write', 'Admin.Write'] });
    const t = await tokensFor(app, 'openid UserSecurityInfo.Write');
    const res = await ctx.api.post('/api/v4/session/oauth/consent', { response_type: 'code', client_id: app.id, redirect_uri: app.redirect_uris[0], scope: 'openid' }, { token: t.access_token });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 403);
  });

  it('lists the apps a user authorized in GET /api/v4/user/setting (oauth_grants)', async () => {
    const app = await createApp(ctx, { name: 'Listed App', homepage_url: 'https://listed.example' });
    await tokensFor(app, 'openid profile');
    const res = await ctx.api.get<{ oauth_grants: Array<Record<string, unknown>> }>('/api/v4/user/setting', { token: userToken });
    assert.equal(res.status, 200);
    const grant = res.body.data.oauth_grants.find((g) => g.client_id === app.id);
    assert.ok(grant);
    assert.equal(grant.name, 'Listed App');
    assert.deepEqual(grant.scopes, ['openid', 'profile']);
    assert.equal(grant.homepage_url, 'https://listed.example');
  });

  it('grant revoked: refresh tokens fail at once on both routes, access tokens within 5 s', async () => {
    const app = await createApp(ctx);
    const a = await tokensFor(app, 'offline_access UserInfo.Read');
    const b = await tokensFor(app, 'offline_access UserInfo.Read');
    assert.equal((await me(a.access_token)).status, 200);
    const res = await ctx.api.delete(`/api/v4/session/oauth/grant/${app.id}`, undefined, { token: userToken });
    assert.equal(res.status, 200, res.text);
    assert.equal((await refreshAtTokenEndpoint(app, a.refresh_token)).body.error, 'invalid_grant');
    assert.equal((await refreshAtSession(b.refresh_token)).status, 401);
    assert.ok(await dies(a.access_token));
    assert.ok(await dies(b.access_token));
    const info = await ctx.api.get<{ consented_scopes: string[] }>(`/api/v4/session/oauth/app/${app.id}`, { token: userToken });
    assert.deepEqual(info.body.data.consented_scopes, []);
    const settings = await ctx.api.get<{ oauth_grants: Array<{ client_id: string }> }>('/api/v4/user/setting', { token: userToken });
    assert.equal(settings.body.data.oauth_grants.some((g) => g.client_id === app.id), false);
    assert.equal((await ctx.api.delete(`/api/v4/session/oauth/grant/${app.id}`, undefined, { token: userToken })).status, 404);
    // Authorizing again works at once.
    const again = await tokensFor(app, 'UserInfo.Read');
    assert.equal((await me(again.access_token)).status, 200);
  });

  it('revoking a grant needs a first-party token or UserSecurityInfo.Write', async () => {
    const app = await createApp(ctx, { scopes: ['UserInfo.Read', 'UserSecurityInfo.Write'] });
    const weak = await tokensFor(app, 'UserInfo.Read');
    assert.equal((await ctx.api.delete(`/api/v4/session/oauth/grant/${app.id}`, undefined, { token: weak.access_token })).status, 403);
    const strong = await tokensFor(app, 'UserSecurityInfo.Write');
    assert.equal((await ctx.api.delete(`/api/v4/session/oauth/grant/${app.id}`, undefined, { token: strong.access_token })).status, 200);
  });

  it('app deleted: its grants go, refresh fails at once, access tokens stop within 5 s, the client is unknown', async () => {
    const app = await createApp(ctx);
    const t = await tokensFor(app, 'offline_access UserInfo.Read');
    const res = await ctx.api.delete(`/api/v4/admin/oauthClient/${app.id}`, undefined, { token: ctx.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.equal((await refreshAtSession(t.refresh_token)).status, 401);
    assert.equal((await refreshAtTokenEndpoint(app, t.refresh_token)).body.error, 'invalid_client');
    assert.ok(await dies(t.access_token));
    const settings = await ctx.api.get<{ oauth_grants: Array<{ client_id: string }> }>('/api/v4/user/setting', { token: userToken });
    assert.equal(settings.body.data.oauth_grants.some((g) => g.client_id === app.id), false);
    const grants = await ctx.server.built.services.db.selectFrom('oauth_grants').selectAll().where('client_id', '=', app.id).execute();
    assert.equal(grants.length, 0);
    assert.equal((await ctx.api.get(`/api/v4/session/oauth/app/${app.id}`)).status, 404);
  });

  it('app disabled: its tokens stop; enabled again, the user authorizes anew', async () => {
    const app = await createApp(ctx);
    const t = await tokensFor(app, 'offline_access UserInfo.Read');
    await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { is_enabled: false } }, { token: ctx.adminToken });
    assert.equal((await refreshAtSession(t.refresh_token)).status, 401);
    assert.ok(await dies(t.access_token));
    await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { is_enabled: true } }, { token: ctx.adminToken });
    assert.equal((await refreshAtSession(t.refresh_token)).status, 401, 'old tokens stay dead');
    assert.equal((await me((await tokensFor(app, 'UserInfo.Read')).access_token)).status, 200);
  });

  it('app narrowed by the admin: a refresh token for scopes it lost fails', async () => {
    const app = await createApp(ctx);
    const t = await tokensFor(app, 'offline_access UserInfo.Read');
    const upd = await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { scopes: ['openid', 'offline_access'] } }, { token: ctx.adminToken });
    assert.equal(upd.status, 200, upd.text);
    assert.equal((await refreshAtTokenEndpoint(app, t.refresh_token)).body.error, 'invalid_grant');
  });

  it('user banned: the authorization codes issued to them stop working', async () => {
    const app = await createApp(ctx);
    const victim = await createUser(ctx.api, ctx.adminToken, 'banned-later@example.com');
    const code = await approve(ctx, victim.token.access_token, app);
    await ctx.api.put(`/api/v4/admin/user/${victim.user.id}`, { status: 'banned' }, { token: ctx.adminToken });
    const res = await exchange(ctx, app, code);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
  });
});
