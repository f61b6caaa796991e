// A lock-out anyone can cause (issue 11, defect 2). Before: six wrong
// passwords from rotating addresses locked the real owner (the administrator
// too) out for up to 15 minutes. Now a browser where the account signed in
// successfully before carries a device cookie, and its sign-ins are counted
// on that device's own limit (OWASP device cookies), so strangers' guesses
// cannot lock it out; everyone else still meets the account's lock, with the
// time left in the message and in Retry-After (RFC 6585 §4).
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { awayFromStepEdge, currentStep, totp } from './support.js';

/** The device cookie of a sign-in answer as a Cookie request header ("name=value"), with its attributes checked. */
function deviceCookie(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie');
  assert.ok(set, 'a successful sign-in sets the device cookie');
  const [pair, ...attrs] = set.split(';').map((s) => s.trim());
  assert.match(pair!, /^cirrus_device_[A-Za-z0-9_-]+=[0-9a-z]+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
  assert.ok(attrs.includes('HttpOnly'), 'HttpOnly: scripts never read it');
  assert.ok(attrs.includes('SameSite=Strict'));
  assert.ok(attrs.includes('Path=/api/v4/session'), 'sent to the sign-in routes only');
  return pair!;
}

describe('device cookies: guesses from elsewhere cannot lock the owner out (issue 11 defect 2)', () => {
  let server: InjectedServer;
  let api: Api;
  beforeEach(async () => {
    // Trusting the proxy lets the test play an attacker on rotating addresses.
    server = await startInjectedServer({ CIRRUS_TRUST_PROXY: 'true' });
    api = new Api(server);
  });
  afterEach(() => server.close());

  /** Eight wrong passwords for `email`, each from another address: past the account's allowance of 5. */
  async function guessFromRotatingAddresses(email: string): Promise<void> {
    for (let i = 0; i < 8; i++) {
      const res = await api.post('/api/v4/session/token', { email, password: `wrong-password-${i}` }, { headers: { 'x-forwarded-for': `198.51.100.${10 + i}` } });
      assert.ok(res.status === 401 || res.status === 429, `guess ${i}: ${res.status} ${res.text}`);
    }
  }

  it('the administrator who signed in before from this browser still signs in while strangers have locked the account', async () => {
    const first = await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '203.0.113.5' } });
    assert.equal(first.status, 200, first.text);
    const cookie = deviceCookie(first);

    await guessFromRotatingAddresses(ADMIN_EMAIL);

    // A browser that never signed in meets the lock, told how long it lasts.
    const stranger = await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '203.0.113.99' } });
    assert.equal(stranger.status, 429, stranger.text);
    assert.equal(stranger.body.code, 429);
    assert.match(stranger.body.msg, /try again in \d+ (second|seconds|minute|minutes)\b/);
    assert.ok(Number(stranger.headers.get('retry-after')) >= 1);

    // The owner's browser is not locked out.
    const owner = await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { headers: { 'x-forwarded-for': '203.0.113.5', cookie } });
    assert.equal(owner.status, 200, owner.text);
    assert.equal(owner.body.code, 0);
  });

  it('a trusted browser has a limit of its own: wrong passwords from it lock it, not the account for other trusted browsers', async () => {
    const u = await createUser(api, (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token, 'device-own@example.com');
    const a = deviceCookie(await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }));
    const b = deviceCookie(await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }));
    assert.notEqual(a, b, 'each browser gets a device of its own');
    let locked = false;
    for (let i = 0; i < 8 && !locked; i++) {
      const res = await api.post('/api/v4/session/token', { email: u.user.email, password: `wrong-${i}` }, { headers: { cookie: a } });
      locked = res.status === 429;
    }
    assert.ok(locked, 'guessing from a trusted browser is limited too (a stolen cookie buys few guesses)');
    const fromB = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }, { headers: { cookie: b } });
    assert.equal(fromB.status, 200, fromB.text);
    const untrusted = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(untrusted.status, 200, 'guesses from a trusted browser did not count against the account');
  });

  it("a forged, altered or other account's cookie is no device: the account's lock applies", async () => {
    const admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const u = await createUser(api, admin.token.access_token, 'device-forged@example.com');
    const other = await createUser(api, admin.token.access_token, 'device-other@example.com');
    const mine = deviceCookie(await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }));
    const othersCookie = deviceCookie(await api.post('/api/v4/session/token', { email: other.user.email, password: other.password }));
    await guessFromRotatingAddresses(u.user.email);
    const [name, value] = mine.split('=') as [string, string];
    const altered = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    const renamed = `${name}=${othersCookie.split('=')[1]}`;
    for (const cookie of [altered, renamed, othersCookie, `${name}=garbage`]) {
      const res = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }, { headers: { cookie, 'x-forwarded-for': '192.0.2.1' } });
      assert.equal(res.status, 429, `cookie ${cookie.slice(0, 40)}… must not unlock: ${res.text}`);
    }
    const real = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }, { headers: { cookie: mine } });
    assert.equal(real.status, 200);
  });

  it('with two-step verification the browser is trusted only after the code, and then passes the lock', async () => {
    const admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const u = await createUser(api, admin.token.access_token, 'device-2fa@example.com');
    await awayFromStepEdge(4000);
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: u.token.access_token });
    const secret = begin.body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep()) }, { token: u.token.access_token })).status, 200);
    const first = await api.post<string>('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(first.body.code, 203);
    assert.equal(first.headers.get('set-cookie'), null, 'a password alone does not make the browser trusted');
    await awayFromStepEdge(4000);
    const second = await api.post('/api/v4/session/token/2fa', { session_id: first.body.data, otp: totp(secret, currentStep() + 1) });
    assert.equal(second.status, 200, second.text);
    const cookie = deviceCookie(second);
    await guessFromRotatingAddresses(u.user.email);
    const again = await api.post<string>('/api/v4/session/token', { email: u.user.email, password: u.password }, { headers: { cookie } });
    assert.equal(again.body.code, 203, again.text);
  });
});
