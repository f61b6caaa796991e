// Sessions (api-contract §3, auth-interface §2.2, §2.4, §4.4, §5.2, §5.3):
// the shapes of sign-in, the second factor, refresh and sign-out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, decodeJwt, signIn, type TokenPair, type UserView } from '../helpers/client.js';
import { RFC3339, awayFromStepEdge, currentStep, nowSeconds, totp } from './support.js';

function assertEnvelopeOk(res: { status: number; body: { code: number; msg: string } }): void {
  assert.equal(res.status, 200);
  assert.equal(res.body.code, 0);
  assert.equal(res.body.msg, '');
}

function assertTokenPair(token: TokenPair): void {
  assert.deepEqual(Object.keys(token).sort(), ['access_expires', 'access_token', 'refresh_expires', 'refresh_token']);
  assert.match(token.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.match(token.refresh_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.match(token.access_expires, RFC3339);
  assert.match(token.refresh_expires, RFC3339);
  const access = Date.parse(token.access_expires);
  const refresh = Date.parse(token.refresh_expires);
  assert.ok(access > Date.now(), 'access expiry lies in the future');
  // auth-interface §8: the refresh expiry lies months after the access expiry.
  assert.ok(refresh - access > 60 * 86400_000, 'refresh expiry is months after the access expiry');
  // The timestamps say what the tokens say.
  assert.equal(Math.floor(access / 1000), decodeJwt(token.access_token).exp);
  assert.equal(Math.floor(refresh / 1000), decodeJwt(token.refresh_token).exp);
}

function assertUser(user: UserView, email: string): void {
  assert.equal(typeof user.id, 'string');
  // An opaque short string, never a sequential number.
  assert.match(user.id, /^[A-Za-z0-9]{6,32}$/);
  assert.doesNotMatch(user.id, /^\d+$/);
  assert.equal(user.email, email);
  assert.equal(typeof user.nickname, 'string');
  assert.match(user.created_at, RFC3339);
  assert.equal(typeof user.group.id, 'number');
  assert.equal(typeof user.group.name, 'string');
  assert.equal(typeof user.is_admin, 'boolean');
  for (const secret of ['password', 'password_hash', 'totp_secret', 'totp_pending_secret']) assert.ok(!(secret in user), `${secret} is never shown`);
}

describe('sessions: sign-in, refresh and sign-out shapes', () => {
  let server: InjectedServer;
  let api: Api;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
  });
  after(() => server.close());

  it('GET /api/v4/site/ping answers the version string without auth, ignoring any Authorization header', async () => {
    for (const headers of [{}, { authorization: 'Bearer garbage' }] as Record<string, string>[]) {
      const res = await api.get<string>('/api/v4/site/ping', { headers });
      assertEnvelopeOk(res);
      assert.match(res.body.data, /^\d+\.\d+\.\d+/);
    }
  });

  it('POST /api/v4/session/token returns {user, token} with the four token fields and RFC 3339 expiries', async () => {
    const res = await api.post<{ user: UserView; token: TokenPair }>('/api/v4/session/token', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assertEnvelopeOk(res);
    assert.deepEqual(Object.keys(res.body.data).sort(), ['token', 'user']);
    assertTokenPair(res.body.data.token);
    assertUser(res.body.data.user, ADMIN_EMAIL);
    assert.equal(res.body.data.user.is_admin, true);
  });

  it('the e-mail is matched case-insensitively, and a wrong password or unknown e-mail is the same 401/40080', async () => {
    const upper = await api.post('/api/v4/session/token', { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD });
    assertEnvelopeOk(upper);
    const wrong = await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: 'not-the-password' });
    const unknown = await api.post('/api/v4/session/token', { email: 'nobody@example.com', password: 'not-the-password' });
    for (const res of [wrong, unknown]) {
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 40080);
      assert.equal(res.body.data, null);
    }
    assert.equal(wrong.body.msg, unknown.body.msg, 'no hint which of the two was wrong');
  });

  it('auth-interface §2.4: access tokens carry token_type=access, sub = user id, exp, nbf, iat and sid', async () => {
    const { user, token } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const header = JSON.parse(Buffer.from(token.access_token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    assert.equal(header.alg, 'HS256');
    const claims = decodeJwt(token.access_token);
    assert.equal(claims.token_type, 'access');
    assert.equal(claims.sub, user.id);
    for (const name of ['exp', 'nbf', 'iat']) assert.ok(Number.isInteger(claims[name]), `${name} is an integer`);
    const now = nowSeconds();
    assert.ok(Math.abs((claims.iat as number) - now) <= 5);
    assert.ok((claims.nbf as number) <= now + 1);
    // Default access lifetime: 1 hour (api-contract §3).
    assert.equal((claims.exp as number) - (claims.iat as number), 3600);
    assert.equal(typeof claims.sid, 'string');
    assert.ok(!('client_id' in claims) && !('scopes' in claims), 'password sign-in tokens are first-party and unscoped');

    const refresh = decodeJwt(token.refresh_token);
    assert.equal(refresh.token_type, 'refresh');
    assert.equal(refresh.sub, user.id);
    assert.equal(refresh.sid, claims.sid, 'both tokens belong to one session family');
    // Default refresh lifetime: 90 days.
    assert.ok(Math.abs((refresh.exp as number) - now - 90 * 86400) <= 5);
  });

  it('GET /api/v4/user/me shows the signed-in user, whose id equals the token sub', async () => {
    const { token } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await api.get<UserView>('/api/v4/user/me', { token: token.access_token });
    assertEnvelopeOk(res);
    assertUser(res.body.data, ADMIN_EMAIL);
    assert.equal(res.body.data.id, decodeJwt(token.access_token).sub);
    assert.deepEqual(res.body.data.group, { id: 1, name: 'Administrators' });
  });

  it('POST /api/v4/session/token/refresh returns a new pair in the envelope', async () => {
    const { token } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: token.refresh_token });
    assertEnvelopeOk(res);
    assertTokenPair(res.body.data);
    assert.notEqual(res.body.data.refresh_token, token.refresh_token);
    assert.equal(decodeJwt(res.body.data.access_token).sid, decodeJwt(token.access_token).sid, 'the family continues');
    const me = await api.get('/api/v4/user/me', { token: res.body.data.access_token });
    assert.equal(me.status, 200);
  });

  it('DELETE /api/v4/session/token answers null and the refresh token stops working', async () => {
    const { token } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await api.delete('/api/v4/session/token', { refresh_token: token.refresh_token });
    assertEnvelopeOk(res);
    assert.equal(res.body.data, null);
    const again = await api.post('/api/v4/session/token/refresh', { refresh_token: token.refresh_token });
    assert.equal(again.status, 401);
    assert.equal(again.body.code, 40020);
  });

  it('a banned account cannot sign in (403/40017) and cannot refresh', async () => {
    const admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    const u = await createUser(api, admin.token.access_token, 'banned-session@example.com');
    const ban = await api.put(`/api/v4/admin/user/${u.user.id}`, { status: 'banned' }, { token: admin.token.access_token });
    assert.equal(ban.status, 200);
    const signInRes = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(signInRes.status, 403);
    assert.equal(signInRes.body.code, 40017);
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token });
    assert.equal(refresh.status === 401 || refresh.status === 403, true, `refresh of a banned user fails (${refresh.status})`);
    assert.notEqual(refresh.body.code, 0);
  });
});

