// The device authorization grant (RFC 8628, api-contract §12), driven by
// oauth4webapi and openid-client as a TV or command-line app would, and by
// the first-party API the /device page uses.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { ManualClock } from '../../src/core/clock.js';
import { ACCOUNT_POLICY } from '../../src/throttle/service.js';
import { Api, createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import { injectFetch, type Fetch } from '../helpers/inject.js';
import { consent, createApp, pkcePair, postForm, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const ALL_GRANTS = ['authorization_code', 'refresh_token', DEVICE_GRANT];
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

interface DeviceRequestView {
  user_code: string;
  scopes: string[];
  app: { id: string; name: string };
}

/** oauth4webapi against a server reached through `fetch` (app.inject or a socket). */
function rp(issuer: string, fetchImpl: Fetch) {
  const options = { [oauth.customFetch]: fetchImpl as typeof fetch, [oauth.allowInsecureRequests]: true };
  let as: oauth.AuthorizationServer | undefined;
  const metadata = async () => (as ??= await oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { ...options, algorithm: 'oauth2' })));
  return {
    metadata,
    async start(app: { id: string; secret?: string }, scope = 'openid offline_access UserInfo.Read') {
      const server = await metadata();
      const auth = app.secret ? oauth.ClientSecretPost(app.secret) : oauth.None();
      return oauth.processDeviceAuthorizationResponse(server, { client_id: app.id }, await oauth.deviceAuthorizationRequest(server, { client_id: app.id }, auth, { scope }, options));
    },
    /** One poll: the token response, or the error code the server answered. */
    async poll(app: { id: string; secret?: string }, deviceCode: string): Promise<oauth.TokenEndpointResponse | string> {
      const server = await metadata();
      const auth = app.secret ? oauth.ClientSecretPost(app.secret) : oauth.None();
      const response = await oauth.deviceCodeGrantRequest(server, { client_id: app.id }, auth, deviceCode, options);
      try {
        return await oauth.processDeviceCodeResponse(server, { client_id: app.id }, response);
      } catch (err) {
        if (err instanceof oauth.ResponseBodyError) return err.error;
        throw err;
      }
    },
  };
}

