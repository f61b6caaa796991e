// GET /session/authorize and the APIs the authorize page uses. Every rule is
// named after the section that sets it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, type TokenPair } from '../helpers/client.js';
import { consent, createApp, exchange, PAGE_MARKER, pkcePair, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

describe('authorization endpoint', () => {
  let ctx: OAuthTestContext;
  let app: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  const base = () => ({ response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: 'openid profile', state: 'xyz' });

  before(async () => {
    ctx = await startOAuthServer();
    app = await createApp(ctx);
    user = await createUser(ctx.api, ctx.adminToken, 'authz@example.com');
  });
  after(() => ctx.server.close());

  const open = (params: Record<string, string> | string) =>
    ctx.api.fetch(`/session/authorize?${typeof params === 'string' ? params : new URLSearchParams(params).toString()}`, { redirect: 'manual' });

  async function expectPageError(params: Record<string, string> | string, why: string): Promise<void> {
    const res = await open(params);
    assert.equal(res.status, 400, why);
    assert.equal(res.headers.get('location'), null, `${why}: never redirects`);
    assert.match(await res.text(), new RegExp(PAGE_MARKER), `${why}: the page shows the error`);
  }

  async function expectRedirectError(params: Record<string, string> | string, error: string, opts: { state?: string | null } = {}): Promise<URL> {
    const res = await open(params);
    assert.equal(res.status, 303);
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.origin + location.pathname, REDIRECT_URI);
    assert.equal(location.searchParams.get('error'), error);
    assert.ok(location.searchParams.get('error_description'));
    assert.equal(location.searchParams.get('iss'), ctx.server.url);
    assert.equal(location.searchParams.get('state'), opts.state === undefined ? 'xyz' : opts.state);
    assert.equal(location.searchParams.has('code'), false);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    return location;
  }

  it('serves the page for a valid request, unframeable, without referrer and with only its own resources', async () => {
    const res = await open(base());
    assert.equal(res.status, 200);
    assert.match(await res.text(), new RegExp(PAGE_MARKER));
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /script-src[^;]*(https?:|\*)/, 'no third-party scripts');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });

  it('RFC 6749 §4.1.2.1: a missing, unknown or disabled client_id shows an error and never redirects', async () => {
    const { client_id: _omit, ...noClient } = base();
    await expectPageError(noClient, 'missing client_id');
    await expectPageError({ ...base(), client_id: '00000000-0000-4000-8000-000000000000' }, 'unknown client_id');
    await expectPageError({ ...base(), client_id: 'x'.repeat(5000) }, 'absurd client_id');
    const disabled = await createApp(ctx, { name: 'Disabled', is_enabled: false });
    await expectPageError({ ...base(), client_id: disabled.id }, 'disabled app');
  });

  it('RFC 6749 §3.1.2.3: an unregistered or near-miss redirect_uri shows an error and never redirects', async () => {
    for (const [uri, why] of [
      ['https://evil.example/callback', 'unregistered'],
      [`${REDIRECT_URI}/`, 'trailing slash'],
      ['https://client.example/Callback', 'different case'],
      ['HTTPS://CLIENT.EXAMPLE/callback', 'different case of scheme and host'],
      [`${REDIRECT_URI}?extra=1`, 'extra query'],
      [`${REDIRECT_URI}#frag`, 'fragment'],
      ['https://client.example:443/callback', 'explicit default port'],
    ] as const) {
      await expectPageError({ ...base(), redirect_uri: uri }, why);
    }
    const { redirect_uri: _omit, ...noRedirect } = base();
    await expectPageError(noRedirect, 'missing redirect_uri');
  });

  it('RFC 6749 §3.1: a repeated client_id or redirect_uri is refused without a redirect', async () => {
    const q = new URLSearchParams(base());
    q.append('redirect_uri', 'https://evil.example/callback');
    await expectPageError(q.toString(), 'repeated redirect_uri');
    const q2 = new URLSearchParams(base());
    q2.append('client_id', app.id);
    await expectPageError(q2.toString(), 'repeated client_id');
  });

  it('RFC 8252 §7.3: a loopback redirect URI may use any port, nothing else may differ', async () => {
    const native = await createApp(ctx, { name: 'Loopback', redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]:8000/cb'] });
    const res = await open({ ...base(), client_id: native.id, redirect_uri: 'http://127.0.0.1:51234/cb' });
    assert.equal(res.status, 200);
    assert.equal((await open({ ...base(), client_id: native.id, redirect_uri: 'http://[::1]:9/cb' })).status, 200);
    await expectPageError({ ...base(), client_id: native.id, redirect_uri: 'http://127.0.0.1:51234/cb/other' }, 'other path');
    await expectPageError({ ...base(), client_id: native.id, redirect_uri: 'http://localhost:51234/cb' }, 'localhost is not the IP literal');
    await expectPageError({ ...base(), client_id: native.id, redirect_uri: 'http://127.0.0.1:99999/cb' }, 'port out of range');
  });

  it('RFC 8252 §7.3, §8.3: near-misses of a loopback redirect URI are refused, localhost gets no port freedom', async () => {
    const native = await createApp(ctx, { name: 'Loopback near-misses', redirect_uris: ['http://127.0.0.1/cb', 'http://[::1]/cb', 'http://localhost/cb', 'http://127.0.0.1:8080/q?app=1'] });
    const q = (redirect_uri: string) => ({ ...base(), client_id: native.id, redirect_uri });
    // §7.3: the port of an IP-literal loopback URI may be anything the app listens on.
    for (const ok of ['http://127.0.0.1:1/cb', 'http://127.0.0.1:65535/cb', 'http://[::1]:49152/cb', 'http://127.0.0.1/cb', 'http://127.0.0.1:1234/q?app=1']) {
      assert.equal((await open(q(ok))).status, 200, ok);
    }
    const refused: [string, string][] = [
      ['http://127.0.0.1:5000/cb/', 'a different path (trailing slash)'],
      ['http://127.0.0.1:5000/CB', 'a different path (case)'],
      ['http://127.0.0.1:5000/cb?x=1', 'a query the registration lacks'],
      ['http://127.0.0.1:1234/q?app=2', 'a different query'],
      ['http://127.0.0.1:5000/cb#frag', 'a fragment'],
      ['https://127.0.0.1:5000/cb', 'https is another URI (§7.3 is about http loopback)'],
      ['http://user@127.0.0.1:5000/cb', 'userinfo'],
      ['http://127.0.0.1:5000@evil.example/cb', 'userinfo that hides another host'],
      ['http://127.0.0.2:5000/cb', '127.0.0.2 is not the registered literal'],
      ['http://127.1:5000/cb', 'a short spelling of 127.0.0.1'],
      ['http://[0:0:0:0:0:0:0:1]:5000/cb', 'a long spelling of ::1'],
      ['http://127.0.0.1:0/cb', 'port 0'],
      ['http://127.0.0.1:65536/cb', 'port out of range'],
      ['http://127.0.0.1:/cb', 'an empty port'],
      ['HTTP://127.0.0.1:5000/cb', 'another spelling of the scheme'],
      // §8.3: localhost may resolve elsewhere; only its exact registration matches.
      ['http://localhost:5000/cb', 'localhost with another port'],
    ];
    for (const [uri, why] of refused) await expectPageError(q(uri), why);
    assert.equal((await open(q('http://localhost/cb'))).status, 200, 'localhost exactly as registered');
  });

  it('RFC 6749 §4.1.2.1: an unsupported response_type redirects with unsupported_response_type', async () => {
    await expectRedirectError({ ...base(), response_type: 'token' }, 'unsupported_response_type');
    const { response_type: _omit, ...none } = base();
    await expectRedirectError(none, 'invalid_request');
  });

  it('RFC 6749 §4.1.2.1: an unknown, unpermitted or missing scope redirects with invalid_scope', async () => {
    await expectRedirectError({ ...base(), scope: 'openid Nonsense.Read' }, 'invalid_scope');
    const narrow = await createApp(ctx, { name: 'Narrow', scopes: ['openid'] });
    await expectRedirectError({ ...base(), client_id: narrow.id, scope: 'openid Files.Write' }, 'invalid_scope');
    const { scope: _omit, ...noScope } = base();
    await expectRedirectError(noScope, 'invalid_scope');
  });

  it('RFC 7636 §4.3: code_challenge_method other than S256 (plain included) redirects with invalid_request', async () => {
    const { challenge } = pkcePair();
    await expectRedirectError({ ...base(), code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request');
    await expectRedirectError({ ...base(), code_challenge: challenge, code_challenge_method: 's256' }, 'invalid_request');
    await expectRedirectError({ ...base(), code_challenge_method: 'S256' }, 'invalid_request');
    await expectRedirectError({ ...base(), code_challenge: 'too-short' }, 'invalid_request');
    // A challenge without a method means S256.
    assert.equal((await open({ ...base(), code_challenge: challenge })).status, 200);
  });

  it('RFC 9700 §2.1.1: a public client without a code_challenge is refused with invalid_request', async () => {
    const pub = await createApp(ctx, { name: 'Public', is_public: true });
    await expectRedirectError({ ...base(), client_id: pub.id }, 'invalid_request');
    assert.equal((await open({ ...base(), client_id: pub.id, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })).status, 200);
  });

  it('RFC 6749 §3.1: a repeated parameter redirects with invalid_request', async () => {
    const q = new URLSearchParams(base());
    q.append('scope', 'openid');
    await expectRedirectError(q.toString(), 'invalid_request');
    const q2 = new URLSearchParams(base());
    q2.append('state', 'other');
    await expectRedirectError(q2.toString(), 'invalid_request', { state: null });
  });

  it('RFC 6749 §4.1.2: state over 4096 characters is refused and not echoed; state comes back unchanged only when sent', async () => {
    await expectRedirectError({ ...base(), state: 'a'.repeat(4097), response_type: 'token' }, 'invalid_request', { state: null });
    const odd = 'a b&c=d/é?+%';
    await expectRedirectError({ ...base(), state: odd, response_type: 'token' }, 'unsupported_response_type', { state: odd });
    const { state: _omit, ...noState } = base();
    await expectRedirectError({ ...noState, response_type: 'token' }, 'unsupported_response_type', { state: null });
  });

  it('RFC 6749 §3.1.2: a registered URI with a query keeps it when the response is added', async () => {
    const withQuery = await createApp(ctx, { name: 'Query', redirect_uris: ['https://q.example/cb?tenant=a%20b'] });
    const res = await open({ ...base(), client_id: withQuery.id, redirect_uri: 'https://q.example/cb?tenant=a%20b', response_type: 'token' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^https:\/\/q\.example\/cb\?tenant=a%20b&error=unsupported_response_type&/);
  });

  describe('consent API', () => {
    it('approves: {code, state, redirect_uri} with code, state and iss in the redirect', async () => {
      const res = await consent(ctx, user.token.access_token, base());
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.code, 0);
      const data = res.body.data;
      assert.equal(typeof data.code, 'string');
      assert.equal(data.state, 'xyz');
      const url = new URL(data.redirect_uri);
      assert.equal(url.origin + url.pathname, REDIRECT_URI);
      assert.equal(url.searchParams.get('code'), data.code);
      assert.equal(url.searchParams.get('state'), 'xyz');
      assert.equal(url.searchParams.get('iss'), ctx.server.url);
    });

    it('RFC 6749 §4.1.2.1: denial redirects with access_denied and the state', async () => {
      const res = await consent(ctx, user.token.access_token, { ...base(), approve: false });
      assert.equal(res.status, 200);
      const url = new URL(res.body.data.redirect_uri);
      assert.equal(url.searchParams.get('error'), 'access_denied');
      assert.equal(url.searchParams.get('state'), 'xyz');
      assert.equal(url.searchParams.get('iss'), ctx.server.url);
      assert.equal(res.body.data.code, undefined);
    });

    it('RFC 6749 §4.1.2.1: a bad client or redirect_uri is a 400 (40001) with no redirect URL', async () => {
      for (const body of [{ ...base(), client_id: 'nope' }, { ...base(), redirect_uri: 'https://evil.example/callback' }, { ...base(), redirect_uri: undefined }]) {
        const res = await consent(ctx, user.token.access_token, body);
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 40001);
        assert.equal(JSON.stringify(res.body.data ?? null).includes('evil'), false);
      }
    });

    it('RFC 6749 §4.1.2.1: other request errors come back as a redirect carrying the error (envelope code 0)', async () => {
      const res = await consent(ctx, user.token.access_token, { ...base(), scope: 'openid Bogus' });
      assert.equal(res.status, 200);
      assert.equal(res.body.code, 0);
      const url = new URL(res.body.data.redirect_uri);
      assert.equal(url.searchParams.get('error'), 'invalid_scope');
      assert.equal(res.body.data.code, undefined);
    });

    it('needs a signed-in user (401)', async () => {
      const res = await consent(ctx, '', base());
      assert.equal(res.status, 401);
    });

    it('OIDC Core §3.1.2.1: prompt=none answers consent_required until the scopes were granted, then approves', async () => {
      const fresh = await createApp(ctx, { name: 'Silent' });
      const body = { ...base(), client_id: fresh.id, prompt: 'none' };
      const first = await consent(ctx, user.token.access_token, body);
      assert.equal(new URL(first.body.data.redirect_uri).searchParams.get('error'), 'consent_required');
      assert.ok((await consent(ctx, user.token.access_token, { ...body, prompt: undefined })).body.data.code);
      assert.ok((await consent(ctx, user.token.access_token, body)).body.data.code, 'granted scopes are approved silently');
      const wider = await consent(ctx, user.token.access_token, { ...body, scope: 'openid profile email' });
      assert.equal(new URL(wider.body.data.redirect_uri).searchParams.get('error'), 'consent_required');
    });

    it('app info: the public fields, and consented_scopes that remember and extend the grant', async () => {
      const fresh = await createApp(ctx, { name: 'Remembered', homepage_url: 'https://remembered.example', description: 'Sync tool' });
      const anon = await ctx.api.get<Record<string, unknown>>(`/api/v4/session/oauth/app/${fresh.id}`);
      assert.equal(anon.status, 200);
      assert.deepEqual(Object.keys(anon.body.data).sort(), ['consented_scopes', 'description', 'homepage_url', 'icon', 'id', 'name', 'scopes']);
      assert.deepEqual(anon.body.data.consented_scopes, []);
      assert.equal(anon.body.data.homepage_url, 'https://remembered.example');
      await consent(ctx, user.token.access_token, { ...base(), client_id: fresh.id, scope: 'openid profile' });
      await consent(ctx, user.token.access_token, { ...base(), client_id: fresh.id, scope: 'email' });
      const mine = await ctx.api.get<{ consented_scopes: string[] }>(`/api/v4/session/oauth/app/${fresh.id}`, { token: user.token.access_token });
      assert.deepEqual(mine.body.data.consented_scopes.sort(), ['email', 'openid', 'profile']);
    });

    it('app info: 404 for an unknown or disabled app; 401 for a bad token (never silently anonymous)', async () => {
      assert.equal((await ctx.api.get('/api/v4/session/oauth/app/00000000-0000-4000-8000-000000000000')).status, 404);
      const disabled = await createApp(ctx, { name: 'Off', is_enabled: false });
      assert.equal((await ctx.api.get(`/api/v4/session/oauth/app/${disabled.id}`)).status, 404);
      assert.equal((await ctx.api.get(`/api/v4/session/oauth/app/${app.id}`, { token: 'garbage.token.value' })).status, 401);
    });

    it('the issued code works once at the token endpoint for the client it was issued to', async () => {
      const { verifier, challenge } = pkcePair();
      const res = await consent(ctx, user.token.access_token, { ...base(), code_challenge: challenge, code_challenge_method: 'S256' });
      const token = await exchange(ctx, app, res.body.data.code!, { code_verifier: verifier, redirect_uri: REDIRECT_URI });
      assert.equal(token.status, 200, token.text);
      assert.ok(token.body.access_token);
    });
  });
});
