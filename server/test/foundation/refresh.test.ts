// Refresh rotation (api-contract §3, auth-interface §5.3): each refresh token
// is single use; a reuse inside the grace window (≤ 10 s) is honoured, a
// reuse after it ends the whole family, access tokens included, within 5 s.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { ManualClock } from '../../src/core/clock.js';
import { REUSE_GRACE_MS } from '../../src/sessions/service.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { injectFetch, startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, decodeJwt, signIn, type TokenPair } from '../helpers/client.js';
import { eventually, nowSeconds, readMasterKey, signJwt } from './support.js';

describe('refresh: rotation, grace window and reuse detection', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  let n = 0;
  // Runs with real time; ageRotation moves it past the grace window instead of sleeping 10 s.
  const clock = new ManualClock();
  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  async function freshSession(): Promise<{ token: TokenPair; email: string; password: string }> {
    const u = await createUser(api, adminToken, `refresh-${++n}@example.com`);
    return { token: u.token, email: u.user.email, password: u.password };
  }

  async function refresh(refreshToken: string) {
    return api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: refreshToken });
  }

  const works = async (access: string) => (await api.get('/api/v4/user/me', { token: access })).status === 200;
  const stopsWithin5s = (access: string) => eventually(async () => (await api.get('/api/v4/user/me', { token: access })).status === 401, 5000);

  /** Moves the server's clock past the grace window of the family's last rotation, instead of sleeping 10 s. */
  async function ageRotation(refreshToken: string): Promise<void> {
    const sid = decodeJwt(refreshToken).sid as string;
    const row = await server.built.services.db.selectFrom('sessions').select('rotated_at').where('id', '=', sid).executeTakeFirstOrThrow();
    assert.notEqual(row.rotated_at, null, 'the family has rotated');
    clock.advance(REUSE_GRACE_MS + 1000);
  }

  it('a refresh rotates: a new pair whose refresh token works, in the same family', async () => {
    const { token: a } = await freshSession();
    const b = await refresh(a.refresh_token);
    assert.equal(b.status, 200);
    assert.notEqual(b.body.data.refresh_token, a.refresh_token);
    assert.notEqual(b.body.data.access_token, a.access_token);
    assert.notEqual(decodeJwt(b.body.data.refresh_token).jti, decodeJwt(a.refresh_token).jti);
    assert.equal(decodeJwt(b.body.data.refresh_token).sid, decodeJwt(a.refresh_token).sid);
    assert.ok(await works(b.body.data.access_token));
    const c = await refresh(b.body.data.refresh_token);
    assert.equal(c.status, 200);
    assert.ok(await works(c.body.data.access_token));
  });

  it('a reuse inside the grace window returns a valid pair (two tabs refreshing at once)', async () => {
    const { token: a } = await freshSession();
    const [first, second] = await Promise.all([refresh(a.refresh_token), refresh(a.refresh_token)]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    const again = await refresh(a.refresh_token);
    assert.equal(again.status, 200, 'a third use shortly after is still inside the window');
    for (const pair of [first.body.data, second.body.data, again.body.data]) assert.ok(await works(pair.access_token));
    const next = await refresh(again.body.data.refresh_token);
    assert.equal(next.status, 200, 'the pair handed out in the window carries the family on');
    assert.ok(await works(next.body.data.access_token));
  });

  it('a reuse after the grace window is 401/40020 and revokes the family: refresh and access tokens, within 5 s', async () => {
    const { token: a } = await freshSession();
    const b = (await refresh(a.refresh_token)).body.data;
    assert.ok(await works(b.access_token));
    await ageRotation(a.refresh_token);
    const reuse = await refresh(a.refresh_token);
    assert.equal(reuse.status, 401);
    assert.equal(reuse.body.code, 40020);
    assert.equal(reuse.body.data, null);

    const bRefresh = await refresh(b.refresh_token);
    assert.equal(bRefresh.status, 401, 'the newest refresh token of the family is dead too');
    assert.equal(bRefresh.body.code, 40020);
    assert.ok(await stopsWithin5s(b.access_token), 'the newest access token stops within 5 s');
    assert.ok(await stopsWithin5s(a.access_token), 'the first access token stops within 5 s');
  });

  it('a token two generations old is reuse even inside the grace window', async () => {
    const { token: a } = await freshSession();
    const b = (await refresh(a.refresh_token)).body.data;
    const c = (await refresh(b.refresh_token)).body.data;
    const reuse = await refresh(a.refresh_token);
    assert.equal(reuse.status, 401);
    assert.equal(reuse.body.code, 40020);
    assert.equal((await refresh(c.refresh_token)).status, 401);
    assert.ok(await stopsWithin5s(c.access_token));
  });

  it('other sessions of the same user survive a reuse in one family', async () => {
    const { token: a, email, password } = await freshSession();
    const other = await signIn(api, email, password);
    await refresh(a.refresh_token);
    await ageRotation(a.refresh_token);
    assert.equal((await refresh(a.refresh_token)).status, 401);
    assert.ok(await stopsWithin5s(a.access_token));
    assert.ok(await works(other.token.access_token));
    assert.equal((await refresh(other.token.refresh_token)).status, 200);
  });

  it('sign-out revokes the family: its refresh tokens fail and its access token stops within 5 s', async () => {
    const { token: a, email, password } = await freshSession();
    const b = (await refresh(a.refresh_token)).body.data;
    const other = await signIn(api, email, password);
    const out = await api.delete('/api/v4/session/token', { refresh_token: b.refresh_token });
    assert.equal(out.status, 200);
    for (const t of [a.refresh_token, b.refresh_token]) {
      const res = await refresh(t);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 40020);
    }
    assert.ok(await stopsWithin5s(b.access_token));
    assert.ok(await works(other.token.access_token), 'other sessions stay signed in');
  });

  it('an expired, forged or tampered refresh token is 401/40020', async () => {
    const { token: a } = await freshSession();
    const claims = decodeJwt(a.refresh_token);
    const key = await readMasterKey(server);
    const now = nowSeconds();
    const expired = signJwt(key, { ...claims, nbf: now - 7200, iat: now - 7200, exp: now - 3600 });
    const forged = signJwt('not-the-master-key-not-the-master-key', claims);
    const [h, , s] = a.refresh_token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url')}.${s}`;
    for (const [name, token] of [['expired', expired], ['forged', forged], ['tampered', tampered], ['garbage', 'not-a-jwt']]) {
      const res = await refresh(token!);
      assert.equal(res.status, 401, name);
      assert.equal(res.body.code, 40020, name);
    }
    assert.equal((await refresh(a.refresh_token)).status, 200, 'the genuine token still works: failed attempts did not consume it');
  });

  it('a family past its expiry cannot be refreshed', async () => {
    const { token: a } = await freshSession();
    const sid = decodeJwt(a.refresh_token).sid as string;
    await server.built.services.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('id', '=', sid).execute();
    const res = await refresh(a.refresh_token);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 40020);
  });
});

