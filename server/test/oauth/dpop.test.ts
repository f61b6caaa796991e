// DPoP (RFC 9449, api-contract §12) driven by oauth4webapi and openid-client,
// unmodified, as a confidential and a public app would use them; and the
// attacks of issue 24, each with proofs made by hand so that exactly one
// thing is wrong in each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { ManualClock } from '../../src/core/clock.js';
import { createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import type { Fetch } from '../helpers/inject.js';
import { b64, HandKey, sha256 } from './dpop-keys.js';
import { consent, createApp, pkcePair, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const TOKEN_PATH = '/api/v4/session/oauth/token';
const USERINFO_PATH = '/api/v4/session/oauth/userinfo';
const INTROSPECT_PATH = '/api/v4/session/oauth/introspect';
const SCOPE = 'openid offline_access UserInfo.Read Files.Read';

describe('DPoP (RFC 9449)', () => {
  const clock = new ManualClock();
  let ctx: OAuthTestContext;
  let fetchImpl: Fetch;
  let as: oauth.AuthorizationServer;
  let confidential: AppView & { secret: string };
  let publicApp: AppView;
  let strict: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  const options = () => ({ [oauth.customFetch]: fetchImpl as typeof fetch, [oauth.allowInsecureRequests]: true });
  const url = (path: string) => new URL(`${ctx.server.url}${path}`);

  before(async () => {
    ctx = await startOAuthServer({ clock });
    fetchImpl = (ctx.server as unknown as { fetch: Fetch }).fetch;
    as = await oauth.processDiscoveryResponse(new URL(ctx.server.url), await oauth.discoveryRequest(new URL(ctx.server.url), { ...options(), algorithm: 'oidc' }));
    confidential = await createApp(ctx, { name: 'Sender Constrained' });
    publicApp = await createApp(ctx, { name: 'Phone App', is_public: true });
    strict = await createApp(ctx, { name: 'Strict', require_dpop: true });
    user = await createUser(ctx.api, ctx.adminToken, 'dpop@example.com');
  });
  after(() => ctx.server.close());

  /** The consent step as the authorize page does it; returns the callback URL and the PKCE verifier. */
  async function authorize(app: { id: string }): Promise<{ callback: URL; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const res = await consent(ctx, user.token.access_token, { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: SCOPE, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(res.status, 200, res.text);
    return { callback: new URL(res.body.data.redirect_uri), verifier };
  }

  /** A code exchange with a hand-made proof (or none); the raw answer. */
  async function handExchange(app: { id: string; secret?: string }, proof: string | undefined) {
    const { callback, verifier } = await authorize(app);
    const form: Record<string, string> = { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: app.id };
    if (app.secret) form.client_secret = app.secret;
    return ctx.api.raw('POST', TOKEN_PATH, { form, headers: proof === undefined ? {} : { dpop: proof } }) as Promise<{ status: number; headers: Headers; body: Record<string, string> }>;
  }

  const tokenProof = (key: HandKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) => key.proof({ htm: 'POST', htu: `${ctx.server.url}${TOKEN_PATH}`, ...claims }, header);

  /** A confidential app's tokens bound to `key` (a hand-made proof at the token endpoint). */
  async function boundTokens(key: HandKey, app: { id: string; secret?: string } = confidential): Promise<{ access_token: string; refresh_token: string }> {
    const res = await handExchange(app, tokenProof(key));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as unknown as { access_token: string; refresh_token: string };
  }

  const resource = (token: string, proof: string | undefined, opts: { method?: string; path?: string; scheme?: string } = {}) =>
    ctx.api.raw(opts.method ?? 'GET', opts.path ?? USERINFO_PATH, { headers: { authorization: `${opts.scheme ?? 'DPoP'} ${token}`, ...(proof === undefined ? {} : { dpop: proof }) } });
  const resourceProof = (key: HandKey, token: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    key.proof({ htm: 'GET', htu: `${ctx.server.url}${USERINFO_PATH}`, ath: sha256(token), ...claims }, header);

  /** RFC 9449 §7.1: 401 with a DPoP challenge naming the error and the algorithms. */
  function assertDpopRefusal(res: { status: number; headers: Headers }, error: 'invalid_token' | 'invalid_dpop_proof') {
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, new RegExp(`^DPoP error="${error}"`));
    assert.match(challenge, /algs="ES256 EdDSA Ed25519"/);
  }

  it('RFC 9449 §5.1: discovery lists dpop_signing_alg_values_supported', () => {
    assert.deepEqual(as.dpop_signing_alg_values_supported, ['ES256', 'EdDSA', 'Ed25519']);
  });

  it('RFC 9449 §5, §6.1, §7: oauth4webapi (confidential, ES256) exchanges a code, calls userinfo and WebDAV, introspects; refresh is not bound for a confidential client', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const client = { client_id: confidential.id };
    const auth = oauth.ClientSecretPost(confidential.secret);
    const { callback, verifier } = await authorize(confidential);
    const params = oauth.validateAuthResponse(as, client, callback, 'st');
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT_URI, verifier, { ...options(), DPoP: dpop });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    assert.equal(tokens.token_type, 'dpop');
    const jkt = await dpop.calculateThumbprint();
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
    assert.equal(decodeJwt(tokens.refresh_token!).cnf, undefined, 'RFC 9449 §5: a confidential client\'s refresh token is not bound');

    const info = await oauth.userInfoRequest(as, client, tokens.access_token, { ...options(), DPoP: dpop });
    assert.equal((await oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, info)).sub, user.user.id);

    const dav = await oauth.protectedResourceRequest(tokens.access_token, 'PROPFIND', url('/dav/'), new Headers({ depth: '0' }), null, { ...options(), DPoP: dpop } as unknown as oauth.ProtectedResourceRequestOptions);
    assert.equal(dav.status, 207);

    const introspected = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, tokens.access_token, options()));
    assert.equal(introspected.active, true);
    assert.deepEqual(introspected.cnf, { jkt });
    assert.equal(introspected.token_type, 'DPoP');

    // A refresh with another key works (the refresh token is the client's, bound by its secret); the new access token follows the new key.
    const other = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, { ...options(), DPoP: other }));
    assert.deepEqual(decodeJwt(refreshed.access_token).cnf, { jkt: await other.calculateThumbprint() });
  });

  it('RFC 9449 §5: openid-client (public app, Ed25519) gets a bound refresh token; every rotation needs a proof of the same key', async () => {
    const config = await oidc.discovery(new URL(ctx.server.url), publicApp.id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: fetchImpl as unknown as oidc.CustomFetch });
    const keyPair = await oidc.randomDPoPKeyPair('EdDSA');
    const dpop = oidc.getDPoPHandle(config, keyPair);
    const { callback, verifier } = await authorize(publicApp);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'st' }, undefined, { DPoP: dpop });
    assert.equal(tokens.token_type, 'dpop');
    const jkt = await dpop.calculateThumbprint();
    assert.deepEqual(decodeJwt(tokens.refresh_token!).cnf, { jkt }, 'the public client\'s refresh token is bound');

    const info = await oidc.fetchProtectedResource(config, tokens.access_token, url(USERINFO_PATH), 'GET', undefined, undefined, { DPoP: dpop });
    assert.equal(info.status, 200);

    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    assert.equal(rotated.token_type, 'dpop');
    assert.deepEqual(decodeJwt(rotated.refresh_token!).cnf, { jkt }, 'the binding survives rotation');

    // Another key, or no proof at all: refused, and the family is not touched (the right key still works).
    const thief = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    await assert.rejects(oidc.refreshTokenGrant(config, rotated.refresh_token!, undefined, { DPoP: thief }), (err: oidc.ResponseBodyError) => err.error === 'invalid_grant');
    await assert.rejects(oidc.refreshTokenGrant(config, rotated.refresh_token!), (err: oidc.ResponseBodyError) => err.error === 'invalid_grant');
    const again = await oidc.refreshTokenGrant(config, rotated.refresh_token!, undefined, { DPoP: dpop });
    assert.ok(again.access_token);
  });

  it('RFC 9449 §5: a bound refresh token is refused at the first-party refresh route, which takes no proof', async () => {
    const key = new HandKey();
    const tokens = await boundTokens(key, publicApp);
    const res = await ctx.api.raw('POST', '/api/v4/session/token/refresh', { json: { refresh_token: tokens.refresh_token } });
    assert.equal(res.status, 401, res.text);
    assert.match(res.text, /DPoP-bound/);
  });

  it('require_dpop (RFC 9449 §5.2 dpop_bound_access_tokens): an app set to require DPoP cannot exchange without a proof', async () => {
    const plain = await handExchange(strict, undefined);
    assert.equal(plain.status, 400);
    assert.equal(plain.body.error, 'invalid_dpop_proof');
    const key = new HandKey();
    const bound = await handExchange(strict, tokenProof(key));
    assert.equal(bound.status, 200);
    assert.equal(bound.body.token_type, 'DPoP');
    const view = await ctx.api.get<{ require_dpop: boolean }>(`/api/v4/admin/oauthClient/${strict.id}`, { token: ctx.adminToken });
    assert.equal(view.body.data.require_dpop, true);
  });

  describe('attacks on the token endpoint (RFC 9449 §4.3)', () => {
    const refused = async (proof: string, why: RegExp) => {
      const res = await handExchange(confidential, proof);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, 'invalid_dpop_proof');
      assert.match(res.body.error_description!, why);
    };

    it('§4.3 checks 5: alg none and HS256 are refused', async () => {
      const key = new HandKey();
      const h = (alg: string) => b64(JSON.stringify({ typ: 'dpop+jwt', alg, jwk: key.jwk }));
      const p = b64(JSON.stringify({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), htm: 'POST', htu: `${ctx.server.url}${TOKEN_PATH}` }));
      await refused(`${h('none')}.${p}.${b64('x')}`, /alg/);
      await refused(`${h('HS256')}.${p}.${b64(createHash('sha256').update('k').digest())}`, /alg/);
    });

    it('§4.3 check 6: a jwk with private parts is refused', async () => {
      const key = new HandKey();
      const privateJwk = key.privateKey.export({ format: 'jwk' });
      await refused(tokenProof(key, {}, { jwk: privateJwk }), /private/);
    });

    it('§4.3 checks 4 and 7: another typ, or a signature by another key, is refused', async () => {
      const key = new HandKey();
      await refused(tokenProof(key, {}, { typ: 'JWT' }), /typ/);
      await refused(tokenProof(key, {}, { jwk: new HandKey().jwk }), /signature/);
    });

    it('§11.1: a proof replayed at the token endpoint is refused', async () => {
      const key = new HandKey();
      const proof = tokenProof(key);
      assert.equal((await handExchange(confidential, proof)).status, 200);
      await refused(proof, /already used/);
    });

    it('§4.3 checks 8–9: a proof for another method or another URI is refused', async () => {
      const key = new HandKey();
      await refused(tokenProof(key, { htm: 'GET' }), /htm/);
      await refused(tokenProof(key, { htu: `${ctx.server.url}/api/v4/session/oauth/revoke` }), /htu/);
    });
  });

  describe('attacks on protected resources (RFC 9449 §7)', () => {
    let key: HandKey;
    let token: string;
    before(async () => {
      key = new HandKey();
      token = (await boundTokens(key)).access_token;
    });

    it('the proof as it should be is accepted; the htu is compared normalised (§4.3 check 9: case of scheme and host, default port, no query)', async () => {
      assert.equal((await resource(token, resourceProof(key, token))).status, 200);
      const origin = new URL(ctx.server.url);
      const shouted = `${origin.protocol.toUpperCase()}//${origin.hostname.toUpperCase()}${origin.port ? `:${origin.port}` : ':80'}${USERINFO_PATH}`;
      assert.equal((await resource(token, resourceProof(key, token, { htu: shouted }), { path: `${USERINFO_PATH}?x=1` })).status, 200);
    });

    it('§11.1: a replayed proof is refused', async () => {
      const proof = resourceProof(key, token);
      assert.equal((await resource(token, proof)).status, 200);
      assertDpopRefusal(await resource(token, proof), 'invalid_dpop_proof');
    });

    it('§4.3 check 8: a proof for another method is refused', async () => {
      assertDpopRefusal(await resource(token, resourceProof(key, token, { htm: 'POST' })), 'invalid_dpop_proof');
    });

    it('§4.3 check 9: a proof for another URL is refused', async () => {
      assertDpopRefusal(await resource(token, resourceProof(key, token, { htu: `${ctx.server.url}/api/v4/file/list` })), 'invalid_dpop_proof');
    });

    it('§4.3 check 11: a proof whose ath is another token\'s is refused', async () => {
      const another = (await boundTokens(key)).access_token;
      assertDpopRefusal(await resource(token, resourceProof(key, another)), 'invalid_dpop_proof');
    });

    it('§7.1: a proof by another key than the token\'s is refused', async () => {
      assertDpopRefusal(await resource(token, resourceProof(new HandKey(), token)), 'invalid_token');
    });

    it('§7.2: a bound token sent as Bearer is refused, on the API and on WebDAV', async () => {
      assertDpopRefusal(await resource(token, undefined, { scheme: 'Bearer' }), 'invalid_token');
      const dav = await ctx.api.raw('PROPFIND', '/dav/', { headers: { authorization: `Bearer ${token}`, depth: '0' } });
      assert.equal(dav.status, 401);
      assert.ok((dav.headers.get('www-authenticate') ?? '').includes('DPoP error="invalid_token"'));
    });

    it('§7.1: the DPoP scheme without a proof is refused', async () => {
      assertDpopRefusal(await resource(token, undefined), 'invalid_dpop_proof');
    });

    it('§4.3 check 10, §11.1: a proof whose iat is outside the 60 s window is refused (server clock moved)', async () => {
      const proof = resourceProof(key, token);
      clock.advance(120_000);
      try {
        assertDpopRefusal(await resource(token, proof), 'invalid_dpop_proof');
      } finally {
        clock.advance(-120_000);
      }
      assertDpopRefusal(await resource(token, resourceProof(key, token, { iat: Math.floor(Date.now() / 1000) - 120 })), 'invalid_dpop_proof');
    });

    it('WebDAV: a proof for another method or path is refused; the right one is accepted', async () => {
      const davProof = (htm: string, path: string) => key.proof({ htm, htu: `${ctx.server.url}${path}`, ath: sha256(token) });
      const ok = await ctx.api.raw('PROPFIND', '/dav/', { headers: { authorization: `DPoP ${token}`, dpop: davProof('PROPFIND', '/dav/'), depth: '0' } });
      assert.equal(ok.status, 207);
      const wrongMethod = await ctx.api.raw('PROPFIND', '/dav/', { headers: { authorization: `DPoP ${token}`, dpop: davProof('GET', '/dav/'), depth: '0' } });
      assert.equal(wrongMethod.status, 401);
      assert.ok((wrongMethod.headers.get('www-authenticate') ?? '').includes('DPoP error="invalid_dpop_proof"'));
    });

    it('an unbound token sent with the DPoP scheme is refused; as Bearer it still works', async () => {
      const unbound = await handExchange(confidential, undefined);
      assert.equal(unbound.body.token_type, 'Bearer');
      const plain = unbound.body.access_token!;
      assertDpopRefusal(await resource(plain, resourceProof(key, plain)), 'invalid_token');
      assert.equal((await resource(plain, undefined, { scheme: 'Bearer' })).status, 200);
    });
  });

  it('RFC 7662 §2.2 / RFC 9449 §6.2: introspecting a bound refresh token of a public app answers its cnf', async () => {
    const key = new HandKey('EdDSA');
    const tokens = await boundTokens(key, publicApp);
    // Introspection is for authenticated clients: the confidential app sees nothing of another app's token.
    const other = await ctx.api.raw('POST', INTROSPECT_PATH, { form: { token: tokens.refresh_token, client_id: confidential.id, client_secret: confidential.secret } });
    assert.deepEqual(other.body, { active: false });
    const own = await ctx.api.raw('POST', INTROSPECT_PATH, { form: { token: tokens.refresh_token, client_id: publicApp.id } });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, { ...(own.body as object), active: true, cnf: { jkt: key.thumbprint } });
  });
});

