// The token endpoint's rules, each as its own failing case named after its
// section, plus revocation (RFC 7009) and introspection (RFC 7662) edges.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { CODE_TTL_MS } from '../../src/oauth/consent.js';
import { REUSE_GRACE_MS } from '../../src/sessions/service.js';
import { approve, createApp, eventually, exchange, pkcePair, postForm, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

describe('token endpoint', () => {
  let ctx: OAuthTestContext;
  let app: AppView & { secret: string };
  let other: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  let userToken: string;
  // Runs with real time; the expiry cases move it forward instead of rewriting rows or waiting.
  const clock = new ManualClock();

  before(async () => {
    ctx = await startOAuthServer({ clock });
    app = await createApp(ctx);
    other = await createApp(ctx, { name: 'Other App' });
    user = await createUser(ctx.api, ctx.adminToken, 'token@example.com');
    userToken = user.token.access_token;
  });
  after(() => ctx.server.close());

  function assertError(res: { status: number; body: { error?: string; error_description?: string }; headers: Headers }, status: number, error: string): void {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.error, error);
    assert.equal(typeof res.body.error_description, 'string');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
  }

  const accessWorks = async (token: string) => (await ctx.api.get('/api/v4/user/me', { token })).status === 200;

  it('RFC 6749 §5.1: a successful response is JSON with no-store, Bearer, lifetimes and scope; no refresh token without offline_access', async () => {
    const code = await approve(ctx, userToken, app, { scope: 'openid UserInfo.Read' });
    const res = await exchange(ctx, app, code);
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, 'openid UserInfo.Read');
    assert.equal(res.body.refresh_token, undefined, 'api-contract §5: refresh_token only with offline_access');
    assert.ok(res.body.id_token);
    assert.ok(await accessWorks(res.body.access_token!));
  });

  it('RFC 6749 §5.2: a wrong client_secret (client_secret_post) is 401 invalid_client', async () => {
    const code = await approve(ctx, userToken, app);
    assertError(await exchange(ctx, { id: app.id, secret: `${app.secret}x` }, code), 401, 'invalid_client');
    assertError(await exchange(ctx, { id: app.id }, code), 401, 'invalid_client');
    // The code was not spent by the failed attempts.
    assert.equal((await exchange(ctx, app, code)).status, 200);
  });

  it('RFC 6749 §5.2: a wrong secret with client_secret_basic is 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const code = await approve(ctx, userToken, app);
    const res = await postForm(ctx, { grant_type: 'authorization_code', code }, { basic: [app.id, 'wrong-secret-value'] });
    assertError(res, 401, 'invalid_client');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    const ok = await postForm(ctx, { grant_type: 'authorization_code', code }, { basic: [app.id, app.secret] });
    assert.equal(ok.status, 200, ok.text);
  });

  it('RFC 6749 §2.3: using two client authentication methods at once is invalid_request', async () => {
    const code = await approve(ctx, userToken, app);
    const res = await postForm(ctx, { grant_type: 'authorization_code', code, client_secret: app.secret }, { basic: [app.id, app.secret] });
    assertError(res, 400, 'invalid_request');
  });

  it('RFC 6749 §5.2: an unknown client is 401 invalid_client', async () => {
    assertError(await exchange(ctx, { id: '00000000-0000-4000-8000-000000000000', secret: app.secret }, 'whatever'), 401, 'invalid_client');
    assertError(await postForm(ctx, { grant_type: 'authorization_code', code: 'x' }), 401, 'invalid_client');
  });

  it('RFC 6749 §5.2: a disabled app is 401 invalid_client', async () => {
    const soon = await createApp(ctx, { name: 'Soon Disabled' });
    const code = await approve(ctx, userToken, soon);
    const upd = await ctx.api.put(`/api/v4/admin/oauthClient/${soon.id}`, { client: { is_enabled: false } }, { token: ctx.adminToken });
    assert.equal(upd.status, 200, upd.text);
    assertError(await exchange(ctx, soon, code), 401, 'invalid_client');
  });

  it('RFC 6749 §4.1.2: a reused code is invalid_grant and revokes the tokens it issued', async () => {
    const code = await approve(ctx, userToken, app);
    const first = await exchange(ctx, app, code);
    assert.equal(first.status, 200);
    assert.ok(await accessWorks(first.body.access_token!));
    assertError(await exchange(ctx, app, code), 400, 'invalid_grant');
    const refresh = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: app.id, client_secret: app.secret });
    assertError(refresh, 400, 'invalid_grant');
    assert.ok(await eventually(async () => !(await accessWorks(first.body.access_token!))), 'the access token dies within 5 s');
  });

  it('RFC 6749 §4.1.2: an expired code is invalid_grant', async () => {
    const early = await approve(ctx, userToken, app);
    const late = await approve(ctx, userToken, app);
    // Five minutes pass on the server's clock rather than on the test's.
    clock.advance(CODE_TTL_MS - 2_000);
    assert.equal((await exchange(ctx, app, early)).status, 200, 'a code is good until its lifetime ends');
    clock.advance(4_000);
    assertError(await exchange(ctx, app, late), 400, 'invalid_grant');
  });

  it('RFC 6749 §4.1.3: a code issued to another client is invalid_grant', async () => {
    const code = await approve(ctx, userToken, app);
    assertError(await exchange(ctx, other, code), 400, 'invalid_grant');
    assertError(await exchange(ctx, app, 'not-a-real-code'), 400, 'invalid_grant');
  });

  it('RFC 6749 §4.1.3: a redirect_uri that differs from the authorization request is invalid_grant', async () => {
    const code = await approve(ctx, userToken, app);
    assertError(await exchange(ctx, app, code, { redirect_uri: `${REDIRECT_URI}/` }), 400, 'invalid_grant');
    assert.equal((await exchange(ctx, app, code, { redirect_uri: REDIRECT_URI })).status, 200);
  });

  it('RFC 8252 §7.3 with RFC 6749 §4.1.3: a loopback redirect on any port exchanges with that same URI, not another port', async () => {
    const native = await createApp(ctx, { name: 'Native', redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]/cb'] });
    for (const uri of ['http://127.0.0.1:51234/cb', 'http://[::1]:8000/cb']) {
      const code = await approve(ctx, userToken, native, { redirect_uri: uri });
      const otherPort = uri.replace(/:(\d+)\/cb$/, (_m, p: string) => `:${Number(p) + 1}/cb`);
      assertError(await exchange(ctx, native, code, { redirect_uri: otherPort }), 400, 'invalid_grant');
      assertError(await exchange(ctx, native, code, { redirect_uri: uri.replace(/:\d+\/cb$/, '/cb') }), 400, 'invalid_grant');
      const res = await exchange(ctx, native, code, { redirect_uri: uri });
      assert.equal(res.status, 200, `${uri}: ${res.text}`);
    }
  });

  it('RFC 7636 §4.6: a missing code_verifier is invalid_grant', async () => {
    const { challenge } = pkcePair();
    const code = await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    assertError(await exchange(ctx, app, code), 400, 'invalid_grant');
  });

  it('RFC 7636 §4.6: a wrong code_verifier is invalid_grant', async () => {
    const { challenge } = pkcePair();
    const code = await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    assertError(await exchange(ctx, app, code, { code_verifier: pkcePair().verifier }), 400, 'invalid_grant');
  });

  it('RFC 7636 §4.6: a refused exchange (wrong verifier, missing verifier, other client) spends nothing; the right one then succeeds once', async () => {
    const { challenge, verifier } = pkcePair();
    const code = await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    assertError(await exchange(ctx, app, code, { code_verifier: pkcePair().verifier }), 400, 'invalid_grant');
    assertError(await exchange(ctx, app, code), 400, 'invalid_grant');
    assertError(await exchange(ctx, other, code, { code_verifier: verifier }), 400, 'invalid_grant');
    const res = await exchange(ctx, app, code, { code_verifier: verifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertError(await exchange(ctx, app, code, { code_verifier: verifier }), 400, 'invalid_grant');
    assert.ok(await eventually(async () => !(await accessWorks(res.body.access_token!))), 'the replay revoked what the code issued');
  });

  it('RFC 7636 §4.1: a malformed code_verifier (length or alphabet) is invalid_grant', async () => {
    // The challenge of a 42-character verifier: only the length rule can refuse it.
    const short = 'a'.repeat(42);
    const { s256 } = await import('../../src/oauth/pkce.js');
    const code = await approve(ctx, userToken, app, { code_challenge: s256(short) });
    assertError(await exchange(ctx, app, code, { code_verifier: short }), 400, 'invalid_grant');
    const bad = `${'a'.repeat(50)}!`;
    const code2 = await approve(ctx, userToken, app, { code_challenge: s256(bad) });
    assertError(await exchange(ctx, app, code2, { code_verifier: bad }), 400, 'invalid_grant');
    const long = 'a'.repeat(129);
    const code3 = await approve(ctx, userToken, app, { code_challenge: s256(long) });
    assertError(await exchange(ctx, app, code3, { code_verifier: long }), 400, 'invalid_grant');
  });

  it('RFC 9700 §4.8.2: a code_verifier for a code issued without a challenge is invalid_grant (downgrade)', async () => {
    const code = await approve(ctx, userToken, app);
    assertError(await exchange(ctx, app, code, { code_verifier: pkcePair().verifier }), 400, 'invalid_grant');
  });

  it('RFC 6749 §3.2: a repeated parameter is invalid_request', async () => {
    const code = await approve(ctx, userToken, app);
    const raw = new URLSearchParams({ grant_type: 'authorization_code', code, client_id: app.id, client_secret: app.secret });
    raw.append('code', code);
    assertError(await postForm(ctx, {}, { raw: raw.toString() }), 400, 'invalid_request');
  });

  it('RFC 6749 §3.2: only application/x-www-form-urlencoded is accepted', async () => {
    const res = await ctx.api.raw('POST', '/api/v4/session/oauth/token', { json: { grant_type: 'authorization_code', client_id: app.id, client_secret: app.secret, code: 'x' } });
    assertError(res as never, 400, 'invalid_request');
    assertError((await ctx.api.raw('POST', '/api/v4/session/oauth/token', { body: 'grant_type=x', headers: { 'content-type': 'text/plain' } })) as never, 400, 'invalid_request');
  });

  it('RFC 6749 §5.2: a missing grant_type is invalid_request, an unknown one unsupported_grant_type', async () => {
    assertError(await postForm(ctx, { client_id: app.id, client_secret: app.secret }), 400, 'invalid_request');
    assertError(await postForm(ctx, { grant_type: 'password', client_id: app.id, client_secret: app.secret }), 400, 'unsupported_grant_type');
    assertError(await postForm(ctx, { grant_type: 'constructor', client_id: app.id, client_secret: app.secret }), 400, 'unsupported_grant_type');
  });

  it('RFC 6749 §2.3.1: malformed client credentials and hostile bodies get RFC errors, never a 500', async () => {
    const post = async (body: string, authorization?: string) =>
      (await ctx.api.raw('POST', '/api/v4/session/oauth/token', { body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) } })) as Awaited<ReturnType<typeof postForm>>;
    const form = 'grant_type=authorization_code&code=x';
    for (const header of ['Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Basic ${Buffer.from('%zz:%zz').toString('base64')}`, 'Bearer abc']) {
      assertError(await post(form, header), 401, 'invalid_client');
    }
    assertError(await postForm(ctx, {}, { raw: `a=${'x'.repeat(70_000)}` }), 400, 'invalid_request');
    assertError(await post(''), 400, 'invalid_request');
    assertError(await exchange(ctx, app, 'a'.repeat(10_000)), 400, 'invalid_grant');
    // NUL is refused before the grant is looked at: a malformed request (§5.2), not an unknown code.
    assertError(await exchange(ctx, app, 'a\u0000b'), 400, 'invalid_request');
  });

  describe('refresh_token grant', () => {
    async function offlineTokens(client = app) {
      const code = await approve(ctx, userToken, client, { scope: 'openid offline_access UserInfo.Read' });
      const res = await exchange(ctx, client, code);
      assert.equal(res.status, 200);
      return res.body as Required<Pick<typeof res.body, 'access_token' | 'refresh_token'>>;
    }
    const refresh = (client: { id: string; secret: string }, token: string, extra: Record<string, string> = {}) =>
      postForm(ctx, { grant_type: 'refresh_token', refresh_token: token, client_id: client.id, client_secret: client.secret, ...extra });

    it('RFC 6749 §6: rotates the refresh token and keeps the scope', async () => {
      const t = await offlineTokens();
      const res = await refresh(app, t.refresh_token);
      assert.equal(res.status, 200, res.text);
      assert.notEqual(res.body.refresh_token, t.refresh_token);
      assert.equal(res.body.scope, 'openid offline_access UserInfo.Read');
      assert.ok(Number(res.body.refresh_token_expires_in) > 80 * 86400);
    });

    it('RFC 6749 §6: a refresh token of another client, or a first-party one, is invalid_grant', async () => {
      const t = await offlineTokens();
      assertError(await refresh(other, t.refresh_token), 400, 'invalid_grant');
      assertError(await refresh(app, user.token.refresh_token), 400, 'invalid_grant');
      assertError(await refresh(app, 'garbage'), 400, 'invalid_grant');
      assert.equal((await refresh(app, t.refresh_token)).status, 200, 'the failed attempts did not spend it');
    });

    it('RFC 6749 §6: a narrower scope narrows the access token; a wider one is invalid_scope and spends nothing', async () => {
      const t = await offlineTokens();
      assertError(await refresh(app, t.refresh_token, { scope: 'openid Files.Read' }), 400, 'invalid_scope');
      const res = await refresh(app, t.refresh_token, { scope: 'openid' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.scope, 'openid');
      assert.deepEqual(decodeJwt(res.body.access_token!).scopes, ['openid']);
      assert.equal((await ctx.api.get('/api/v4/user/me', { token: res.body.access_token })).status, 403);
      const again = await refresh(app, res.body.refresh_token!);
      assert.equal(again.body.scope, 'openid offline_access UserInfo.Read', 'the refresh token keeps the original grant');
    });

    it('RFC 9700 §4.14.2: reuse of a rotated refresh token after the grace window revokes the family', async () => {
      const t = await offlineTokens();
      const next = await refresh(app, t.refresh_token);
      assert.equal(next.status, 200);
      // Past the grace window of that rotation, without waiting.
      clock.advance(REUSE_GRACE_MS + 1000);
      assertError(await refresh(app, t.refresh_token), 400, 'invalid_grant');
      assertError(await refresh(app, next.body.refresh_token!), 400, 'invalid_grant');
      assert.ok(await eventually(async () => !(await accessWorks(next.body.access_token!))));
    });

    it('OAuth refresh tokens follow the same rotation at /api/v4/session/token/refresh', async () => {
      const t = await offlineTokens();
      const res = await ctx.api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: t.refresh_token });
      assert.equal(res.status, 200);
      assert.equal(decodeJwt(res.body.data.access_token).client_id, app.id);
      // Past the grace window of that rotation, without waiting.
      clock.advance(REUSE_GRACE_MS + 1000);
      assertError(await refresh(app, t.refresh_token), 400, 'invalid_grant');
      const after = await ctx.api.post('/api/v4/session/token/refresh', { refresh_token: res.body.data.refresh_token });
      assert.equal(after.status, 401, 'reuse revoked the family the other route rotated');
    });
  });

  describe('revocation and introspection', () => {
    it('RFC 7009 §2.2: an invalid or unknown token is answered 200', async () => {
      const res = await postForm(ctx, { token: 'not-a-token', client_id: app.id, client_secret: app.secret }, { path: '/api/v4/session/oauth/revoke' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });

    it('RFC 7009 §2.1: a token issued to another client is refused and stays valid', async () => {
      const code = await approve(ctx, userToken, app);
      const t = await exchange(ctx, app, code);
      const res = await postForm(ctx, { token: t.body.access_token!, client_id: other.id, client_secret: other.secret }, { path: '/api/v4/session/oauth/revoke' });
      assertError(res, 400, 'invalid_request');
      assert.ok(await accessWorks(t.body.access_token!));
    });

    it('RFC 7009 §2.1: revocation needs client authentication', async () => {
      assertError(await postForm(ctx, { token: 'x', client_id: app.id, client_secret: 'wrong-secret-0000' }, { path: '/api/v4/session/oauth/revoke' }), 401, 'invalid_client');
    });

    it('RFC 7662 §2.2: tokens of other clients, first-party tokens and garbage are inactive', async () => {
      const code = await approve(ctx, userToken, app);
      const t = await exchange(ctx, app, code);
      const ask = async (client: { id: string; secret: string }, token: string) =>
        (await postForm(ctx, { token, client_id: client.id, client_secret: client.secret }, { path: '/api/v4/session/oauth/introspect' })).body;
      assert.equal((await ask(app, t.body.access_token!)).active, true);
      assert.deepEqual(await ask(other, t.body.access_token!), { active: false });
      assert.deepEqual(await ask(app, userToken), { active: false });
      assert.deepEqual(await ask(app, 'garbage'), { active: false });
      assertError(await postForm(ctx, { client_id: app.id, client_secret: app.secret }, { path: '/api/v4/session/oauth/introspect' }), 400, 'invalid_request');
    });
  });

  it('client authentication is rate limited per client and address: 429 with Retry-After', async () => {
    const target = await createApp(ctx, { name: 'Guessed' });
    let last: Awaited<ReturnType<typeof postForm>> | undefined;
    for (let i = 0; i < 8; i++) {
      last = await postForm(ctx, { grant_type: 'authorization_code', code: 'x', client_id: target.id, client_secret: `wrong-secret-${i}-xxxx` });
      if (last.status === 429) break;
    }
    assert.equal(last!.status, 429);
    assert.equal(last!.body.error, 'temporarily_unavailable');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    // The right secret is refused too while locked: the lock is checked before the secret.
    const locked = await postForm(ctx, { grant_type: 'authorization_code', code: 'x', client_id: target.id, client_secret: target.secret });
    assert.equal(locked.status, 429);
    // Another client from the same address is not locked out by it.
    const code = await approve(ctx, userToken, app);
    assert.equal((await exchange(ctx, app, code)).status, 200);
  });
});
