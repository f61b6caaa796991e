// Sign in with an OpenID Connect provider (api-contract §15), against
// oidc-provider started in-process as the upstream: the admin API (secrets
// write-only), the test button, the code flow with PKCE, state and nonce,
// account creation and linking rules, groups that follow the claim at every
// sign-in, people's own identities, the password sign-in switch and
// Back-Channel Logout 1.0.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn, type TokenPair, type UserView } from '../helpers/client.js';
import { freePort } from '../../src/ops/free-port.js';
import { Browser, logoutToken, startOidcProvider, type OidcProviderHandle } from './upstreams.js';
import { generateKeyPair } from 'jose';

const CLIENT_ID = 'cirrus-test';
const CLIENT_SECRET = 'upstream-client-secret-7f3a9c';

let server: TestServer;
let api: Api;
let admin: string;
let idp: OidcProviderHandle;
let providerId: string;
let staffGroup: number;

const onSsoPage = (u: URL) => u.origin === server.url && u.pathname === '/session/sso';

async function ssoRound(browser: Browser, returnTo = '/files'): Promise<URL> {
  const { url } = await browser.follow(`${server.url}/api/v4/session/sso/${providerId}?return_to=${encodeURIComponent(returnTo)}`, onSsoPage);
  return url;
}

async function exchange(code: string | null) {
  return api.post<{ user: UserView; token: TokenPair }>('/api/v4/session/sso/exchange', { code });
}

