// Bad input (api-contract §1): every malformed request gets the right status
// and the {code, data, msg} envelope, and leaves the database as it was.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, signIn, type ApiResponse, type Envelope, type TokenPair, type UserView } from '../helpers/client.js';

/** Everything a bad request could have changed, read straight from the database. */
async function snapshot(server: InjectedServer): Promise<string> {
  const db = server.built.services.db;
  const users = await db.selectFrom('users').select(['id', 'email', 'nickname', 'password_hash', 'status', 'group_id', 'totp_secret', 'totp_pending_secret', 'updated_at']).orderBy('id').execute();
  const sessions = await db.selectFrom('sessions').select(['id', 'current_jti', 'revoked_at']).orderBy('id').execute();
  const settings = await db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute();
  const challenges = await db.selectFrom('signin_challenges').select(['id', 'attempts']).orderBy('id').execute();
  return JSON.stringify({ users, sessions, settings, challenges });
}

function assertParamError(res: ApiResponse<Envelope>, what: string, status = 400, code = 40001): void {
  assert.equal(res.status, status, `${what}: status (${res.text.slice(0, 200)})`);
  assert.deepEqual(Object.keys(res.body as object).sort(), ['code', 'data', 'msg'], `${what}: envelope`);
  assert.equal(res.body.code, code, `${what}: code`);
  assert.equal(res.body.data, null, `${what}: data`);
  assert.equal(typeof res.body.msg, 'string');
  assert.ok(res.body.msg.length > 0, `${what}: msg says what is wrong`);
  assert.doesNotMatch(res.text, /\bat .+:\d+:\d+\)?/, `${what}: no stack trace`);
}