describe('sessions: second factor (RFC 6238 TOTP)', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  async function enrol(email: string): Promise<{ secret: string; password: string; user: UserView; confirmedStep: number }> {
    const u = await createUser(api, adminToken, email);
    await awayFromStepEdge(4000);
    const begin = await api.post<{ secret: string; otpauth_url: string }>('/api/v4/user/setting/2fa', undefined, { token: u.token.access_token });
    assertEnvelopeOk(begin);
    const { secret, otpauth_url } = begin.body.data;
    assert.match(secret, /^[A-Z2-7]{16,}$/, 'a base32 secret');
    const uri = new URL(otpauth_url);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), secret);
    // Confirm with the code of the previous step (inside the ±1 step window), so later steps remain unused.
    const step = currentStep() - 1;
    const wrong = await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step + 10) }, { token: u.token.access_token });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 40022);
    const confirm = await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step) }, { token: u.token.access_token });
    assertEnvelopeOk(confirm);
    const me = await api.get<{ two_fa_enabled: boolean }>('/api/v4/user/me', { token: u.token.access_token });
    assert.equal(me.body.data.two_fa_enabled, true, 'GET /user/me shows 2FA on at once');
    return { secret, password: u.password, user: u.user, confirmedStep: step };
  }

  it('RFC 6238: after enrolment, sign-in answers code 203 with a session id, and the current code completes it', async () => {
    const { secret, password, user, confirmedStep } = await enrol('totp-user@example.com');
    const first = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    assert.equal(first.status, 200);
    assert.equal(first.body.code, 203);
    assert.equal(typeof first.body.data, 'string');
    assert.ok(first.body.data.length >= 16, 'the session id is unguessable');
    assert.ok(!JSON.stringify(first.body).includes('access_token'), 'no token before the second factor');

    const wrong = await api.post('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 5), session_id: first.body.data });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 40022);

    const done = await api.post<{ user: UserView; token: TokenPair }>('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: first.body.data });
    assertEnvelopeOk(done);
    assertTokenPair(done.body.data.token);
    assertUser(done.body.data.user, user.email);
    assert.equal(decodeJwt(done.body.data.token.access_token).sub, user.id);

    // The challenge is single use.
    const replay = await api.post('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 2), session_id: first.body.data });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 40020);
  });

  it('RFC 6238 §5.2: a code that was already used is refused, and an unknown session id is 401/40020', async () => {
    const { secret, password, user, confirmedStep } = await enrol('totp-replay@example.com');
    const a = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    const ok1 = await api.post('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: a.body.data });
    assertEnvelopeOk(ok1);
    const b = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    const replay = await api.post('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: b.body.data });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 40022);
    const unknown = await api.post('/api/v4/session/token/2fa', { otp: '123456', session_id: 'no-such-session-id-000000' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.code, 40020);
  });

  it('a sign-in challenge allows a few wrong codes, even sent all at once, and is then spent', async () => {
    const { secret, password, user, confirmedStep } = await enrol('totp-burst@example.com');
    const a = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    const wrongCode = totp(secret, confirmedStep + 20);
    const burst = await Promise.all(Array.from({ length: 10 }, () => api.post('/api/v4/session/token/2fa', { otp: wrongCode, session_id: a.body.data })));
    assert.ok(burst.every((r) => r.status !== 200), 'no wrong code is accepted');
    const right = await api.post('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: a.body.data });
    assert.equal(right.status, 401, 'the challenge is spent after the wrong codes');
    assert.equal(right.body.code, 40020);
  });

  it('DELETE /api/v4/user/setting/2fa needs a valid code, then sign-in is one step again', async () => {
    const { secret, password, user, confirmedStep } = await enrol('totp-off@example.com');
    const first = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    const done = await api.post<{ token: TokenPair }>('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: first.body.data });
    const token = done.body.data.token.access_token;
    const settings = await api.get<{ two_fa_enabled: boolean; oauth_grants: unknown[] }>('/api/v4/user/setting', { token });
    assert.equal(settings.body.data.two_fa_enabled, true);

    const wrong = await api.delete('/api/v4/user/setting/2fa', { otp: totp(secret, confirmedStep + 9) }, { token });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 40022);
    const off = await api.delete('/api/v4/user/setting/2fa', { otp: totp(secret, confirmedStep + 2) }, { token });
    assertEnvelopeOk(off);
    const me = await api.get<{ two_fa_enabled: boolean }>('/api/v4/user/me', { token });
    assert.equal(me.body.data.two_fa_enabled, false, 'GET /user/me shows 2FA off at once');
    const again = await api.post<{ token: TokenPair }>('/api/v4/session/token', { email: user.email, password });
    assertEnvelopeOk(again);
    assertTokenPair(again.body.data.token);
  });

  it('enrolment cannot start twice once 2FA is on (409)', async () => {
    const { user, password, secret, confirmedStep } = await enrol('totp-twice@example.com');
    const first = await api.post<string>('/api/v4/session/token', { email: user.email, password });
    const done = await api.post<{ token: TokenPair }>('/api/v4/session/token/2fa', { otp: totp(secret, confirmedStep + 1), session_id: first.body.data });
    const res = await api.post('/api/v4/user/setting/2fa', undefined, { token: done.body.data.token.access_token });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 409);
  });
});