describe('DPoP server nonces (RFC 9449 §8, §9; CIRRUS_DPOP_NONCES=true)', () => {
  let ctx: OAuthTestContext;
  let fetchImpl: Fetch;
  let as: oauth.AuthorizationServer;
  let app: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  const options = () => ({ [oauth.customFetch]: fetchImpl as typeof fetch, [oauth.allowInsecureRequests]: true });

  before(async () => {
    ctx = await startOAuthServer({ env: { CIRRUS_DPOP_NONCES: 'true' } });
    fetchImpl = (ctx.server as unknown as { fetch: Fetch }).fetch;
    as = await oauth.processDiscoveryResponse(new URL(ctx.server.url), await oauth.discoveryRequest(new URL(ctx.server.url), { ...options(), algorithm: 'oidc' }));
    app = await createApp(ctx, { name: 'Nonce App' });
    user = await createUser(ctx.api, ctx.adminToken, 'nonce@example.com');
  });
  after(() => ctx.server.close());

  it('a proof without the server nonce gets use_dpop_nonce and DPoP-Nonce; oauth4webapi retries with it, at the token endpoint and at userinfo', async () => {
    const client = { client_id: app.id };
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const { verifier, challenge } = pkcePair();
    const res = await consent(ctx, user.token.access_token, { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: SCOPE, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' });
    const params = oauth.validateAuthResponse(as, client, new URL(res.body.data.redirect_uri), 'st');
    const exchange = () => oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(app.secret), params, REDIRECT_URI, verifier, { ...options(), DPoP: dpop });
    const first = await exchange();
    assert.equal(first.status, 400);
    assert.ok(first.headers.get('dpop-nonce'));
    await assert.rejects(oauth.processAuthorizationCodeResponse(as, client, first), (err) => oauth.isDPoPNonceError(err));
    // The code was not spent by the refused attempt: the retry (with the nonce the handle kept) succeeds.
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange());
    assert.equal(tokens.token_type, 'dpop');

    const info = await oauth.userInfoRequest(as, client, tokens.access_token, { ...options(), DPoP: dpop });
    assert.equal(info.status, 200, 'the nonce from the token endpoint is good at the resource too');
  });
});