describe('device authorization grant (RFC 8628)', () => {
  // Frozen: time moves only when a test says so (poll intervals, expiry, throttle locks).
  const clock = new ManualClock({ at: Date.now() });
  let ctx: OAuthTestContext;
  let client: ReturnType<typeof rp>;
  let tv: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  let n = 0;

  before(async () => {
    ctx = await startOAuthServer({ clock });
    client = rp(ctx.server.url, (ctx.server as unknown as { fetch: Fetch }).fetch);
    tv = await createApp(ctx, { name: 'Living Room TV', is_public: true, grant_types: ALL_GRANTS });
    user = await createUser(ctx.api, ctx.adminToken, 'device@example.com');
  });
  after(() => ctx.server.close());

  const verify = (code: string, token = user.token.access_token, api: Api = ctx.api) => api.post<DeviceRequestView>('/api/v4/session/oauth/device/verify', { user_code: code }, { token });
  const decide = (code: string, approve: boolean, token = user.token.access_token, api: Api = ctx.api) =>
    api.post<{ approved: boolean }>('/api/v4/session/oauth/device/consent', { user_code: code, approve }, { token });
  const person = async () => (await createUser(ctx.api, ctx.adminToken, `device-${++n}@example.com`)).token.access_token;

  it('RFC 8628 §4: discovery names the device authorization endpoint and the grant type', async () => {
    const as = await client.metadata();
    assert.equal(as.device_authorization_endpoint, `${ctx.server.url}/api/v4/session/oauth/device_authorization`);
    assert.ok(as.grant_types_supported?.includes(DEVICE_GRANT));
  });

  it('RFC 8628 §3.1–3.5: a public client gets a user code, polls (authorization_pending, slow_down), the person approves on /device, the next poll gets tokens once', async () => {
    const started = await client.start(tv);
    assert.match(started.user_code, USER_CODE);
    assert.equal(started.verification_uri, `${ctx.server.url}/device`);
    assert.equal(started.verification_uri_complete, `${ctx.server.url}/device?user_code=${started.user_code}`);
    assert.equal(started.expires_in, 600);
    assert.equal(started.interval, 5);
    assert.ok(started.device_code.length >= 43);

    assert.equal(await client.poll(tv, started.device_code), 'authorization_pending');
    // §3.5: polling faster than the interval is answered slow_down, and the interval grows by 5 s each time.
    assert.equal(await client.poll(tv, started.device_code), 'slow_down');
    clock.advance(5_000);
    assert.equal(await client.poll(tv, started.device_code), 'slow_down', 'the interval is now 10 s');
    clock.advance(15_000);
    assert.equal(await client.poll(tv, started.device_code), 'authorization_pending');

    // The /device page: any case, with or without the dash.
    const typed = started.user_code.replace('-', '').toLowerCase();
    const seen = await verify(typed);
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.body.data.app.name, 'Living Room TV');
    assert.equal(seen.body.data.user_code, started.user_code);
    assert.deepEqual(seen.body.data.scopes, ['openid', 'offline_access', 'UserInfo.Read']);
    const approved = await decide(` ${typed.slice(0, 4)} - ${typed.slice(4)} `, true);
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.data.approved, true);

    clock.advance(15_000);
    const tokens = await client.poll(tv, started.device_code);
    assert.ok(typeof tokens !== 'string', `tokens expected, got ${String(tokens)}`);
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.scope, 'openid offline_access UserInfo.Read');
    assert.ok(tokens.id_token && tokens.refresh_token);
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.sub, user.user.id);
    assert.equal(claims.client_id, tv.id);
    assert.equal((await ctx.api.get('/api/v4/user/me', { token: tokens.access_token })).status, 200);
    // The approval is a grant like any other: it is listed, and the refresh token rotates.
    const refreshed = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tv.id });
    assert.equal(refreshed.status, 200, refreshed.text);

    // Single use (§3.5): the same device code again is invalid_grant, and the user code is gone.
    clock.advance(15_000);
    assert.equal(await client.poll(tv, started.device_code), 'invalid_grant');
    assert.equal((await verify(started.user_code)).status, 404);
  });

  it('RFC 8628 §3.3: approving a device code tells the person "an app was authorised" (notifications, issue 37), once; denying tells nothing', async () => {
    const who = await createUser(ctx.api, ctx.adminToken, `device-${++n}@example.com`);
    const token = who.token.access_token;
    const notes = async () => {
      const res = await ctx.api.get<{ items: { type: string; data: Record<string, unknown> }[] }>('/api/v4/notifications', { token });
      assert.equal(res.status, 200, res.text);
      return res.body.data.items.filter((x) => x.type === 'app_authorized');
    };
    const denied = await client.start(tv);
    assert.equal((await decide(denied.user_code, false, token)).status, 200);
    const started = await client.start(tv);
    const approved = await decide(started.user_code, true, token);
    assert.equal(approved.status, 200, approved.text);
    let found = await notes();
    for (let i = 0; i < 100 && found.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      found = await notes();
    }
    assert.equal(found.length, 1, 'one notification, and none for the denial');
    assert.equal(found[0]!.data.app, 'Living Room TV');
    assert.deepEqual(found[0]!.data.scopes, ['openid', 'offline_access', 'UserInfo.Read']);
    // The same scopes approved again on another device grant nothing new: no second notification.
    const again = await client.start(tv);
    assert.equal((await decide(again.user_code, true, token)).status, 200);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await notes()).length, 1);
  });

  it('RFC 8628 §3.5: access_denied once the person denies', async () => {
    const token = await person();
    const started = await client.start(tv);
    const denied = await decide(started.user_code, false, token);
    assert.equal(denied.status, 200, denied.text);
    assert.equal(denied.body.data.approved, false);
    assert.equal(await client.poll(tv, started.device_code), 'access_denied');
    // A decided request cannot be decided again.
    assert.equal((await decide(started.user_code, true, token)).status, 404);
  });

  it('RFC 8628 §3.5: expired_token after expires_in (600 s), and the user code no longer works', async () => {
    const token = await person();
    const started = await client.start(tv);
    clock.advance(600_000);
    assert.equal(await client.poll(tv, started.device_code), 'expired_token');
    assert.equal((await verify(started.user_code, token)).status, 404);
    assert.equal((await decide(started.user_code, true, token)).status, 404);
  });

  it('RFC 8628 §3.4, RFC 6749 §5.2: a device code polled by another client is invalid_grant; its own client still gets the tokens', async () => {
    const token = await person();
    const other = await createApp(ctx, { name: 'Other Device', grant_types: [DEVICE_GRANT] });
    const started = await client.start(tv);
    assert.equal((await decide(started.user_code, true, token)).status, 200);
    assert.equal(await client.poll(other, started.device_code), 'invalid_grant');
    const tokens = await client.poll(tv, started.device_code);
    assert.ok(typeof tokens !== 'string', String(tokens));
  });

  it('RFC 8628 §3.1: a confidential client authenticates at the device endpoint (invalid_client without its secret)', async () => {
    const box = await createApp(ctx, { name: 'Set-top Box', grant_types: [DEVICE_GRANT, 'refresh_token'] });
    const ok = await client.start(box);
    assert.match(ok.user_code, USER_CODE);
    const wrong = await postForm(ctx, { client_id: box.id, client_secret: 'wrong-secret-wrong-secret', scope: 'openid' }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const none = await postForm(ctx, { client_id: box.id, scope: 'openid' }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(none.body.error, 'invalid_client');
    assert.equal(wrong.headers.get('cache-control'), 'no-store');
  });

  it('RFC 8628 §3.2, RFC 6749 §3.3: scopes the app may not ask for are invalid_scope; a missing device_code is invalid_request', async () => {
    const bad = await postForm(ctx, { client_id: tv.id, scope: 'Admin.Write' }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_scope');
    const missing = await postForm(ctx, { client_id: tv.id }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(missing.body.error, 'invalid_scope');
    const noCode = await postForm(ctx, { grant_type: DEVICE_GRANT, client_id: tv.id });
    assert.equal(noCode.status, 400);
    assert.equal(noCode.body.error, 'invalid_request');
    const unknown = await postForm(ctx, { grant_type: DEVICE_GRANT, client_id: tv.id, device_code: 'x'.repeat(43) });
    assert.equal(unknown.body.error, 'invalid_grant');
  });

  it('RFC 6749 §5.2: an app uses only the grants it is registered for (unauthorized_client); apps default to authorization_code and refresh_token', async () => {
    const web = await createApp(ctx, { name: 'Web Only' });
    assert.deepEqual(web.grant_types, ['authorization_code', 'refresh_token']);
    const device = await postForm(ctx, { client_id: web.id, client_secret: web.secret, scope: 'openid' }, { path: '/api/v4/session/oauth/device_authorization' });
    assert.equal(device.status, 400);
    assert.equal(device.body.error, 'unauthorized_client');
    const poll = await postForm(ctx, { grant_type: DEVICE_GRANT, client_id: web.id, client_secret: web.secret, device_code: 'x'.repeat(43) });
    assert.equal(poll.body.error, 'unauthorized_client');

    // A device-only app: no authorization code flow, no refresh tokens.
    const tvOnly = await createApp(ctx, { name: 'Device Only', is_public: true, grant_types: [DEVICE_GRANT] });
    const { challenge } = pkcePair();
    const authorize = await consent(ctx, user.token.access_token, { response_type: 'code', client_id: tvOnly.id, redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: challenge });
    assert.equal(authorize.status, 200, authorize.text);
    assert.equal(new URL(authorize.body.data.redirect_uri).searchParams.get('error'), 'unauthorized_client');
    assert.equal(authorize.body.data.code, undefined);
    const token = await person();
    const started = await client.start(tvOnly);
    await decide(started.user_code, true, token);
    const tokens = await client.poll(tvOnly, started.device_code);
    assert.ok(typeof tokens !== 'string' && tokens.refresh_token, 'offline_access was granted');
    const refresh = await postForm(ctx, { grant_type: 'refresh_token', client_id: tvOnly.id, refresh_token: tokens.refresh_token });
    assert.equal(refresh.body.error, 'unauthorized_client');
    // Nor at the interface's own refresh route.
    const viaSession = await ctx.api.post('/api/v4/session/token/refresh', { refresh_token: tokens.refresh_token });
    assert.equal(viaSession.status, 401);
  });

  it('admin API: grant_types are validated (unknown names and repeats are 400) and can be changed', async () => {
    for (const grant_types of [['implicit'], [], ['authorization_code', 'authorization_code'], ['client_credentials']]) {
      const res = await ctx.api.put('/api/v4/admin/oauthClient', { client: { name: 'Bad', icon: 'cloud', redirect_uris: [REDIRECT_URI], scopes: ['openid'], grant_types } }, { token: ctx.adminToken });
      assert.equal(res.status, 400, `${JSON.stringify(grant_types)}: ${res.text}`);
      assert.equal(res.body.code, 40001);
    }
    const app = await createApp(ctx, { name: 'Changing' });
    const res = await ctx.api.put<AppView & { grant_types: string[] }>(`/api/v4/admin/oauthClient/${app.id}`, { client: { grant_types: [DEVICE_GRANT] } }, { token: ctx.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.grant_types, [DEVICE_GRANT]);
    const started = await client.start(app);
    assert.match(started.user_code, USER_CODE);
  });

  it('RFC 8628 §5.1: 200 user-code guesses in parallel are throttled (429 with Retry-After); none succeeds, not even the right code sent last', async () => {
    const token = await person();
    const started = await client.start(tv);
    const right = started.user_code.replace('-', '');
    const letters = 'BCDFGHJKLMNPQRSTVWXZ';
    const wrong = (i: number) => {
      let code = '';
      for (let k = 0, x = i + 1; k < 8; k++, x = Math.floor(x / 20) + 7 * k) code += letters[x % 20];
      return code === right ? 'BBBBBBBB' : code;
    };
    const guesses = [...Array.from({ length: 199 }, (_, i) => wrong(i)), right];
    // The clock stands still during the burst, so no lock runs out in the middle of it.
    const answers = await Promise.all(guesses.map((g) => verify(g, token)));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 0, 'no guess finds the request');
    assert.ok(statuses.every((s) => s === 404 || s === 429), JSON.stringify([...new Set(statuses)]));
    // The throttle's bound (as for passwords): the free failures, and the one that locks.
    const checked = statuses.filter((s) => s === 404).length;
    assert.ok(checked >= 1 && checked <= ACCOUNT_POLICY.freeFailures + 1, `${checked} guesses were checked`);
    const limited = answers.find((a) => a.status === 429)!;
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await verify(right, token)).status, 429, 'still locked');
    assert.equal(await client.poll(tv, started.device_code), 'authorization_pending', 'nothing was approved');
    // The lock grows with the failures and ends: then the right code works again.
    clock.advance(Number(limited.headers.get('retry-after')) * 1000 + 1000);
    assert.equal((await verify(right, token)).status, 200);
  });

  it('bad input: a malformed user code is 400, a missing one 400, without a sign-in 401, with an OAuth app token 403', async () => {
    const token = await person();
    assert.equal((await verify('ABC', token)).status, 400);
    assert.equal((await verify('AEIOUAEI', token)).status, 400);
    assert.equal((await ctx.api.post('/api/v4/session/oauth/device/verify', {}, { token })).status, 400);
    assert.equal((await ctx.api.post('/api/v4/session/oauth/device/verify', { user_code: 'BCDF-GHJK' })).status, 401);
    const started = await client.start(tv);
    await decide(started.user_code, true, token);
    const tokens = await client.poll(tv, started.device_code);
    assert.ok(typeof tokens !== 'string');
    assert.equal((await verify('BCDF-GHJK', tokens.access_token)).status, 403);
  });

  describe('two instances on one database', () => {
    let second: BuiltApp;
    before(async () => {
      // As behind a load balancer: the same database (and the same clock).
      second = await buildApp({ ...ctx.server.config }, { logger: false, clock });
    });
    after(() => second.app.close());

    it('RFC 8628 §3.4: the request started on one instance is approved and polled on the other', async () => {
      const otherFetch = injectFetch(second.app, ctx.server.url);
      const clientB = rp(ctx.server.url, otherFetch);
      const apiB = new Api({ url: ctx.server.url, fetch: otherFetch });
      const token = await person();
      const started = await client.start(tv);
      assert.equal(await clientB.poll(tv, started.device_code), 'authorization_pending');
      assert.equal(await client.poll(tv, started.device_code), 'slow_down', 'the interval is shared');
      assert.equal((await decide(started.user_code, true, token, apiB)).status, 200);
      clock.advance(10_000);
      const tokens = await clientB.poll(tv, started.device_code);
      assert.ok(typeof tokens !== 'string', String(tokens));
      clock.advance(10_000);
      assert.equal(await client.poll(tv, started.device_code), 'invalid_grant');
    });
  });
});

describe('device authorization grant with openid-client', () => {
  let ctx: OAuthTestContext;
  before(async () => {
    ctx = await startOAuthServer({ transport: 'socket' });
  });
  after(() => ctx.server.close());

  it('RFC 8628 §3.4: initiateDeviceAuthorization and pollDeviceAuthorizationGrant get tokens once the person approves', async () => {
    const app = await createApp(ctx, { name: 'CLI Tool', grant_types: [DEVICE_GRANT, 'refresh_token'] });
    const user = await createUser(ctx.api, ctx.adminToken, 'device-oidc@example.com');
    const config = await oidc.discovery(new URL(ctx.server.url), app.id, app.secret, undefined, { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid UserInfo.Read' });
    const approve = ctx.api.post('/api/v4/session/oauth/device/consent', { user_code: started.user_code, approve: true }, { token: user.token.access_token });
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
    assert.equal((await approve).status, 200);
    assert.equal(tokens.claims()?.sub, user.user.id);
    assert.equal(tokens.refresh_token, undefined, 'no offline_access, no refresh token');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.user.id);
    assert.equal(info.sub, user.user.id);
  });
});
