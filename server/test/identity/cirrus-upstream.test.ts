// Another Cirrus as the upstream (issue 34): Cirrus B signs people in through
// Cirrus A's own OpenID Provider, so our provider and our relying party are
// proven against each other, not only against oidc-provider. A registers B as
// a confidential client (redirect URI = B's callback, post-logout redirect URI
// = B's sign-in page); B adds A by its issuer URL (discovery). The person
// approves at A through the consent API the way A's authorize page does.
// Cirrus's provider exposes no groups claim (USERINFO_CLAIMS), so groups are
// left to B's administrators here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, decodeJwt, signIn, type TokenPair, type UserView } from '../helpers/client.js';
import { Browser } from './upstreams.js';

let a: TestServer;
let b: TestServer;
let apiA: Api;
let apiB: Api;
let providerId: string;
let clientId: string;
let person: { token: TokenPair; user: UserView };

before(async () => {
  [a, b] = await Promise.all([startServer(), startServer()]);
  apiA = new Api(a);
  apiB = new Api(b);
  const [adminA, adminB] = [(await signIn(apiA, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token, (await signIn(apiB, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token];
  const created = await apiB.put<{ id: string }>(
    '/api/v4/admin/identity-providers',
    { type: 'oidc', name: 'Cirrus A', issuer: a.url, client_id: 'pending', create_accounts: true },
    { token: adminB },
  );
  assert.equal(created.status, 200, created.text);
  providerId = created.body.data.id;
  const app = await apiA.put<{ id: string; secret: string }>(
    '/api/v4/admin/oauthClient',
    {
      client: {
        name: 'Cirrus B',
        icon: 'cloud-upload',
        redirect_uris: [`${b.url}/api/v4/session/sso/${providerId}/callback`],
        post_logout_redirect_uris: [`${b.url}/`],
        scopes: ['openid', 'profile', 'email'],
      },
    },
    { token: adminA },
  );
  assert.equal(app.status, 200, app.text);
  clientId = app.body.data.id;
  const patched = await apiB.patch(`/api/v4/admin/identity-providers/${providerId}`, { client_id: clientId, client_secret: app.body.data.secret }, { token: adminB });
  assert.equal(patched.status, 200, patched.text);
  const made = await createUser(apiA, adminA, 'river@example.org');
  const named = await apiA.patch('/api/v4/user/setting', { nickname: 'River Song' }, { token: made.token.access_token });
  assert.equal(named.status, 200, named.text);
  person = made;
});

after(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('Cirrus B signs in through Cirrus A', () => {
  let signedIn: { user: UserView; token: TokenPair };

  test('"Test" on B reads A\'s discovery and JWKS', async () => {
    const adminB = (await signIn(apiB, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await apiB.post<{ ok: boolean; steps: { step: string; ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${providerId}/test`, undefined, { token: adminB });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.ok, true, res.text);
    assert.match(res.body.data.steps[0]!.detail, /end session supported/);
  });

  test('code flow with PKCE (RFC 7636 §4.3) from B to A and back: B makes the account from A\'s claims', async () => {
    const browser = new Browser();
    const atA = await browser.follow(`${b.url}/api/v4/session/sso/${providerId}?return_to=/files`, (u) => u.origin === a.url);
    assert.equal(atA.url.pathname, '/session/authorize');
    const params = Object.fromEntries(atA.url.searchParams);
    assert.equal(params.client_id, clientId);
    assert.equal(params.code_challenge_method, 'S256');
    assert.ok(params.code_challenge && params.state && params.nonce, JSON.stringify(params));
    // The person, signed in at A, approves as A's authorize page does.
    const decided = await apiA.post<{ redirect_uri: string }>('/api/v4/session/oauth/consent', { ...params, approve: true }, { token: person.token.access_token });
    assert.equal(decided.status, 200, decided.text);
    const back = new URL(decided.body.data.redirect_uri);
    assert.equal(`${back.origin}${back.pathname}`, `${b.url}/api/v4/session/sso/${providerId}/callback`);
    const landed = await browser.follow(back.toString(), (u) => u.origin === b.url && u.pathname === '/session/sso');
    const code = landed.url.searchParams.get('code');
    assert.ok(code, landed.url.toString());
    assert.equal(landed.url.searchParams.get('return_to') ?? '/files', '/files');
    const exchanged = await apiB.post<{ user: UserView; token: TokenPair }>('/api/v4/session/sso/exchange', { code });
    assert.equal(exchanged.status, 200, exchanged.text);
    signedIn = exchanged.body.data;
    assert.equal(signedIn.user.email, 'river@example.org');
    assert.equal(signedIn.user.nickname, 'River Song');
    const me = await apiB.get<UserView>('/api/v4/user/me', { token: signedIn.token.access_token });
    assert.equal(me.status, 200);
    // The identity B linked is A's subject for this person.
    const ids = await apiB.get<{ provider_id: string; subject: string }[]>('/api/v4/user/identities', { token: signedIn.token.access_token });
    assert.equal(ids.status, 200, ids.text);
    assert.deepEqual(ids.body.data.map((i) => i.provider_id), [providerId]);
  });

  test('a second round signs into the same B account (no duplicate)', async () => {
    const browser = new Browser();
    const atA = await browser.follow(`${b.url}/api/v4/session/sso/${providerId}?return_to=/files`, (u) => u.origin === a.url);
    const decided = await apiA.post<{ redirect_uri: string }>('/api/v4/session/oauth/consent', { ...Object.fromEntries(atA.url.searchParams), approve: true }, { token: person.token.access_token });
    const landed = await browser.follow(decided.body.data.redirect_uri, (u) => u.origin === b.url && u.pathname === '/session/sso');
    const again = await apiB.post<{ user: UserView }>('/api/v4/session/sso/exchange', { code: landed.url.searchParams.get('code') });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.user.id, signedIn.user.id);
  });

  test('RP-Initiated Logout 1.0 §2-§3: B sends the browser to A\'s end_session_endpoint with A\'s id_token, and A accepts it', async () => {
    const res = await apiB.post<{ url: string | null }>('/api/v4/session/sso/end-session', undefined, { token: signedIn.token.access_token });
    assert.equal(res.status, 200, res.text);
    const url = new URL(res.body.data.url!);
    assert.equal(`${url.origin}${url.pathname}`, `${a.url}/session/logout`);
    assert.equal(url.searchParams.get('post_logout_redirect_uri'), `${b.url}/`);
    const hint = decodeJwt(url.searchParams.get('id_token_hint')!);
    assert.equal(hint.iss, a.url);
    assert.equal(hint.aud, clientId);
    // A's logout page checks the hint, the client and the registered post-logout URI before it shows anything (400 otherwise).
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200, await page.text());
    const forged = new URL(url);
    forged.searchParams.set('post_logout_redirect_uri', 'https://evil.example/');
    assert.equal((await fetch(forged, { headers: { accept: 'text/html' } })).status, 400);
  });
});