async function signInAs(person: OidcProviderHandle['person']) {
  idp.person = person;
  const landed = await ssoRound(new Browser());
  const code = landed.searchParams.get('code');
  assert.ok(code, `no code: ${landed.toString()}`);
  const res = await exchange(code);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

before(async () => {
  const idpPort = await freePort('127.0.0.1');
  server = await startServer();
  api = new Api(server);
  admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  const group = await api.put<{ id: number }>('/api/v4/admin/group', { name: 'Staff' }, { token: admin });
  assert.equal(group.status, 200, group.text);
  staffGroup = group.body.data.id;
  const created = await api.put<{ id: string }>(
    '/api/v4/admin/identity-providers',
    {
      type: 'oidc',
      name: 'Example SSO',
      issuer: `http://127.0.0.1:${idpPort}`,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      scopes: 'openid email profile groups',
      groups_claim: 'groups',
      group_map: { staff: staffGroup },
      admin_values: ['cirrus-admins'],
      create_accounts: true,
      link_by_verified_email: true,
      allowed_domains: ['example.org'],
    },
    { token: admin },
  );
  assert.equal(created.status, 200, created.text);
  providerId = created.body.data.id;
  idp = await startOidcProvider({
    port: idpPort,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${server.url}/api/v4/session/sso/${providerId}/callback`,
    backchannelUri: `${server.url}/api/v4/session/sso/${providerId}/backchannel-logout`,
  });
});

after(async () => {
  await idp?.close();
  await server?.close();
});

describe('providers admin API', () => {
  test('the client secret is write-only: views say only whether one is stored', async () => {
    const list = await api.get<Record<string, unknown>[]>('/api/v4/admin/identity-providers', { token: admin });
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(CLIENT_SECRET));
    const p = list.body.data.find((x) => x.id === providerId)!;
    assert.equal(p.client_secret_set, true);
    assert.equal(p.client_secret, undefined);
    const patched = await api.patch<Record<string, unknown>>(`/api/v4/admin/identity-providers/${providerId}`, { name: 'Example SSO' }, { token: admin });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.data.client_secret_set, true, 'an absent secret keeps the stored one');
  });

  test('bad settings are refused with the field named: http issuer off loopback, unknown group, LDAP filter without {login}', async () => {
    const http = await api.put('/api/v4/admin/identity-providers', { type: 'oidc', name: 'X', issuer: 'http://idp.example.com', client_id: 'x' }, { token: admin });
    assert.equal(http.status, 400);
    assert.match(http.body.msg, /issuer/);
    const group = await api.put('/api/v4/admin/identity-providers', { type: 'oidc', name: 'X', issuer: 'https://idp.example.com', client_id: 'x', group_map: { a: 9999 } }, { token: admin });
    assert.equal(group.status, 400);
    assert.match(group.body.msg, /group_map/);
    const ldap = await api.put('/api/v4/admin/identity-providers', { type: 'ldap', name: 'L', url: 'ldap://127.0.0.1:1', user_base: 'dc=x', user_filter: '(uid=*)' }, { token: admin });
    assert.equal(ldap.status, 400);
    assert.match(ldap.body.msg, /user_filter/);
  });

  test('only administrators see or change providers', async () => {
    const user = await createUser(api, admin, 'plain@example.com');
    assert.equal((await api.get('/api/v4/admin/identity-providers', { token: user.token.access_token })).status, 403);
    assert.equal((await api.get('/api/v4/admin/identity-providers')).status, 401);
  });

  test('"Test" reports discovery and the JWKS', async () => {
    const res = await api.post<{ ok: boolean; steps: { step: string; ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${providerId}/test`, undefined, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.ok, true, JSON.stringify(res.body.data));
    assert.deepEqual(res.body.data.steps.map((s) => s.step), ['discovery', 'jwks']);
  });

  test('"Test" shows the provider\'s own failure for an issuer that is not there', async () => {
    const port = await freePort('127.0.0.1');
    const bad = await api.put<{ id: string }>('/api/v4/admin/identity-providers', { type: 'oidc', name: 'Gone', issuer: `http://127.0.0.1:${port}`, client_id: 'x', enabled: false }, { token: admin });
    const res = await api.post<{ ok: boolean; steps: { ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${bad.body.data.id}/test`, undefined, { token: admin });
    assert.equal(res.body.data.ok, false);
    assert.equal(res.body.data.steps[0]!.ok, false);
    assert.ok(res.body.data.steps[0]!.detail.length > 0);
    assert.equal((await api.delete(`/api/v4/admin/identity-providers/${bad.body.data.id}`, undefined, { token: admin })).status, 200);
  });

  test('the site configuration names the enabled providers for the sign-in page', async () => {
    const res = await api.get<{ sign_in_providers: { id: string; name: string }[]; password_sign_in: boolean }>('/api/v4/site/config');
    assert.deepEqual(res.body.data.sign_in_providers.map((p) => p.id), [providerId]);
    assert.equal(res.body.data.password_sign_in, true);
  });
});

describe('OpenID Connect sign-in', () => {
  test('the redirect carries PKCE S256 (RFC 7636 §4.3), state and nonce, and binds the state to the browser with a cookie', async () => {
    const res = await new Browser().request(`${server.url}/api/v4/session/sso/${providerId}`);
    assert.equal(res.status, 302);
    const to = new URL(res.headers.get('location')!);
    assert.equal(to.origin, idp.issuer);
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    assert.match(to.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((to.searchParams.get('state') ?? '').length >= 32);
    assert.ok((to.searchParams.get('nonce') ?? '').length >= 32);
    assert.match(res.headers.get('set-cookie') ?? '', /^cirrus_sso=[^;]+; Path=\/api\/v4\/session\/sso; HttpOnly; SameSite=Lax/);
  });

  test('first sign-in creates the account with the name and the mapped group; the return path survives', async () => {
    idp.person = { sub: 'alice-1', email: 'alice@example.org', email_verified: true, name: 'Alice Upstream', groups: ['staff'] };
    const landed = await ssoRound(new Browser(), '/files/Docs');
    assert.equal(landed.searchParams.get('return_to'), '/files/Docs');
    const res = await exchange(landed.searchParams.get('code'));
    assert.equal(res.status, 200, res.text);
    const { user, token } = res.body.data;
    assert.equal(user.email, 'alice@example.org');
    assert.equal(user.nickname, 'Alice Upstream');
    assert.equal(user.group.id, staffGroup);
    assert.equal(user.is_admin, false);
    const me = await api.get<UserView>('/api/v4/user/me', { token: token.access_token });
    assert.equal(me.body.data.id, user.id);
    // The one-time code works once.
    assert.equal((await exchange(landed.searchParams.get('code'))).body.code, 40020);
  });

  test('groups and admin rights follow the claim at every sign-in', async () => {
    const asAdmin = await signInAs({ sub: 'alice-1', email: 'alice@example.org', email_verified: true, name: 'Alice Upstream', groups: ['staff', 'cirrus-admins'] });
    assert.equal(asAdmin.user.is_admin, true);
    const back = await signInAs({ sub: 'alice-1', email: 'alice@example.org', email_verified: true, name: 'Alice Upstream', groups: [] });
    assert.equal(back.user.is_admin, false);
    assert.equal(back.user.group.id, 2, 'no mapped value: the default group');
    const staff = await signInAs({ sub: 'alice-1', email: 'alice@example.org', email_verified: true, name: 'Alice Upstream', groups: ['staff'] });
    assert.equal(staff.user.group.id, staffGroup);
  });

  test('a replayed state is refused and gives no session (RFC 9700 §4.7: single-use state)', async () => {
    idp.person = { sub: 'alice-1', email: 'alice@example.org', email_verified: true, groups: ['staff'] };
    const browser = new Browser();
    const { url: callback } = await browser.follow(`${server.url}/api/v4/session/sso/${providerId}`, (u) => u.origin === server.url && u.pathname.endsWith('/callback'));
    const first = await browser.request(callback.toString());
    assert.equal(first.status, 302);
    assert.ok(new URL(first.headers.get('location')!).searchParams.get('code'));
    const again = await browser.request(callback.toString(), { headers: { accept: 'application/json' } });
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { code: number }).code, 40020);
  });

  test('a missing state, or a state started in another browser, is refused with no session', async () => {
    const missing = await new Browser().request(`${server.url}/api/v4/session/sso/${providerId}/callback?code=abc`, { headers: { accept: 'application/json' } });
    assert.equal(missing.status, 401);
    const attacker = new Browser();
    const { url: callback } = await attacker.follow(`${server.url}/api/v4/session/sso/${providerId}`, (u) => u.origin === server.url && u.pathname.endsWith('/callback'));
    // The victim's browser is sent the attacker's callback (login CSRF): its cookie does not match.
    const victim = new Browser();
    await victim.request(`${server.url}/api/v4/session/sso/${providerId}`);
    const res = await victim.request(callback.toString());
    assert.equal(res.status, 302);
    const to = new URL(res.headers.get('location')!);
    assert.equal(to.pathname, '/session/sso');
    assert.equal(to.searchParams.get('code'), null);
    assert.match(to.searchParams.get('error') ?? '', /another browser/);
  });

  test('an open redirect in the return path is refused (RFC 9700 §4.11)', async () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/files\r\nX: y']) {
      const res = await new Browser().request(`${server.url}/api/v4/session/sso/${providerId}?return_to=${encodeURIComponent(bad)}`, { headers: { accept: 'application/json' } });
      assert.equal(res.status, 400, bad);
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });

  test('an unverified address that matches an existing account is refused: no takeover', async () => {
    const victim = await createUser(api, admin, 'victim@example.org');
    idp.person = { sub: 'mallory', email: 'victim@example.org', email_verified: false };
    const landed = await ssoRound(new Browser());
    assert.equal(landed.searchParams.get('code'), null);
    assert.match(landed.searchParams.get('error') ?? '', /already exists/);
    const ids = await api.get<unknown[]>('/api/v4/user/identities', { token: victim.token.access_token });
    assert.deepEqual(ids.body.data, []);
  });

  test('a verified address joins the existing account when the administrator allows it', async () => {
    const bob = await createUser(api, admin, 'bob@example.org');
    const { user } = await signInAs({ sub: 'bob-upstream', email: 'bob@example.org', email_verified: true, name: 'Bob' });
    assert.equal(user.id, bob.user.id);
    const ids = await api.get<{ provider_id: string }[]>('/api/v4/user/identities', { token: bob.token.access_token });
    assert.deepEqual(ids.body.data.map((i) => i.provider_id), [providerId]);
  });

  test('a new address outside allowed_domains creates no account', async () => {
    idp.person = { sub: 'outsider', email: 'someone@elsewhere.net', email_verified: true };
    const landed = await ssoRound(new Browser());
    assert.equal(landed.searchParams.get('code'), null);
    assert.match(landed.searchParams.get('error') ?? '', /elsewhere\.net/);
  });
});

describe('sign-in methods and the password switch', () => {
  test('a person without a Cirrus password cannot remove their last way in', async () => {
    const { token } = await signInAs({ sub: 'carol-1', email: 'carol@example.org', email_verified: true, name: 'Carol' });
    const ids = await api.get<{ id: string }[]>('/api/v4/user/identities', { token: token.access_token });
    assert.equal(ids.body.data.length, 1);
    const del = await api.delete(`/api/v4/user/identities/${ids.body.data[0]!.id}`, undefined, { token: token.access_token });
    assert.equal(del.status, 403);
    assert.match(del.body.msg, /last way/);
    // A password sign-in for an account with no password fails like a wrong password.
    assert.equal((await api.post('/api/v4/session/token', { email: 'carol@example.org', password: 'anything-at-all' })).body.code, 40080);
  });

  test('linking another identity from Settings, then removing it while a password remains', async () => {
    const dave = await createUser(api, admin, 'dave@example.com');
    idp.person = { sub: 'dave-upstream', email: 'dave.work@example.org', email_verified: true };
    const browser = new Browser();
    const start = await api.raw('POST', `/api/v4/user/identities/${providerId}`, { token: dave.token.access_token });
    assert.equal(start.status, 200, start.text);
    // The start's cookie belongs to the browser that made the call (the web app's fetch).
    browser.store(new URL(server.url), new Response(null, { headers: { 'set-cookie': start.headers.get('set-cookie')! } }));
    const { url } = await browser.follow((start.body as { data: { url: string } }).data.url, onSsoPage);
    assert.equal(url.searchParams.get('linked'), '1');
    const ids = await api.get<{ id: string; login: string }[]>('/api/v4/user/identities', { token: dave.token.access_token });
    assert.equal(ids.body.data.length, 1);
    assert.equal(ids.body.data[0]!.login, 'dave.work@example.org');
    // The linked identity now signs in to Dave's account.
    assert.equal((await signInAs({ sub: 'dave-upstream', email: 'dave.work@example.org', email_verified: true })).user.id, dave.user.id);
    assert.equal((await api.delete(`/api/v4/user/identities/${ids.body.data[0]!.id}`, undefined, { token: dave.token.access_token })).status, 200);
  });

  test('password_sign_in off: only administrators sign in with a Cirrus password', async () => {
    await createUser(api, admin, 'erin@example.com');
    const off = await api.patch('/api/v4/admin/settings', { password_sign_in: false }, { token: admin });
    assert.equal(off.status, 200, off.text);
    try {
      const res = await api.post('/api/v4/session/token', { email: 'erin@example.com', password: 'user-password-123' });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40019);
      assert.equal((await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200, 'the break-glass way in');
      assert.equal((await api.get<{ password_sign_in: boolean }>('/api/v4/site/config')).body.data.password_sign_in, false);
    } finally {
      await api.patch('/api/v4/admin/settings', { password_sign_in: true }, { token: admin });
    }
  });
});

describe('Back-Channel Logout 1.0', () => {
  test('a valid logout_token ends the sessions of that subject (§2.6 checks passed)', async () => {
    const { token } = await signInAs({ sub: 'frank-1', email: 'frank@example.org', email_verified: true });
    const lt = await logoutToken(idp.privateKey, idp.kid, { iss: idp.issuer, aud: CLIENT_ID, sub: 'frank-1' });
    const res = await api.raw('POST', `/api/v4/session/sso/${providerId}/backchannel-logout`, { form: { logout_token: lt } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: token.refresh_token });
    assert.equal(refresh.body.code, 40020);
  });

  test('§2.6: a logout_token from a foreign key, for another audience, or with a nonce is refused and ends nothing', async () => {
    const { token } = await signInAs({ sub: 'grace-1', email: 'grace@example.org', email_verified: true });
    const { privateKey: foreign } = await generateKeyPair('RS256');
    const bad = [
      await logoutToken(foreign, idp.kid, { iss: idp.issuer, aud: CLIENT_ID, sub: 'grace-1' }),
      await logoutToken(idp.privateKey, idp.kid, { iss: idp.issuer, aud: 'someone-else', sub: 'grace-1' }),
      await logoutToken(idp.privateKey, idp.kid, { iss: idp.issuer, aud: CLIENT_ID, sub: 'grace-1', nonce: 'n' }),
      await logoutToken(idp.privateKey, idp.kid, { iss: 'https://other.example', aud: CLIENT_ID, sub: 'grace-1' }),
      'not-a-jwt',
    ];
    for (const lt of bad) {
      const res = await api.raw('POST', `/api/v4/session/sso/${providerId}/backchannel-logout`, { form: { logout_token: lt } });
      assert.equal(res.status, 400, res.text);
      assert.equal((res.body as { error: string }).error, 'invalid_request');
    }
    assert.equal((await api.post('/api/v4/session/token/refresh', { refresh_token: token.refresh_token })).status, 200);
  });
});

describe('RP-Initiated Logout 1.0', () => {
  test('§2: a session from the provider is told its end_session_endpoint, with id_token_hint and the way back to sign-in', async () => {
    const { token } = await signInAs({ sub: 'heidi-1', email: 'heidi@example.org', email_verified: true });
    const res = await api.post<{ url: string | null }>('/api/v4/session/sso/end-session', undefined, { token: token.access_token });
    assert.equal(res.status, 200, res.text);
    const url = new URL(res.body.data.url!);
    assert.equal(`${url.origin}${url.pathname}`, `${idp.issuer}/session/end`);
    assert.equal(url.searchParams.get('client_id'), CLIENT_ID);
    assert.equal(url.searchParams.get('post_logout_redirect_uri'), `${server.url}/`);
    const hint = url.searchParams.get('id_token_hint')!;
    const claims = JSON.parse(Buffer.from(hint.split('.')[1]!, 'base64url').toString()) as { sub: string; aud: string; iss: string };
    assert.deepEqual([claims.sub, claims.aud, claims.iss], ['heidi-1', CLIENT_ID, idp.issuer]);
  });

  test('a password session has no upstream session to end; without a session the call is refused', async () => {
    const res = await api.post<{ url: string | null }>('/api/v4/session/sso/end-session', undefined, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.url, null);
    assert.equal((await api.post('/api/v4/session/sso/end-session')).status, 401);
  });
});
