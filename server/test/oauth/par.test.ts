// Pushed authorization requests (RFC 9126, api-contract §12), driven by
// oauth4webapi as a confidential web app would, and by the consent API the
// authorize page uses.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { ManualClock } from '../../src/core/clock.js';
import { createUser, type TokenPair } from '../helpers/client.js';
import type { Fetch } from '../helpers/inject.js';
import { consent, createApp, PAGE_MARKER, pkcePair, postForm, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const PAR_PATH = '/api/v4/session/oauth/par';

describe('pushed authorization requests (RFC 9126)', () => {
  const clock = new ManualClock({ at: Date.now() });
  let ctx: OAuthTestContext;
  let fetchImpl: Fetch;
  let as: oauth.AuthorizationServer;
  let app: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  const options = () => ({ [oauth.customFetch]: fetchImpl as typeof fetch, [oauth.allowInsecureRequests]: true });

  before(async () => {
    ctx = await startOAuthServer({ clock });
    fetchImpl = (ctx.server as unknown as { fetch: Fetch }).fetch;
    as = await oauth.processDiscoveryResponse(new URL(ctx.server.url), await oauth.discoveryRequest(new URL(ctx.server.url), { ...options(), algorithm: 'oidc' }));
    app = await createApp(ctx, { name: 'Pushy' });
    user = await createUser(ctx.api, ctx.adminToken, 'par@example.com');
  });
  after(() => ctx.server.close());

  const push = async (client: { id: string; secret: string }, params: Record<string, string>) => {
    const response = await oauth.pushedAuthorizationRequest(as, { client_id: client.id }, oauth.ClientSecretPost(client.secret), params, options());
    return oauth.processPushedAuthorizationResponse(as, { client_id: client.id }, response);
  };
  const standard = (extra: Record<string, string> = {}) => {
    const { verifier, challenge } = pkcePair();
    return { verifier, params: { response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid offline_access UserInfo.Read', state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-1', ...extra } };
  };
  const page = (query: Record<string, string>) => ctx.api.raw('GET', `/session/authorize?${new URLSearchParams(query)}`);

  it('RFC 9126 §5: discovery names the endpoint; PAR is not required site-wide', () => {
    assert.equal(as.pushed_authorization_request_endpoint, `${ctx.server.url}${PAR_PATH}`);
    assert.equal(as.require_pushed_authorization_requests, false);
  });

  it('RFC 9126 §2–4: oauth4webapi pushes the request, the page opens with client_id + request_uri, consent issues a code, the code exchanges', async () => {
    const { verifier, params } = standard();
    const pushed = await push(app, params);
    assert.match(pushed.request_uri, /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
    assert.equal(pushed.expires_in, 60);

    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', app.id);
    url.searchParams.set('request_uri', pushed.request_uri);
    const opened = await ctx.api.raw('GET', url.pathname + url.search);
    assert.equal(opened.status, 200);
    assert.match(opened.text, new RegExp(PAGE_MARKER));
    // What the page shows comes from the pushed parameters (and reading them does not spend the request_uri).
    const shown = await ctx.api.post<{ params: Record<string, string> }>('/api/v4/session/oauth/pushed', { client_id: app.id, request_uri: pushed.request_uri });
    assert.equal(shown.body.data.params.scope, params.scope);
    assert.equal(shown.body.data.params.redirect_uri, REDIRECT_URI);
    assert.equal(shown.body.data.params.client_secret, undefined, 'the client secret is not kept');

    const decided = await consent(ctx, user.token.access_token, { client_id: app.id, request_uri: pushed.request_uri });
    assert.equal(decided.status, 200, decided.text);
    const callback = new URL(decided.body.data.redirect_uri);
    assert.equal(callback.origin + callback.pathname, REDIRECT_URI);
    const validated = oauth.validateAuthResponse(as, { client_id: app.id }, callback, 'st-1');
    const response = await oauth.authorizationCodeGrantRequest(as, { client_id: app.id }, oauth.ClientSecretPost(app.secret), validated, REDIRECT_URI, verifier, options());
    const tokens = await oauth.processAuthorizationCodeResponse(as, { client_id: app.id }, response, { expectedNonce: 'n-1', requireIdToken: true });
    assert.equal(tokens.scope, params.scope);
    assert.ok(tokens.refresh_token);
  });

  it('RFC 9126 §4: a request_uri is single use: a second opening or decision is refused, without a redirect', async () => {
    const { params } = standard();
    const pushed = await push(app, params);
    assert.equal((await consent(ctx, user.token.access_token, { client_id: app.id, request_uri: pushed.request_uri })).status, 200);
    const again = await page({ client_id: app.id, request_uri: pushed.request_uri });
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('location'), null);
    const twice = await consent(ctx, user.token.access_token, { client_id: app.id, request_uri: pushed.request_uri });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.code, 40001);
    assert.equal((await ctx.api.post('/api/v4/session/oauth/pushed', { client_id: app.id, request_uri: pushed.request_uri })).status, 404);
  });

  it('RFC 9126 §4: a request_uri is bound to the client that pushed it', async () => {
    const other = await createApp(ctx, { name: 'Other' });
    const pushed = await push(app, standard().params);
    const opened = await page({ client_id: other.id, request_uri: pushed.request_uri });
    assert.equal(opened.status, 400);
    assert.equal(opened.headers.get('location'), null);
    assert.equal((await consent(ctx, user.token.access_token, { client_id: other.id, request_uri: pushed.request_uri })).status, 400);
    // Still unused for its own client.
    assert.equal((await page({ client_id: app.id, request_uri: pushed.request_uri })).status, 200);
  });

  it('RFC 9126 §2.2: a request_uri expires after expires_in (60 s)', async () => {
    const pushed = await push(app, standard().params);
    clock.advance(59_000);
    assert.equal((await page({ client_id: app.id, request_uri: pushed.request_uri })).status, 200);
    clock.advance(2_000);
    assert.equal((await page({ client_id: app.id, request_uri: pushed.request_uri })).status, 400);
    assert.equal((await consent(ctx, user.token.access_token, { client_id: app.id, request_uri: pushed.request_uri })).status, 400);
  });

  it('RFC 9126 §5: an app that requires PAR has plain authorization requests refused (an error redirect); pushed ones work', async () => {
    const strict = await createApp(ctx, { name: 'Strict', require_par: true });
    assert.equal((strict as unknown as { require_par: boolean }).require_par, true);
    const { challenge } = pkcePair();
    const plain = { response_type: 'code', client_id: strict.id, redirect_uri: REDIRECT_URI, scope: 'openid', state: 's', code_challenge: challenge };
    const opened = await page(plain);
    assert.equal(opened.status, 303);
    const location = new URL(opened.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('state'), 's');
    const viaConsent = await consent(ctx, user.token.access_token, plain);
    assert.equal(new URL(viaConsent.body.data.redirect_uri).searchParams.get('error'), 'invalid_request');
    assert.equal(viaConsent.body.data.code, undefined);
    const pushed = await push(strict, standard().params);
    const decided = await consent(ctx, user.token.access_token, { client_id: strict.id, request_uri: pushed.request_uri });
    assert.ok(decided.body.data.code, decided.text);
  });

  it('RFC 9126 §2.1, §2.3: the pushed parameters are checked when pushed (RFC 6749 §5.2 errors); client authentication is required', async () => {
    const form = (extra: Record<string, string>) => ({ client_id: app.id, client_secret: app.secret, ...standard().params, ...extra });
    const cases: [string, Record<string, string>, string][] = [
      ['unknown scope', { scope: 'Files.Delete' }, 'invalid_scope'],
      ['unregistered redirect_uri', { redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
      ['a request_uri inside the push', { request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'invalid_request'],
      ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ];
    for (const [why, extra, error] of cases) {
      const res = await postForm(ctx, form(extra), { path: PAR_PATH });
      assert.equal(res.status, 400, `${why}: ${res.text}`);
      assert.equal(res.body.error, error, why);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
    const wrong = await postForm(ctx, form({ client_secret: 'not-the-secret-at-all' }), { path: PAR_PATH });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const mismatch = await postForm(ctx, { ...standard().params, client_id: 'another-client' }, { path: PAR_PATH, basic: [app.id, app.secret] });
    assert.equal(mismatch.body.error, 'invalid_client');
    // A public client pushes with client_id alone, and must use PKCE.
    const native = await createApp(ctx, { name: 'Native', is_public: true });
    const noPkce = await postForm(ctx, { client_id: native.id, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid' }, { path: PAR_PATH });
    assert.equal(noPkce.body.error, 'invalid_request');
    const ok = await postForm(ctx, { client_id: native.id, ...standard().params }, { path: PAR_PATH });
    assert.equal(ok.status, 201, ok.text);
    // Malformed request_uri values at the page: 400, never a redirect.
    for (const bad of ['urn:ietf:params:oauth:request_uri:', 'https://evil.example/req', 'x'.repeat(300)]) {
      const res = await page({ client_id: app.id, request_uri: bad });
      assert.equal(res.status, 400, bad);
    }
  });
});
