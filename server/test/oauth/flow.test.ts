// The whole authorization code flow driven by openid-client v6, an
// independent, certified OAuth/OIDC client: if it accepts our discovery
// document, redirects, tokens and id_tokens, so will other clients.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import { approve, consent, createApp, eventually, PAGE_MARKER, pkcePair, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

describe('OAuth flow with openid-client', () => {
  let ctx: OAuthTestContext;
  let app: AppView & { secret: string };
  let user: { user: { id: string; email: string; nickname: string }; token: TokenPair };

  before(async () => {
    ctx = await startOAuthServer({ transport: 'socket' });
    app = await createApp(ctx);
    user = await createUser(ctx.api, ctx.adminToken, 'flow@example.com');
  });
  after(() => ctx.server.close());

  const discover = (auth?: oidc.ClientAuth, secret: string | undefined = app.secret) =>
    oidc.discovery(new URL(ctx.server.url), app.id, secret, auth, { execute: [oidc.allowInsecureRequests] });

  it('runs discovery, PKCE authorization, code exchange, id_token, userinfo, refresh, introspection and revocation', async () => {
    const config = await discover();
    assert.equal(config.serverMetadata().issuer, ctx.server.url);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const scope = 'openid profile email offline_access UserInfo.Read';
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    assert.equal(authUrl.origin + authUrl.pathname, `${ctx.server.url}/session/authorize`);

    // The browser opens the page: a valid request gets the web app with its protective headers.
    const page = await fetch(authUrl, { redirect: 'manual' });
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(PAGE_MARKER));
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');

    // The page approves through the consent API, then navigates to the redirect URI it returns.
    const res = await consent(ctx, user.token.access_token, Object.fromEntries(authUrl.searchParams));
    assert.equal(res.status, 200, res.text);
    const callback = new URL(res.body.data.redirect_uri);
    assert.equal(callback.searchParams.get('iss'), ctx.server.url);
    assert.equal(callback.searchParams.get('state'), state);

    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.scope, scope);
    assert.ok(tokens.refresh_token, 'offline_access yields a refresh token');
    assert.ok((tokens.expires_in ?? 0) > 0);
    assert.ok(Number(tokens.refresh_token_expires_in) > Number(tokens.expires_in));
    const idClaims = tokens.claims();
    assert.ok(idClaims);
    assert.equal(idClaims.sub, user.user.id);
    assert.equal(idClaims.aud, app.id);
    assert.equal(idClaims.nonce, nonce);
    assert.equal(typeof idClaims.auth_time, 'number');
    // openid-client trusts an id_token from the token endpoint without checking its signature; check it against the JWKS.
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: ctx.server.url, audience: app.id, algorithms: ['ES256'] });
    assert.equal(verified.payload.sub, user.user.id);
    assert.ok(decodeProtectedHeader(tokens.id_token!).kid);
    const access = decodeJwt(tokens.access_token);
    assert.equal(access.client_id, app.id);
    assert.deepEqual(access.scopes, scope.split(' '));

    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.user.id);
    assert.equal(info.email, 'flow@example.com');
    assert.equal(info.name, user.user.nickname);
    const me = await ctx.api.get<{ id: string }>('/api/v4/user/me', { token: tokens.access_token });
    assert.equal(me.body.data.id, user.user.id, 'UserInfo.Read opens GET /api/v4/user/me');

    // Refresh at the token endpoint, then at the interface's refresh route with the rotated token.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.ok(refreshed.refresh_token && refreshed.refresh_token !== tokens.refresh_token);
    assert.equal(refreshed.scope, scope);
    const viaSession = await ctx.api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: refreshed.refresh_token });
    assert.equal(viaSession.status, 200, viaSession.text);
    const pair = viaSession.body.data;
    assert.equal(decodeJwt(pair.access_token).client_id, app.id, 'the rotated pair stays an OAuth pair');
    assert.deepEqual(decodeJwt(pair.access_token).scopes, scope.split(' '));

    const introspected = await oidc.tokenIntrospection(config, pair.access_token);
    assert.equal(introspected.active, true);
    assert.equal(introspected.client_id, app.id);
    assert.equal(introspected.sub, user.user.id);
    assert.equal(introspected.scope, scope);
    assert.equal((await oidc.tokenIntrospection(config, pair.refresh_token)).active, true);
    assert.equal((await oidc.tokenIntrospection(config, refreshed.refresh_token)).active, false, 'a rotated refresh token is no longer active');

    await oidc.tokenRevocation(config, pair.refresh_token);
    await assert.rejects(oidc.refreshTokenGrant(config, pair.refresh_token), (err: Error & { error?: string }) => err.error === 'invalid_grant');
    assert.equal((await oidc.tokenIntrospection(config, pair.refresh_token)).active, false);
    assert.ok(await eventually(async () => (await ctx.api.get('/api/v4/user/me', { token: pair.access_token })).status === 401), 'revocation reaches the access token within 5 s');
    assert.equal((await oidc.tokenIntrospection(config, pair.access_token)).active, false);
  });

  it('RFC 8414 §3 / OIDC Discovery §4: both metadata documents describe what is served; the JWKS holds only a public key', async () => {
    const oidcDoc = (await ctx.api.raw('GET', '/.well-known/openid-configuration')).body as Record<string, unknown>;
    const asDoc = (await ctx.api.raw('GET', '/.well-known/oauth-authorization-server')).body as Record<string, unknown>;
    assert.deepEqual(asDoc, oidcDoc);
    assert.equal(oidcDoc.issuer, ctx.server.url);
    assert.equal(oidcDoc.authorization_endpoint, `${ctx.server.url}/session/authorize`);
    assert.equal(oidcDoc.token_endpoint, `${ctx.server.url}/api/v4/session/oauth/token`);
    assert.equal(oidcDoc.authorization_response_iss_parameter_supported, true);
    assert.deepEqual(oidcDoc.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(oidcDoc.response_types_supported, ['code']);
    assert.deepEqual(oidcDoc.grant_types_supported, ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']);
    assert.equal((oidcDoc.scopes_supported as string[]).length, 20);
    for (const key of ['userinfo_endpoint', 'jwks_uri', 'revocation_endpoint', 'introspection_endpoint', 'device_authorization_endpoint'] as const) {
      const res = await fetch(oidcDoc[key] as string, { method: key === 'jwks_uri' ? 'GET' : 'POST' });
      assert.notEqual(res.status, 404, `${key} is served`);
    }
    const jwks = (await ctx.api.raw('GET', '/api/v4/session/oauth/jwks')).body as { keys: Array<Record<string, unknown>> };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0]!.alg, 'ES256');
    assert.equal(jwks.keys[0]!.d, undefined, 'no private part');
    const stored = await ctx.server.built.services.db.selectFrom('settings').select('value').where('name', '=', 'oauth_id_token_key').executeTakeFirstOrThrow();
    const privateD = (JSON.parse(stored.value) as { d: string }).d;
    const admin = await ctx.api.get('/api/v4/admin/settings', { token: ctx.adminToken });
    assert.equal(admin.text.includes(privateD), false, 'the admin settings API does not show the signing key');
  });

  it('authenticates with client_secret_basic', async () => {
    const config = await discover(oidc.ClientSecretBasic(app.secret));
    const { verifier, challenge } = pkcePair();
    const code = await approve(ctx, user.token.access_token, app, { scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', state: 'basic-state' });
    const callback = new URL(`${REDIRECT_URI}?code=${code}&state=basic-state&iss=${encodeURIComponent(ctx.server.url)}`);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'basic-state', idTokenExpected: true });
    assert.equal(tokens.claims()?.sub, user.user.id);
    assert.equal(tokens.refresh_token, undefined, 'no offline_access, no refresh token');
  });

  it('serves a public client that uses PKCE and no secret', async () => {
    const publicApp = await createApp(ctx, { name: 'Native App', is_public: true, redirect_uris: ['http://127.0.0.1/callback'], scopes: ['openid', 'offline_access'] });
    assert.equal(publicApp.secret, undefined, 'public clients have no secret');
    const config = await oidc.discovery(new URL(ctx.server.url), publicApp.id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const { verifier, challenge } = pkcePair();
    // RFC 8252 §7.3: a loopback redirect may use any port.
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const res = await consent(ctx, user.token.access_token, {
      response_type: 'code',
      client_id: publicApp.id,
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    assert.equal(res.status, 200, res.text);
    const callback = new URL(res.body.data.redirect_uri);
    assert.equal(callback.origin + callback.pathname, redirectUri);
    assert.equal(callback.searchParams.has('state'), false, 'state comes back only when sent');
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: oidc.skipStateCheck, idTokenExpected: true }, { redirect_uri: redirectUri });
    assert.ok(tokens.refresh_token);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
    assert.ok(refreshed.access_token);
  });
});
