// Security changes made with a stolen access token (issue 32, findings 8, 9
// and 14): the thief does not know the password or the TOTP secret, so every
// re-check is a guess and goes through the project's throttle (reserved
// before the check: 5 free wrong guesses, the 6th locks, then 429 with
// Retry-After even for the right answer). Address-change mail is limited
// per account and per address the same way (6 mails, then a doubling lock). The clock is frozen, so no lock runs out
// while a test runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { ManualClock } from '../../src/core/clock.js';
import { totp } from '../foundation/support.js';

const PASSWORD = 'violet-harbor-lantern-42';
const WRONG = 'granite-pelican-orbit-55';
const NEW_PASSWORD = 'copper-meadow-whistle-97';

describe('re-checks and address-change mail are throttled (issue 32: 8, 9, 14)', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  const clock = new ManualClock({ at: Date.UTC(2026, 10, 28, 9, 0, 10) });
  const step = () => Math.floor(clock.now() / 30_000);
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env, { clock });
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  function assertLocked(res: { status: number; headers: Headers; body: { code: number } }, what: string): void {
    assert.equal(res.status, 429, what);
    assert.equal(res.body.code, 429);
    assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After says when to try again');
  }

  it('turning two-step off: 200 parallel guesses check at most 6 codes, then even the right code is refused (429)', async () => {
    const u = await createUser(api, admin, 'totp-off@example.com', PASSWORD);
    const token = u.token.access_token;
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token })).body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step()) }, { token })).status, 200);
    const right = new Set([totp(secret, step() - 1), totp(secret, step()), totp(secret, step() + 1)]);
    const guesses: string[] = [];
    for (let n = 0; guesses.length < 200; n++) {
      const code = String(n * 4973 % 1_000_000).padStart(6, '0');
      if (!right.has(code)) guesses.push(code);
    }
    const answers = await Promise.all(guesses.map((otp) => api.delete('/api/v4/user/setting/2fa', { otp }, { token })));
    const checked = answers.filter((a) => a.status === 401);
    for (const a of checked) assert.equal(a.body.code, 40022);
    assert.ok(checked.length <= 6, `at most 6 codes checked, not ${checked.length}`);
    assert.equal(checked.length + answers.filter((a) => a.status === 429).length, 200, 'every other guess is 429');
    assertLocked(await api.delete('/api/v4/user/setting/2fa', { otp: totp(secret, step() + 1) }, { token }), 'the right code while locked');
    const settings = await api.get<{ two_fa_enabled: boolean }>('/api/v4/user/setting', { token });
    assert.equal(settings.body.data.two_fa_enabled, true, 'two-step is still on');
  });

  it('the sign-in second step and turning two-step off share one count of wrong codes', async () => {
    const u = await createUser(api, admin, 'totp-shared@example.com', PASSWORD);
    const token = u.token.access_token;
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token })).body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step()) }, { token })).status, 200);
    const wrong = totp(secret, step() + 5);
    for (let i = 0; i < 6; i++) assert.equal((await api.delete('/api/v4/user/setting/2fa', { otp: wrong }, { token })).body.code, 40022);
    const first = await api.post<string>('/api/v4/session/token', { email: 'totp-shared@example.com', password: PASSWORD });
    assert.equal(first.body.code, 203);
    assertLocked(await api.post('/api/v4/session/token/2fa', { otp: totp(secret, step() + 1), session_id: first.body.data }), 'the second step is locked too');
  });

  /** Six wrong passwords through `send`, then the right one: 429, and nothing changed. */
  async function lockedAfterSix(send: (password: string) => Promise<{ status: number; headers: Headers; body: { code: number } }>, what: string): Promise<void> {
    for (let i = 0; i < 6; i++) {
      const res = await send(WRONG);
      assert.equal(res.status, 400, `${what}: wrong password #${i + 1}`);
      assert.equal(res.body.code, 40069);
    }
    assertLocked(await send(PASSWORD), `${what}: the right password while locked`);
  }

  it('changing the password: the current password is throttled (finding 9)', async () => {
    const u = await createUser(api, admin, 'pw-change@example.com', PASSWORD);
    await lockedAfterSix((current) => api.patch('/api/v4/user/setting', { current_password: current, new_password: NEW_PASSWORD }, { token: u.token.access_token }), 'password change');
    assert.equal((await api.post('/api/v4/session/token', { email: 'pw-change@example.com', password: NEW_PASSWORD })).status, 401, 'the password did not change');
    // The re-check has its own count: the owner still signs in with the password.
    assert.equal((await signIn(api, 'pw-change@example.com', PASSWORD)).user.email, 'pw-change@example.com');
  });

  it('changing the address: the password is throttled (finding 9)', async () => {
    const u = await createUser(api, admin, 'addr-change@example.com', PASSWORD);
    await lockedAfterSix((password) => api.patch('/api/v4/user/email', { email: 'addr-elsewhere@example.com', password }, { token: u.token.access_token }), 'address change');
    await server.built.services.jobs.run('mail_outbox');
    assert.equal(smtp.to('addr-elsewhere@example.com').length, 0, 'no link went out');
  });

  it('new recovery codes: the password is throttled (finding 9)', async () => {
    const u = await createUser(api, admin, 'codes-again@example.com', PASSWORD);
    const token = u.token.access_token;
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token })).body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step()) }, { token })).status, 200);
    await lockedAfterSix((password) => api.post('/api/v4/user/setting/2fa/recovery-codes', { password }, { token }), 'recovery codes');
  });

  it('PATCH /user/email mails one outside address 6 times at most, from any number of accounts, then 429 behind a doubling lock (finding 14)', async () => {
    const a = await createUser(api, admin, 'mailer-a@example.com', PASSWORD);
    const b = await createUser(api, admin, 'mailer-b@example.com', PASSWORD);
    const to = 'someone-outside@example.net';
    for (const [who, times] of [[a, 3], [b, 3]] as const) {
      for (let i = 0; i < times; i++) assert.equal((await api.patch('/api/v4/user/email', { email: to, password: PASSWORD }, { token: who.token.access_token })).status, 200);
    }
    assertLocked(await api.patch('/api/v4/user/email', { email: to, password: PASSWORD }, { token: b.token.access_token }), 'the 7th mail to one address');
    await server.built.services.jobs.run('mail_outbox');
    await smtp.waitFor(to, 6);
    await server.built.services.jobs.idle();
    assert.equal(smtp.to(to).length, 6, 'no 7th mail');
  });

  it('PATCH /user/email: one account mails 6 addresses at most, then 429 (finding 14)', async () => {
    const c = await createUser(api, admin, 'mailer-c@example.com', PASSWORD);
    for (let i = 0; i < 6; i++) {
      const res = await api.patch('/api/v4/user/email', { email: `spray-${i}@example.net`, password: PASSWORD }, { token: c.token.access_token });
      assert.equal(res.status, 200, res.text);
    }
    assertLocked(await api.patch('/api/v4/user/email', { email: 'spray-6@example.net', password: PASSWORD }, { token: c.token.access_token }), 'the 7th address');
    await server.built.services.jobs.run('mail_outbox');
    assert.equal(smtp.to('spray-6@example.net').length, 0);
  });
});
