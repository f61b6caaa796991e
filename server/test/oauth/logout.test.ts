// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0, api-contract
// §12): the app builds the logout URL with openid-client, as a real app does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import { approve, createApp, eventually, exchange, PAGE_MARKER, postForm, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const BYE = 'https://client.example/signed-out';

interface LogoutView {
  client: { id: string; name: string } | null;
  confirm: boolean;
  reason: string | null;
  redirect_uri: string | null;
}

describe('RP-initiated logout', () => {
  let ctx: OAuthTestContext;
  let app: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  let config: oidc.Configuration;

  before(async () => {
    ctx = await startOAuthServer({ transport: 'socket' });
    app = await createApp(ctx, { name: 'Notes', post_logout_redirect_uris: [BYE] });
    user = await createUser(ctx.api, ctx.adminToken, 'logout@example.com');
    config = await oidc.discovery(new URL(ctx.server.url), app.id, app.secret, undefined, { execute: [oidc.allowInsecureRequests] });
  });
  after(() => ctx.server.close());

  const signInToApp = async () => {
    const res = await exchange(ctx, app, await approve(ctx, user.token.access_token, app));
    assert.equal(res.status, 200, res.text);
    return res.body as { id_token: string; access_token: string; refresh_token: string };
  };
  const query = (url: URL) => Object.fromEntries(url.searchParams);
  /** The page's call; `token` is the browser's own Cirrus session, when it has one. */
  const check = (body: Record<string, string>, token?: string) => ctx.api.post<LogoutView>('/api/v4/session/oauth/logout/check', body, token ? { token } : {});
  const logout = (body: Record<string, string>) => ctx.api.post<{ redirect_uri: string | null }>('/api/v4/session/oauth/logout', body);

  it('OIDC Discovery / RP-Initiated Logout §2.1: end_session_endpoint is <base>/session/logout; the app object lists its post-logout URIs', async () => {
    assert.equal(config.serverMetadata().end_session_endpoint, `${ctx.server.url}/session/logout`);
    assert.deepEqual((app as unknown as { post_logout_redirect_uris: string[] }).post_logout_redirect_uris, [BYE]);
  });

  it('RP-Initiated Logout §2–3: a registered post_logout_redirect_uri gets state back, and the app’s session family ends', async () => {
    const tokens = await signInToApp();
    assert.equal(typeof decodeJwt(tokens.id_token).sid, 'string', 'the id_token names its session');
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: BYE, state: 'bye-42' });
    assert.equal(url.origin + url.pathname, `${ctx.server.url}/session/logout`);
    const page = await fetch(url, { redirect: 'manual' });
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(PAGE_MARKER));
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);

    const shown = await check(query(url), user.token.access_token);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.data.confirm, false, 'a live hint of the person signed in needs no confirmation');
    assert.equal(shown.body.data.reason, null);
    assert.equal(shown.body.data.client?.name, 'Notes');
    const done = await logout(query(url));
    assert.equal(done.status, 200, done.text);
    const back = new URL(done.body.data.redirect_uri!);
    assert.equal(back.origin + back.pathname, BYE);
    assert.equal(back.searchParams.get('state'), 'bye-42');

    // The app's tokens stop: refresh at once, access within the revocation poll.
    const refresh = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.id, client_secret: app.secret });
    assert.equal(refresh.body.error, 'invalid_grant');
    assert.ok(await eventually(async () => (await ctx.api.get('/api/v4/user/me', { token: tokens.access_token })).status === 401));
    // The person's own Cirrus session is the browser's to end (the page signs out); it is not touched here.
    assert.equal((await ctx.api.get('/api/v4/user/me', { token: user.token.access_token })).status, 200);

    // The same hint again is stale: the page asks before doing anything.
    const again = await check(query(url), user.token.access_token);
    assert.equal(again.body.data.confirm, true);
    assert.equal(again.body.data.reason, 'stale_hint');
  });

  it("RP-Initiated Logout §2: a live hint that does not name the person signed in (someone else's, or nobody signed in) is asked about; an app's token is refused", async () => {
    const tokens = await signInToApp();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: BYE, state: 'x' });
    const victim = await createUser(ctx.api, ctx.adminToken, 'logout-victim@example.com');
    const theirs = await check(query(url), victim.token.access_token);
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.data.confirm, true, "someone else's hint must not sign this person out without asking");
    assert.equal(theirs.body.data.reason, 'other_account');
    const nobody = await check(query(url));
    assert.equal(nobody.body.data.confirm, true);
    assert.equal(nobody.body.data.reason, 'not_signed_in');
    const mine = await check(query(url), user.token.access_token);
    assert.equal(mine.body.data.confirm, false);
    // An application's own access token is not a browser's Cirrus session.
    assert.equal((await check(query(url), tokens.access_token)).status, 403);
    // Asking changed nothing: the app's session still stands.
    assert.equal((await ctx.api.get('/api/v4/user/me', { token: tokens.access_token })).status, 200);
  });

  it('RP-Initiated Logout §3: an unregistered post_logout_redirect_uri is refused: 400 and no redirect, and nothing is ended', async () => {
    const tokens = await signInToApp();
    for (const uri of ['https://evil.example/', `${BYE}/x`, `${BYE}?a=1`, 'https://client.example/callback']) {
      const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: uri, state: 's' });
      const page = await fetch(url, { redirect: 'manual' });
      assert.equal(page.status, 400, uri);
      assert.equal(page.headers.get('location'), null);
      const res = await logout(query(url));
      assert.equal(res.status, 400, uri);
      assert.equal(res.body.code, 40001);
    }
    assert.equal((await ctx.api.get('/api/v4/user/me', { token: tokens.access_token })).status, 200, 'the app session still stands');
  });

  it('RP-Initiated Logout §2, §6: without a hint (or with client_id only) the page asks; a URI without any app named, or a forged hint, is refused', async () => {
    const none = await check({}, user.token.access_token);
    assert.equal(none.body.data.confirm, true);
    assert.equal(none.body.data.reason, 'no_hint');
    assert.equal(none.body.data.redirect_uri, null);
    const byClient = await check({ client_id: app.id, post_logout_redirect_uri: BYE, state: 'z' });
    assert.equal(byClient.body.data.confirm, true);
    assert.equal(new URL(byClient.body.data.redirect_uri!).searchParams.get('state'), 'z');
    assert.equal((await check({ post_logout_redirect_uri: BYE })).status, 400);
    const tokens = await signInToApp();
    const [h, p, sig] = tokens.id_token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...decodeJwt(tokens.id_token), sub: 'someone-else' })).toString('base64url')}.${sig}`;
    assert.equal((await check({ id_token_hint: forged })).status, 400);
    assert.equal((await check({ id_token_hint: `${h}.${p}.${'A'.repeat(86)}` })).status, 400);
    assert.equal((await check({ id_token_hint: tokens.access_token })).status, 400, 'an access token is not an id_token');
    const other = await createApp(ctx, { name: 'Other' });
    assert.equal((await check({ id_token_hint: tokens.id_token, client_id: other.id })).status, 400);
  });

  it('admin API: post_logout_redirect_uris follow the redirect URI rules', async () => {
    const res = await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { post_logout_redirect_uris: ['javascript:alert(1)'] } }, { token: ctx.adminToken });
    assert.equal(res.status, 400);
    const okRes = await ctx.api.put<{ post_logout_redirect_uris: string[] }>(`/api/v4/admin/oauthClient/${app.id}`, { client: { post_logout_redirect_uris: [BYE, 'http://127.0.0.1/bye'] } }, { token: ctx.adminToken });
    assert.deepEqual(okRes.body.data.post_logout_redirect_uris, [BYE, 'http://127.0.0.1/bye']);
  });
});
