// The person's own sessions (Settings > Security): GET /api/v4/user/session
// lists first-party sign-ins with browser, address and times; DELETE one or
// all others, after which their refresh tokens fail and their access tokens stop.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn, type TokenPair } from '../helpers/client.js';
import { approve, createApp, exchange, type OAuthTestContext } from '../oauth/helpers.js';

interface SessionView {
  id: string;
  current: boolean;
  browser: string | null;
  os: string | null;
  device: string | null;
  ip: string | null;
  created_at: string;
  last_used_at: string;
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('user sessions', () => {
  let server: InjectedServer;
  let api: Api;
  let ctx: OAuthTestContext;
  const email = `sessions-${process.pid}@example.com`;
  const password = 'sessions-password-1';
  // Runs with real time; moved forward where a test needs a later "last used".
  const clock = new ManualClock();

  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    ctx = { server, api, adminToken: (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token };
    await createUser(api, ctx.adminToken, email, password);
  });
  after(() => server.close());

  const signInAs = async (ua: string) => {
    const res = await api.post<{ token: TokenPair }>('/api/v4/session/token', { email, password }, { headers: { 'user-agent': ua } });
    assert.equal(res.status, 200, res.text);
    return res.body.data.token;
  };
  const list = (token: string) => api.get<{ sessions: SessionView[] }>('/api/v4/user/session', { token });
  const refresh = (pair: TokenPair) => api.post('/api/v4/session/token/refresh', { refresh_token: pair.refresh_token });

  it('lists each sign-in with its browser, system, address and times; marks the current one', async () => {
    const laptop = await signInAs(FIREFOX);
    const phone = await signInAs(SAFARI_IPHONE);
    const res = await list(laptop.access_token);
    assert.equal(res.status, 200, res.text);
    const sessions = res.body.data.sessions;
    const mine = sessions.find((s) => s.current)!;
    assert.ok(mine, 'the current session is marked');
    assert.equal(mine.browser, 'Firefox 128');
    assert.equal(mine.os, 'Linux');
    assert.match(mine.ip ?? '', /127\.0\.0\.1|::1/);
    const other = sessions.find((s) => !s.current && s.browser?.startsWith('Mobile Safari'));
    assert.ok(other, JSON.stringify(sessions));
    assert.equal(other.os, 'iOS 17');
    assert.equal(other.device, 'Apple iPhone');
    assert.ok(!Number.isNaN(Date.parse(other.created_at)) && !Number.isNaN(Date.parse(other.last_used_at)));
    // The same list from the phone marks the phone's session as current.
    const fromPhone = (await list(phone.access_token)).body.data.sessions;
    assert.equal(fromPhone.find((s) => s.current)?.id, other.id);
    // A refresh moves "last used" on.
    clock.advance(1000);
    assert.equal((await refresh(phone)).status, 200);
    const after1 = (await list(laptop.access_token)).body.data.sessions.find((s) => s.id === other.id)!;
    assert.ok(Date.parse(after1.last_used_at) > Date.parse(other.last_used_at));
  });

  it('signing out another session: its refresh token fails (40020) and its access token stops', async () => {
    const laptop = await signInAs(FIREFOX);
    const tablet = await signInAs('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
    const target = (await list(tablet.access_token)).body.data.sessions.find((s) => s.current)!;
    const del = await api.delete(`/api/v4/user/session/${target.id}`, undefined, { token: laptop.access_token });
    assert.equal(del.status, 200, del.text);
    const r = await refresh(tablet);
    assert.equal(r.status, 401);
    assert.equal((r.body as { code: number }).code, 40020);
    // The revoking instance applies its own revocation at once.
    assert.equal((await api.get('/api/v4/user/me', { token: tablet.access_token })).status, 401);
    assert.ok(!(await list(laptop.access_token)).body.data.sessions.some((s) => s.id === target.id));
    assert.equal((await api.get('/api/v4/user/me', { token: laptop.access_token })).status, 200);
  });

  it('unknown ids and other people\'s sessions are 404; malformed ids 400', async () => {
    const laptop = await signInAs(FIREFOX);
    assert.equal((await api.delete('/api/v4/user/session/nope123', undefined, { token: laptop.access_token })).status, 404);
    const other = await createUser(api, ctx.adminToken, `sessions-other-${process.pid}@example.com`);
    const theirs = (await list(other.token.access_token)).body.data.sessions[0]!;
    const res = await api.delete(`/api/v4/user/session/${theirs.id}`, undefined, { token: laptop.access_token });
    assert.equal(res.status, 404);
    assert.equal((await refresh(other.token)).status, 200, 'their session still works');
    const bad = await api.delete('/api/v4/user/session/a%20b', undefined, { token: laptop.access_token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 40001);
  });

  it('sign out all others keeps this one', async () => {
    const a = await signInAs(FIREFOX);
    const b = await signInAs(SAFARI_IPHONE);
    const res = await api.delete<{ ended: number }>('/api/v4/user/session', undefined, { token: a.access_token });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.ended >= 1);
    assert.equal((await refresh(b)).status, 401);
    const left = (await list(a.access_token)).body.data.sessions;
    assert.equal(left.length, 1);
    assert.equal(left[0]!.current, true);
  });

  it('RFC 6750 §3.1: an OAuth token needs UserSecurityInfo.Read to list and .Write to sign out; apps are not listed as sessions', async () => {
    const person = await createUser(api, ctx.adminToken, `sessions-oauth-${process.pid}@example.com`);
    const app = await createApp(ctx, { scopes: ['UserInfo.Read', 'UserSecurityInfo.Read', 'UserSecurityInfo.Write'] });
    const token = async (scope: string) => {
      const res = await exchange(ctx, app, await approve(ctx, person.token.access_token, app, { scope }));
      assert.equal(res.status, 200, res.text);
      return res.body.access_token!;
    };
    const plain = await token('UserInfo.Read');
    const denied = await list(plain);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 40089);
    assert.match(denied.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    const reader = await token('UserSecurityInfo.Read');
    const listed = await list(reader);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.sessions.length, 1, 'only the password sign-in, not the app');
    assert.equal(listed.body.data.sessions[0]!.current, false);
    const del = await api.delete(`/api/v4/user/session/${listed.body.data.sessions[0]!.id}`, undefined, { token: reader });
    assert.equal(del.status, 403);
    assert.equal(del.body.code, 40089);
  });
});
