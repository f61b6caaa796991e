// Issue 11, defect 7: every answer that carries a credential says
// `Cache-Control: no-store` and `Pragma: no-cache`, so that no browser or
// shared cache keeps a token, password or secret. RFC 6749 §5.1 requires it
// of the token endpoint; Cirrus applies it to every route that hands out a
// credential (docs/security.md, "Caching of credentials"), errors included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn, type ApiResponse } from '../helpers/client.js';
import { awayFromStepEdge, currentStep, totp } from './support.js';

function assertNoStore(res: ApiResponse, what: string): void {
  assert.equal(res.headers.get('cache-control'), 'no-store', `${what}: Cache-Control (status ${res.status})`);
  assert.equal(res.headers.get('pragma'), 'no-cache', `${what}: Pragma`);
}

describe('RFC 6749 §5.1: no-store on every answer that carries a credential', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server?.close();
  });

  it('password sign-in, refresh, and their failures', async () => {
    const u = await createUser(api, adminToken, 'nostore-signin@example.com');
    const signedIn = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(signedIn.body.code, 0);
    assertNoStore(signedIn, 'sign-in');
    assertNoStore(await api.post('/api/v4/session/token', { email: u.user.email, password: 'wrong-password-1' }), 'failed sign-in');
    const refreshed = await api.post('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token });
    assert.equal(refreshed.body.code, 0, refreshed.text);
    assertNoStore(refreshed, 'refresh');
    assertNoStore(await api.post('/api/v4/session/token/refresh', { refresh_token: 'a.b.c' }), 'failed refresh');
  });

  it('the second factor step, and enrolment (which shows the TOTP secret)', async () => {
    const u = await createUser(api, adminToken, 'nostore-2fa@example.com');
    await awayFromStepEdge(4000);
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: u.token.access_token });
    assert.equal(begin.body.code, 0, begin.text);
    assertNoStore(begin, '2FA enrolment');
    const step = currentStep() - 1;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(begin.body.data.secret, step) }, { token: u.token.access_token })).body.code, 0);
    const challenge = await api.post<string>('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(challenge.body.code, 203);
    assertNoStore(challenge, 'sign-in asking for the second factor');
    const done = await api.post('/api/v4/session/token/2fa', { otp: totp(begin.body.data.secret, step + 1), session_id: challenge.body.data });
    assert.equal(done.body.code, 0, done.text);
    assertNoStore(done, '2FA step');
  });

  it('the OAuth consent (authorization code) and the token endpoint', async () => {
    const created = await api.put<{ id: string; secret: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'No-store', icon: 'cloud', redirect_uris: ['https://client.example/cb'], scopes: ['openid', 'offline_access'] } },
      { token: adminToken },
    );
    assert.equal(created.body.code, 0, created.text);
    assertNoStore(created, 'app creation (shows the client secret)');
    const app = created.body.data;
    const regenerated = await api.put<{ secret: string }>(`/api/v4/admin/oauthClient/${app.id}`, { client: { regenerate_secret: true } }, { token: adminToken });
    assert.ok(regenerated.body.data.secret, regenerated.text);
    assertNoStore(regenerated, 'secret regeneration');

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const consent = await api.post<{ code: string }>(
      '/api/v4/session/oauth/consent',
      { response_type: 'code', client_id: app.id, redirect_uri: 'https://client.example/cb', scope: 'openid offline_access', code_challenge: challenge, code_challenge_method: 'S256' },
      { token: adminToken },
    );
    assert.ok(consent.body.data.code, consent.text);
    assertNoStore(consent, 'consent (returns the code)');
    const token = await api.raw('POST', '/api/v4/session/oauth/token', {
      form: { grant_type: 'authorization_code', code: consent.body.data.code, client_id: app.id, client_secret: regenerated.body.data.secret, code_verifier: verifier },
    });
    assert.equal(token.status, 200, token.text);
    assertNoStore(token, 'token endpoint');
    assertNoStore(await api.raw('POST', '/api/v4/session/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: 'x' } }), 'token endpoint error');
  });

  it('an administrator password reset, a WebDAV account password, a signed download URL, a share unlock token', async () => {
    const u = await createUser(api, adminToken, 'nostore-misc@example.com');
    const reset = await api.post<{ password: string }>(`/api/v4/admin/user/${u.user.id}/reset-password`, undefined, { token: adminToken });
    assert.ok(reset.body.data.password, reset.text);
    assertNoStore(reset, 'admin reset-password (one-time password)');

    const fresh = await signIn(api, u.user.email, reset.body.data.password);
    const token = fresh.token.access_token;
    const dav = await api.put<{ id: string; password: string }>('/api/v4/devices/dav', { name: 'laptop' }, { token });
    assert.ok(dav.body.data.password, dav.text);
    assertNoStore(dav, 'WebDAV account creation');
    const regenerated = await api.patch<{ password: string }>(`/api/v4/devices/dav/${dav.body.data.id}`, { regenerate_password: true }, { token });
    assert.ok(regenerated.body.data.password, regenerated.text);
    assertNoStore(regenerated, 'WebDAV password regeneration');

    const upload = await api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/a.txt')}`, { token, body: 'hello', headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(upload.body.code, 0, upload.text);
    const url = await api.post<{ url: string }>('/api/v4/file/url', { path: '/a.txt' }, { token });
    assert.ok(url.body.data.url, url.text);
    assertNoStore(url, 'signed download URL');
    const archive = await api.post<{ url: string }>('/api/v4/file/archive/url', { paths: ['/a.txt'] }, { token });
    assert.ok(archive.body.data.url, archive.text);
    assertNoStore(archive, 'signed archive URL');

    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/a.txt', password: 'share-password-1' }, { token });
    assert.equal(share.body.code, 0, share.text);
    const unlocked = await api.post<{ token: string }>(`/api/v4/share/unlock/${share.body.data.id}`, { password: 'share-password-1' });
    assert.ok(unlocked.body.data.token, unlocked.text);
    assertNoStore(unlocked, 'share unlock token');
    assertNoStore(await api.post(`/api/v4/share/unlock/${share.body.data.id}`, { password: 'wrong-password-1' }), 'failed share unlock');
  });

  it('ordinary answers are not marked (the policy is per route, not global)', async () => {
    const me = await api.get('/api/v4/user/me', { token: adminToken });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('pragma'), null);
  });
});
