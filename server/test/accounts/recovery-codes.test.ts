// Two-step recovery codes (api-contract §11): ten codes in the answer that
// turns two-step verification on, each usable once in place of a TOTP code,
// a new set (password required) voids the old one, stored hashed; notices
// of each change go to the account's address.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { awayFromStepEdge, currentStep, totp } from '../foundation/support.js';

const PASSWORD = 'violet-harbor-lantern-42';

describe('two-step recovery codes', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env);
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  async function enrol(email: string): Promise<{ token: string; secret: string; codes: string[] }> {
    const u = await createUser(api, admin, email, PASSWORD);
    await awayFromStepEdge(4000);
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: u.token.access_token });
    const secret = begin.body.data.secret;
    const on = await api.put<{ recovery_codes: string[] }>('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep()) }, { token: u.token.access_token });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.headers.get('cache-control'), 'no-store');
    return { token: u.token.access_token, secret, codes: on.body.data.recovery_codes };
  }

  /** Password, then the given code in the second step. */
  async function signInWith(email: string, code: string) {
    const first = await api.post<string>('/api/v4/session/token', { email, password: PASSWORD });
    assert.equal(first.body.code, 203);
    return api.post<{ token: { access_token: string } }>('/api/v4/session/token/2fa', { otp: code, session_id: first.body.data });
  }

  it('turning two-step on answers 10 distinct codes; each signs in once in place of a TOTP code', async () => {
    const { codes } = await enrol('codes@example.com');
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const ok = await signInWith('codes@example.com', codes[0]!);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.code, 0);
    const again = await signInWith('codes@example.com', codes[0]!);
    assert.equal(again.status, 401);
    assert.equal(again.body.code, 40022);
    // Typed without the dash and in capitals, a code still works (once).
    const typed = await signInWith('codes@example.com', codes[1]!.replace('-', '').toUpperCase());
    assert.equal(typed.body.code, 0);
    const settings = await api.get<{ recovery_codes_left: number }>('/api/v4/user/setting', { token: ok.body.data.token.access_token });
    assert.equal(settings.body.data.recovery_codes_left, 8);
  });

  it('a new set needs the current password (40069) and voids the old set', async () => {
    const { token, codes } = await enrol('renew@example.com');
    const wrong = await api.post('/api/v4/user/setting/2fa/recovery-codes', { password: 'not-the-password-9' }, { token });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 40069);
    assert.equal((await signInWith('renew@example.com', codes[9]!)).body.code, 0, 'the old set still works until renewed');
    const renewed = await api.post<{ recovery_codes: string[] }>('/api/v4/user/setting/2fa/recovery-codes', { password: PASSWORD }, { token });
    assert.equal(renewed.status, 200, renewed.text);
    const fresh = renewed.body.data.recovery_codes;
    assert.equal(fresh.length, 10);
    assert.equal((await signInWith('renew@example.com', codes[0]!)).body.code, 40022, 'an old code no longer works');
    assert.equal((await signInWith('renew@example.com', fresh[0]!)).body.code, 0);
  });

  it('codes are stored hashed, and turning two-step off removes them', async () => {
    const { token, secret, codes } = await enrol('hashed@example.com');
    const db = server.built.services.db;
    const rows = await sql<{ code_hash: string }>`select code_hash from recovery_codes`.execute(db);
    const stored = rows.rows.map((r) => r.code_hash).join(' ');
    for (const c of codes) {
      assert.ok(!stored.includes(c) && !stored.includes(c.replace('-', '')), 'no code in clear');
    }
    await awayFromStepEdge(4000);
    const off = await api.delete('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep() + 1) }, { token });
    assert.equal(off.status, 200, off.text);
    const user = (await api.get<{ id: string }>('/api/v4/user/me', { token })).body.data;
    const left = await sql<{ n: number }>`select count(*) as n from recovery_codes where user_id = ${user.id}`.execute(db);
    assert.equal(Number(left.rows[0]!.n), 0);
  });

  it('turning two-step on and off, and new codes, each send a notice to the account', async () => {
    const { token, secret } = await enrol('noticed@example.com');
    const on = await smtp.waitFor('noticed@example.com', 1);
    assert.match(on.subject, /Two-step verification turned on/);
    await api.post('/api/v4/user/setting/2fa/recovery-codes', { password: PASSWORD }, { token });
    assert.match((await smtp.waitFor('noticed@example.com', 2)).text, /New recovery codes/);
    await awayFromStepEdge(4000);
    assert.equal((await api.delete('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep() + 1) }, { token })).status, 200);
    assert.match((await smtp.waitFor('noticed@example.com', 3)).subject, /turned off/);
  });

  it('a password change sends a notice to the account', async () => {
    const u = await createUser(api, admin, 'changed-pw@example.com', PASSWORD);
    const res = await api.patch('/api/v4/user/setting', { current_password: PASSWORD, new_password: 'copper-meadow-whistle-97' }, { token: u.token.access_token });
    assert.equal(res.status, 200);
    assert.match((await smtp.waitFor('changed-pw@example.com')).subject, /password was changed/);
  });
});