describe('bad input changes nothing', () => {
  let server: InjectedServer;
  let api: Api;
  let token: TokenPair;
  const routes: [string, string][] = [
    ['POST', '/api/v4/session/token'],
    ['POST', '/api/v4/session/token/2fa'],
    ['POST', '/api/v4/session/token/refresh'],
    ['DELETE', '/api/v4/session/token'],
    ['POST', '/api/v4/user'],
    ['PATCH', '/api/v4/user/setting'],
    ['PUT', '/api/v4/admin/user'],
  ];

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    token = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const open = await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: token.access_token });
    assert.equal(open.status, 200);
  });
  after(() => server.close());

  /** Sends `send` to every body route with the admin token and checks the answer and the database. */
  async function everyRoute(what: string, send: (method: string, path: string) => Promise<ApiResponse<Envelope>>, status = 400, code = 40001) {
    const before = await snapshot(server);
    for (const [method, path] of routes) assertParamError(await send(method, path), `${what} to ${method} ${path}`, status, code);
    assert.equal(await snapshot(server), before, `${what}: the database is unchanged`);
  }

  const raw = (body: string | Buffer | undefined, contentType?: string) => (method: string, path: string) =>
    api.call(method, path, { body, token: token.access_token, headers: contentType ? { 'content-type': contentType } : {} });

  it('malformed JSON is 400/40001 and the message does not echo the body', async () => {
    await everyRoute('malformed JSON', raw('{"email": "a@example.com", "password": "secret-in-body"', 'application/json'));
    const res = await raw('{"password": "secret-in-body",,}', 'application/json')('POST', '/api/v4/session/token');
    assert.ok(!res.text.includes('secret-in-body'));
  });

  it('a body in a media type the route does not take is 415 with envelope code 40001', async () => {
    await everyRoute('text/plain', raw('{"email":"a@example.com"}', 'text/plain'), 415);
    await everyRoute('application/xml', raw('<email>a@example.com</email>', 'application/xml'), 415);
    await everyRoute('octet-stream', raw(Buffer.from([0, 1, 2, 3]), 'application/octet-stream'), 415);
  });

  it('an empty body, or none, is 400/40001', async () => {
    await everyRoute('empty JSON body', raw('', 'application/json'));
    await everyRoute('no body', raw(undefined));
    await everyRoute('JSON null', raw('null', 'application/json'));
    await everyRoute('JSON array', raw('[]', 'application/json'));
    await everyRoute('JSON string', raw('"text"', 'application/json'));
  });

  it('a 2 MiB body is 413/40049', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    await everyRoute('2 MiB of bytes', raw(big, 'application/json'), 413, 40049);
    const padded = JSON.stringify({ email: 'big@example.com', password: 'big-password-1', nickname: 'x'.repeat(2 * 1024 * 1024) });
    await everyRoute('2 MiB of valid JSON', raw(padded, 'application/json'), 413, 40049);
  });

  it('missing required fields are 400/40001 and the message names the field', async () => {
    const before = await snapshot(server);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v4/session/token', { email: ADMIN_EMAIL }, 'password'],
      ['POST', '/api/v4/session/token', { password: ADMIN_PASSWORD }, 'email'],
      ['POST', '/api/v4/session/token/2fa', { otp: '123456' }, 'session_id'],
      ['POST', '/api/v4/session/token/refresh', {}, 'refresh_token'],
      ['DELETE', '/api/v4/session/token', {}, 'refresh_token'],
      ['POST', '/api/v4/user', { email: 'missing@example.com' }, 'password'],
      ['PUT', '/api/v4/admin/user', { password: 'some-password-1' }, 'email'],
    ];
    for (const [method, path, json, field] of cases) {
      const res = await api.call(method, path, { json, token: token.access_token });
      assertParamError(res, `${method} ${path} without ${field}`);
      assert.match(res.body.msg, new RegExp(field), `${method} ${path}: msg names ${field}`);
    }
    assert.equal(await snapshot(server), before);
  });

  it('over-long fields are 400/40001: e-mail over 254, password over 128 characters', async () => {
    const before = await snapshot(server);
    const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    assert.ok(longEmail.length > 254);
    const longPassword = 'p'.repeat(129);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v4/session/token', { email: longEmail, password: ADMIN_PASSWORD }],
      ['POST', '/api/v4/session/token', { email: ADMIN_EMAIL, password: longPassword }],
      ['POST', '/api/v4/user', { email: longEmail, password: 'long-email-pw-1' }],
      ['POST', '/api/v4/user', { email: 'long-pw@example.com', password: longPassword }],
      ['PUT', '/api/v4/admin/user', { email: 'long-pw@example.com', password: longPassword }],
      ['PATCH', '/api/v4/user/setting', { current_password: ADMIN_PASSWORD, new_password: longPassword }],
      ['PATCH', '/api/v4/user/setting', { nickname: 'n'.repeat(65) }],
      ['POST', '/api/v4/session/token/refresh', { refresh_token: 'r'.repeat(8193) }],
      ['POST', '/api/v4/user', { email: 'short-pw@example.com', password: 'short' }],
    ];
    for (const [method, path, json] of cases) assertParamError(await api.call(method, path, { json, token: token.access_token }), `${method} ${path} ${JSON.stringify(json).slice(0, 60)}`);
    assert.equal(await snapshot(server), before);
    // A password of exactly 128 characters is fine (one hard to guess: new passwords must be, api-contract §11).
    const maxPassword = 'violet-harbor-lantern-42/copper-meadow-whistle-97/'.repeat(3).slice(0, 128);
    assert.equal(maxPassword.length, 128);
    const ok = await api.post<UserView>('/api/v4/user', { email: 'max-pw@example.com', password: maxPassword });
    assert.equal(ok.status, 200, ok.text);
    await signIn(api, 'max-pw@example.com', maxPassword);
  });

  it('non-string types are 400/40001, never coerced (a number is not a password)', async () => {
    const before = await snapshot(server);
    for (const wrong of [12345678, true, null, ['admin-password-123'], { value: ADMIN_PASSWORD }]) {
      assertParamError(await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: wrong }), `password ${JSON.stringify(wrong)}`);
      assertParamError(await api.post('/api/v4/session/token', { email: [ADMIN_EMAIL], password: ADMIN_PASSWORD }), 'email array');
      assertParamError(await api.post('/api/v4/session/token/refresh', { refresh_token: wrong }), `refresh_token ${JSON.stringify(wrong)}`);
      assertParamError(await api.post('/api/v4/user', { email: 'types@example.com', password: wrong }), `sign-up password ${JSON.stringify(wrong)}`);
      assertParamError(await api.patch('/api/v4/user/setting', { nickname: wrong }, { token: token.access_token }), `nickname ${JSON.stringify(wrong)}`);
    }
    assertParamError(await api.post('/api/v4/session/token/2fa', { otp: 123456, session_id: 'x' }), 'numeric otp');
    assertParamError(await api.put('/api/v4/admin/user', { email: 'types@example.com', password: 'types-pw-123', group_id: '1' }, { token: token.access_token }), 'string group_id');
    assert.equal(await snapshot(server), before);
  });

  it('NUL bytes and control characters are refused (400/40001); other unicode works', async () => {
    const before = await snapshot(server);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v4/session/token', { email: ADMIN_EMAIL, password: 'admin-password-123\u0000' }],
      ['POST', '/api/v4/session/token', { email: `${ADMIN_EMAIL}\u0000`, password: ADMIN_PASSWORD }],
      ['POST', '/api/v4/user', { email: 'nul@example.com', password: 'nul-pass\u0000word' }],
      ['POST', '/api/v4/user', { email: 'nul@example.com', password: 'nul-password-1', nickname: 'bad\u0000nick' }],
      ['POST', '/api/v4/user', { email: 'ctl@example.com', password: 'ctl-password-1', nickname: 'line\nbreak' }],
      ['POST', '/api/v4/user', { email: 'ünïcödé@exämple.com', password: 'unicode-email-1' }],
      ['PATCH', '/api/v4/user/setting', { nickname: 'nul\u0000' }],
      ['PUT', '/api/v4/admin/user', { email: 'nul2@example.com', password: 'pass\u0000word-1' }],
    ];
    for (const [method, path, json] of cases) assertParamError(await api.call(method, path, { json, token: token.access_token }), `${method} ${path} ${JSON.stringify(json)}`);
    assert.equal(await snapshot(server), before);

    const password = 'pässwörd-🔑-密码';
    const created = await api.post<UserView>('/api/v4/user', { email: 'unicode@example.com', password, nickname: '🌤 Ünïcödé 名前' });
    assert.equal(created.status, 200);
    assert.equal(created.body.data.nickname, '🌤 Ünïcödé 名前');
    const { user } = await signIn(api, 'unicode@example.com', password);
    assert.equal(user.id, created.body.data.id);
  });

  it('unknown fields are refused with 400 naming the field, and nothing is applied (no mass assignment)', async () => {
    const res = await api.post<UserView>('/api/v4/user', { email: 'sneaky-signup@example.com', password: 'sneaky-password-1', is_admin: true, group_id: 1, status: 'banned', id: 'ChosenId1' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 40001);
    assert.match(res.body.msg, /^(is_admin|group_id|status|id): is not an accepted field$/);
    const signIn = await api.post('/api/v4/session/token', { email: 'sneaky-signup@example.com', password: 'sneaky-password-1' });
    assert.equal(signIn.status, 401, 'no account was created');
    const settings = await api.patch<UserView>('/api/v4/user/setting', { email: 'changed@example.com', is_admin: false }, { token: token.access_token });
    assert.equal(settings.status, 400, settings.text);
    assert.match(settings.body.msg, /^(email|is_admin): is not an accepted field$/);
    const me = await api.get<UserView>('/api/v4/user/me', { token: token.access_token });
    assert.equal(me.body.data.email, ADMIN_EMAIL);
    assert.equal(me.body.data.is_admin, true);
  });

  it('bad path parameters and query strings are 400 or 404, never 500', async () => {
    for (const id of ['..%2F..', '%00', 'a'.repeat(65), 'Robert%27%3B%20DROP%20TABLE%20users%3B--']) {
      const res = await api.get(`/api/v4/admin/user/${id}`, { token: token.access_token });
      assert.ok(res.status === 400 || res.status === 404, `${id}: ${res.status}`);
      assert.ok(res.body.code === 40001 || res.body.code === 404);
    }
    const users = await api.post<{ pagination: { total: number } }>('/api/v4/admin/user', {}, { token: token.access_token });
    assert.ok(users.body.data.pagination.total > 0, 'the users table survived');
  });
});
