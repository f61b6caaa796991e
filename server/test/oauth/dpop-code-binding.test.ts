// DPoP authorization code binding (RFC 9449 §10, §10.1), driven by
// oauth4webapi as a web app would use it: the code of a request that names a
// key (dpop_jkt, or a proof with the pushed request) is exchanged only with a
// proof of that key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { ManualClock } from '../../src/core/clock.js';
import { createUser, decodeJwt, type TokenPair } from '../helpers/client.js';
import type { Fetch } from '../helpers/inject.js';
import { HandKey } from './dpop-keys.js';
import { consent, createApp, pkcePair, postForm, REDIRECT_URI, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

const PAR_PATH = '/api/v4/session/oauth/par';
const SCOPE = 'openid offline_access UserInfo.Read';

describe('DPoP authorization code binding (RFC 9449 §10)', () => {
  const clock = new ManualClock({ at: Date.now() });
  let ctx: OAuthTestContext;
  let fetchImpl: Fetch;
  let as: oauth.AuthorizationServer;
  let app: AppView & { secret: string };
  let user: { user: { id: string }; token: TokenPair };
  const options = () => ({ [oauth.customFetch]: fetchImpl as typeof fetch, [oauth.allowInsecureRequests]: true });
  const client = () => ({ client_id: app.id });
  const auth = () => oauth.ClientSecretPost(app.secret);

  before(async () => {
    ctx = await startOAuthServer({ clock });
    fetchImpl = (ctx.server as unknown as { fetch: Fetch }).fetch;
    as = await oauth.processDiscoveryResponse(new URL(ctx.server.url), await oauth.discoveryRequest(new URL(ctx.server.url), { ...options(), algorithm: 'oidc' }));
    app = await createApp(ctx, { name: 'Bound Codes' });
    user = await createUser(ctx.api, ctx.adminToken, 'dpop-jkt@example.com');
  });
  after(() => ctx.server.close());

  /** The consent step as the authorize page does it (it forwards dpop_jkt); the callback URL and the PKCE verifier. */
  async function authorize(extra: Record<string, string>): Promise<{ callback: URL; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const res = await consent(ctx, user.token.access_token, { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: SCOPE, state: 'st', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
    assert.equal(res.status, 200, res.text);
    return { callback: new URL(res.body.data.redirect_uri), verifier };
  }

  /** oauth4webapi's code exchange, with a DPoP handle or none; the raw response. */
  async function exchange(callback: URL, verifier: string, dpop: oauth.DPoPHandle | undefined): Promise<Response> {
    const params = oauth.validateAuthResponse(as, client(), callback, 'st');
    return oauth.authorizationCodeGrantRequest(as, client(), auth(), params, REDIRECT_URI, verifier, { ...options(), ...(dpop ? { DPoP: dpop } : {}) });
  }

  async function refusal(response: Response): Promise<{ status: number; error: string; description: string }> {
    const body = (await response.json()) as { error: string; error_description: string };
    return { status: response.status, error: body.error, description: body.error_description };
  }

  it('RFC 9449 §10: a code issued with dpop_jkt exchanges with a proof of that key, and the access token is bound to it', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const jkt = await dpop.calculateThumbprint();
    const { callback, verifier } = await authorize({ dpop_jkt: jkt });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, verifier, dpop));
    assert.equal(tokens.token_type, 'dpop');
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
  });

  it('RFC 9449 §10: a bound code with a proof of another key, or with none, is invalid_grant and stays unspent for its key', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const { callback, verifier } = await authorize({ dpop_jkt: await dpop.calculateThumbprint() });

    const thief = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const other = await refusal(await exchange(callback, verifier, thief));
    assert.deepEqual([other.status, other.error], [400, 'invalid_grant']);
    assert.match(other.description, /does not match the dpop_jkt/);

    const none = await refusal(await exchange(callback, verifier, undefined));
    assert.deepEqual([none.status, none.error], [400, 'invalid_grant']);
    assert.match(none.description, /bound to a DPoP key/);

    // Neither refusal spent the code (RFC 6749 §4.1.2's replay rule did not fire): its key still exchanges it.
    const tokens = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, verifier, dpop));
    assert.equal(tokens.token_type, 'dpop');
  });

  it('RFC 9449 §10: a code without dpop_jkt still takes any proof, or none (the binding is the client\'s choice)', async () => {
    const plain = await authorize({});
    const bearer = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(plain.callback, plain.verifier, undefined));
    assert.equal(bearer.token_type, 'bearer');
    const any = await authorize({});
    const bound = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(any.callback, any.verifier, oauth.DPoP({}, await oauth.generateKeyPair('EdDSA'))));
    assert.equal(bound.token_type, 'dpop');
  });

  it('RFC 9449 §10: a malformed dpop_jkt is invalid_request at the redirect URI', async () => {
    const res = await consent(ctx, user.token.access_token, { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: SCOPE, state: 'st', dpop_jkt: 'not-a-thumbprint' });
    assert.equal(res.status, 200, res.text);
    const location = new URL(res.body.data.redirect_uri);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.match(location.searchParams.get('error_description') ?? '', /dpop_jkt/);
    assert.equal(res.body.data.code, undefined);
  });

  /** oauth4webapi's PAR (with its DPoP header when given), then the consent as the page does it with the request_uri. */
  async function pushAndAuthorize(params: Record<string, string>, dpop: oauth.DPoPHandle | undefined): Promise<{ callback: URL; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const response = await oauth.pushedAuthorizationRequest(
      as,
      client(),
      auth(),
      { response_type: 'code', redirect_uri: REDIRECT_URI, scope: SCOPE, state: 'st', code_challenge: challenge, code_challenge_method: 'S256', ...params },
      { ...options(), ...(dpop ? { DPoP: dpop } : {}) },
    );
    const pushed = await oauth.processPushedAuthorizationResponse(as, client(), response);
    const decided = await consent(ctx, user.token.access_token, { client_id: app.id, request_uri: pushed.request_uri });
    assert.equal(decided.status, 200, decided.text);
    return { callback: new URL(decided.body.data.redirect_uri), verifier };
  }

  it('RFC 9449 §10.1: a DPoP proof with the pushed request binds the code to its key', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const { callback, verifier } = await pushAndAuthorize({}, dpop);
    const thief = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    assert.equal((await refusal(await exchange(callback, verifier, thief))).error, 'invalid_grant');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, verifier, dpop));
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt: await dpop.calculateThumbprint() });
  });

  it('RFC 9449 §10.1: dpop_jkt in the pushed request binds the code too', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const { callback, verifier } = await pushAndAuthorize({ dpop_jkt: await dpop.calculateThumbprint() }, undefined);
    assert.equal((await refusal(await exchange(callback, verifier, undefined))).error, 'invalid_grant');
    assert.equal((await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, verifier, dpop))).token_type, 'dpop');
  });

  it('RFC 9449 §10.1: a pushed request whose dpop_jkt is not the key of its proof is refused; a proof for another URI is invalid_dpop_proof', async () => {
    const key = new HandKey();
    const someoneElse = new HandKey();
    const { challenge } = pkcePair();
    const form = { response_type: 'code', redirect_uri: REDIRECT_URI, scope: SCOPE, code_challenge: challenge, code_challenge_method: 'S256', client_id: app.id, client_secret: app.secret };
    const parUri = `${ctx.server.url}${PAR_PATH}`;
    const raw = (extra: Record<string, string>, proof: string) => ctx.api.raw('POST', PAR_PATH, { form: { ...form, ...extra }, headers: { dpop: proof } }) as Promise<{ status: number; body: Record<string, string> }>;

    const mismatch = await raw({ dpop_jkt: someoneElse.thumbprint }, key.proof({ htm: 'POST', htu: parUri }));
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error, 'invalid_request');

    const wrongUri = await raw({}, key.proof({ htm: 'POST', htu: `${ctx.server.url}/api/v4/session/oauth/token` }));
    assert.equal(wrongUri.status, 400);
    assert.equal(wrongUri.body.error, 'invalid_dpop_proof');

    const matching = await raw({ dpop_jkt: key.thumbprint }, key.proof({ htm: 'POST', htu: parUri }));
    assert.equal(matching.status, 201, JSON.stringify(matching.body));
  });

  it('RFC 9449 §10: a bound code is still single use (RFC 6749 §4.1.2): a second exchange with the right key is refused', async () => {
    const dpop = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const { callback, verifier } = await authorize({ dpop_jkt: await dpop.calculateThumbprint() });
    await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, verifier, dpop));
    const again = await postForm(ctx, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: app.id, client_secret: app.secret });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
  });
});