describe('refresh: revocation reaches every instance', () => {
  let server: InjectedServer;
  let second: BuiltApp;
  let api: Api;
  let api2: Api;
  const clock = new ManualClock();
  before(async () => {
    server = await startInjectedServer({}, { clock });
    // A second instance on the same database, as behind a load balancer (and on the same clock).
    second = await buildApp({ ...server.config }, { logger: false, clock });
    api = new Api(server);
    api2 = new Api({ url: server.url, fetch: injectFetch(second.app, server.url) });
  });
  after(async () => {
    await second.app.close();
    await server.close();
  });

  it('api-contract §2: sign-out, refresh-token reuse and a ban on one instance stop the access tokens on another within 5 s', async () => {
    const admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const users = await Promise.all(['x-signout', 'x-reuse', 'x-ban'].map((name) => createUser(api, admin.token.access_token, `${name}@example.com`)));
    const [signedOut, reused, banned] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    for (const u of users) assert.equal((await api2.get('/api/v4/user/me', { token: u.token.access_token })).status, 200, 'the other instance accepts the token first');

    await api.delete('/api/v4/session/token', { refresh_token: signedOut.token.refresh_token });
    await api.post('/api/v4/session/token/refresh', { refresh_token: reused.token.refresh_token });
    // Past the grace window, without sleeping 10 s.
    clock.advance(REUSE_GRACE_MS + 1000);
    assert.equal((await api.post('/api/v4/session/token/refresh', { refresh_token: reused.token.refresh_token })).status, 401);
    await api.put(`/api/v4/admin/user/${banned.user.id}`, { status: 'banned' }, { token: admin.token.access_token });

    const started = Date.now();
    for (const u of users) {
      const stopped = await eventually(async () => (await api2.get('/api/v4/user/me', { token: u.token.access_token })).status === 401, 5000 - (Date.now() - started));
      assert.ok(stopped, `${u.user.email}: stopped on the other instance within 5 s`);
    }
    assert.equal((await api2.get('/api/v4/user/me', { token: admin.token.access_token })).status, 200, 'unrelated tokens still work there');
  });
});
