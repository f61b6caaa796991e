// Addresses (api-contract §11): sign-up with activation (40018 before it),
// verification, and changing the address; read from the mailbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { ManualClock } from '../../src/core/clock.js';

const PASSWORD = 'violet-harbor-lantern-42';

interface Me {
  email: string;
  status: string;
  email_verified: boolean;
}

describe('addresses', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  const clock = new ManualClock();
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer({ ...smtp.env, CIRRUS_SIGNUP_EMAIL_VERIFICATION: 'true' }, { clock });
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    assert.equal((await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: admin })).status, 200);
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  it('sign-up with activation: inactive until the link, 403/40018 at sign-in, the link signs in once', async () => {
    const settings = await api.get<{ signup_email_verification: boolean }>('/api/v4/admin/settings', { token: admin });
    assert.equal(settings.body.data.signup_email_verification, true, 'CIRRUS_SIGNUP_EMAIL_VERIFICATION is the default');
    const up = await api.post<Me>('/api/v4/user', { email: 'newbie@example.com', password: PASSWORD });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.body.data.status, 'inactive');
    const early = await api.post<{ email: string }>('/api/v4/session/token', { email: 'newbie@example.com', password: PASSWORD });
    assert.equal(early.status, 403);
    assert.equal(early.body.code, 40018);
    assert.equal(early.body.data.email, 'newbie@example.com');
    // A wrong password still says only "wrong e-mail or password".
    assert.equal((await api.post('/api/v4/session/token', { email: 'newbie@example.com', password: 'copper-meadow-whistle-97' })).body.code, 40080);

    const mail = await smtp.waitFor('newbie@example.com');
    assert.match(mail.subject, /Activate your Cirrus account/);
    // Resend: the same answer for an unknown address; a new link voids the first.
    const resend = await api.post('/api/v4/user/activate/resend', { email: 'newbie@example.com' });
    const unknown = await api.post('/api/v4/user/activate/resend', { email: 'never-signed-up@example.com' });
    assert.equal(resend.text, unknown.text);
    const second = await smtp.waitFor('newbie@example.com', 2);
    const firstToken = linkIn(mail, '/activate').searchParams.get('token');
    assert.equal((await api.post('/api/v4/user/activate', { token: firstToken })).body.code, 40020, 'voided by the newer link');
    const token = linkIn(second, '/activate').searchParams.get('token');
    const done = await api.post<{ user: Me; token: { access_token: string } }>('/api/v4/user/activate', { token });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.data.user.status, 'active');
    assert.equal(done.body.data.user.email_verified, true);
    assert.ok(done.headers.get('set-cookie'), 'the device cookie, as at sign-in');
    const me = await api.get<Me>('/api/v4/user/me', { token: done.body.data.token.access_token });
    assert.equal(me.body.data.email_verified, true);
    assert.equal((await api.post('/api/v4/user/activate', { token })).body.code, 40020, 'single use');
    await signIn(api, 'newbie@example.com', PASSWORD);
    assert.equal(smtp.to('never-signed-up@example.com').length, 0);
  });

  it('an activation link expires after 24 h', async () => {
    await api.post('/api/v4/user', { email: 'late@example.com', password: PASSWORD });
    const token = linkIn(await smtp.waitFor('late@example.com'), '/activate').searchParams.get('token');
    clock.advance(24 * 3600_000 + 1000);
    assert.equal((await api.post('/api/v4/user/activate', { token })).body.code, 40020);
    // The clock moved past the administrator's access token.
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });

  it('verify my address: the link marks it verified in /user/me and userinfo', async () => {
    const u = await createUser(api, admin, 'verify-me@example.com', PASSWORD);
    assert.equal((await api.get<Me>('/api/v4/user/me', { token: u.token.access_token })).body.data.email_verified, false);
    const info0 = await api.get<{ email_verified: boolean }>('/api/v4/session/oauth/userinfo', { token: u.token.access_token });
    assert.equal(info0.status, 200, info0.text);
    assert.equal((info0.body as unknown as { email_verified: boolean }).email_verified, false);
    assert.equal((await api.post('/api/v4/user/email/verify', undefined, { token: u.token.access_token })).status, 200);
    const link = linkIn(await smtp.waitFor('verify-me@example.com'), '/verify-email');
    const confirmed = await api.post<Me>('/api/v4/user/email/confirm', { token: link.searchParams.get('token') });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.data.email_verified, true);
    assert.equal((await api.get<Me>('/api/v4/user/me', { token: u.token.access_token })).body.data.email_verified, true);
    const info = await api.get('/api/v4/session/oauth/userinfo', { token: u.token.access_token });
    assert.equal((info.body as unknown as { email_verified: boolean }).email_verified, true);
    assert.equal((await api.post('/api/v4/user/email/confirm', { token: link.searchParams.get('token') })).body.code, 40020);
  });

  it('changing the address: password required, confirmed at the new address, a notice to the old, 40032 when taken at either moment', async () => {
    const u = await createUser(api, admin, 'mover@example.com', PASSWORD);
    const t = u.token.access_token;
    assert.equal((await api.patch('/api/v4/user/email', { email: 'moved@example.com', password: 'copper-meadow-whistle-97' }, { token: t })).body.code, 40069);
    const taken = await api.patch('/api/v4/user/email', { email: ADMIN_EMAIL, password: PASSWORD }, { token: t });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 40032);
    assert.equal((await api.patch('/api/v4/user/email', { email: 'Moved@Example.com', password: PASSWORD }, { token: t })).status, 200);
    const notice = await smtp.waitFor('mover@example.com');
    assert.match(notice.text, /moved@example\.com/);
    assert.equal((await api.get<Me>('/api/v4/user/me', { token: t })).body.data.email, 'mover@example.com', 'unchanged until confirmed');
    const link = linkIn(await smtp.waitFor('moved@example.com'), '/verify-email');
    const done = await api.post<Me>('/api/v4/user/email/confirm', { token: link.searchParams.get('token') });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.data.email, 'moved@example.com');
    assert.equal(done.body.data.email_verified, true);
    await signIn(api, 'moved@example.com', PASSWORD);
    assert.equal((await api.post('/api/v4/session/token', { email: 'mover@example.com', password: PASSWORD })).status, 401);

    // Taken between the request and the confirmation.
    assert.equal((await api.patch('/api/v4/user/email', { email: 'contested@example.com', password: PASSWORD }, { token: (await signIn(api, 'moved@example.com', PASSWORD)).token.access_token })).status, 200);
    const contested = linkIn(await smtp.waitFor('contested@example.com'), '/verify-email');
    await createUser(api, admin, 'contested@example.com', PASSWORD);
    const late = await api.post('/api/v4/user/email/confirm', { token: contested.searchParams.get('token') });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 40032);
  });
});
