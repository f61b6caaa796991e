// Forgotten passwords (api-contract §11), read from the mailbox the way a
// person does: ask, open the mail, follow the link, use it, try it again,
// let it expire.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { injectFetch, startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { ManualClock } from '../../src/core/clock.js';

const STRONG = 'violet-harbor-lantern-42';
const NEW_PASSWORD = 'copper-meadow-whistle-97';

describe('password reset', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  const clock = new ManualClock();
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

  /** Asks for a reset and returns the token from the n-th mail to the address. */
  async function askForLink(email: string, n: number, headers: Record<string, string> = {}): Promise<string> {
    const res = await api.post('/api/v4/user/reset', { email }, { headers });
    assert.equal(res.status, 200, res.text);
    const mail = await smtp.waitFor(email, n);
    const link = linkIn(mail, '/reset');
    assert.equal(link.origin, server.url, 'the link is on CIRRUS_BASE_URL');
    return link.searchParams.get('token')!;
  }

  it('the mail comes with a link; the token sets a new password, ends every session and token, and works once (40020 the second time)', async () => {
    const u = await createUser(api, admin, 'forgetful@example.com', STRONG);
    const token = await askForLink('forgetful@example.com', 1);
    const mail = smtp.to('forgetful@example.com')[0]!;
    assert.match(mail.subject, /Reset your Cirrus password/);
    assert.ok(mail.html.includes('/reset?token='), 'the HTML part has the link too');
    assert.equal((await api.post<{ valid: boolean }>('/api/v4/user/reset/check', { token })).body.data.valid, true);

    const done = await api.patch('/api/v4/user/reset', { token, password: NEW_PASSWORD });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(done.body, { code: 0, data: null, msg: '' });
    // Every session and token of the user ended.
    assert.equal((await api.get('/api/v4/user/me', { token: u.token.access_token })).status, 401);
    assert.equal((await api.post('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token })).status, 401);
    // The old password no longer works, the new one does, and the address counts as verified.
    assert.equal((await api.post('/api/v4/session/token', { email: 'forgetful@example.com', password: STRONG })).status, 401);
    const signed = await signIn(api, 'forgetful@example.com', NEW_PASSWORD);
    assert.equal(signed.user.email, 'forgetful@example.com');
    assert.equal((signed.user as unknown as { email_verified: boolean }).email_verified, true);
    // Single use.
    const again = await api.patch('/api/v4/user/reset', { token, password: 'another-strong-passphrase-8' });
    assert.equal(again.status, 401);
    assert.equal(again.body.code, 40020);
    assert.equal((await api.post<{ valid: boolean }>('/api/v4/user/reset/check', { token })).body.data.valid, false);
    // A notice of the reset goes to the address.
    const notice = await smtp.waitFor('forgetful@example.com', 2);
    assert.match(notice.subject, /password was reset/);
  });

  it('an unknown address gets the same answer and no mail', async () => {
    const before = smtp.messages.length;
    const known = await api.post('/api/v4/user/reset', { email: ADMIN_EMAIL });
    const unknown = await api.post('/api/v4/user/reset', { email: 'nobody-here@example.com' });
    assert.equal(unknown.status, known.status);
    assert.equal(unknown.text, known.text);
    await server.built.services.jobs.idle();
    await server.built.services.jobs.run('mail_outbox');
    await smtp.waitFor(ADMIN_EMAIL);
    assert.equal(smtp.to('nobody-here@example.com').length, 0);
    assert.equal(smtp.messages.length, before + 1);
  });

  it('a link expires after 1 h (40020), and a newer link voids the older one', async () => {
    await createUser(api, admin, 'slow@example.com', STRONG);
    const first = await askForLink('slow@example.com', 1);
    const second = await askForLink('slow@example.com', 2);
    const voided = await api.patch('/api/v4/user/reset', { token: first, password: NEW_PASSWORD });
    assert.equal(voided.status, 401);
    assert.equal(voided.body.code, 40020);
    clock.advance(3600_000 + 1000);
    const expired = await api.patch('/api/v4/user/reset', { token: second, password: NEW_PASSWORD });
    assert.equal(expired.body.code, 40020);
    // The person asks again and the fresh link works.
    const fresh = await askForLink('slow@example.com', 3);
    assert.equal((await api.patch('/api/v4/user/reset', { token: fresh, password: NEW_PASSWORD })).status, 200);
    await signIn(api, 'slow@example.com', NEW_PASSWORD);
    // The hour that passed expired the administrator's access token (1 h)
    // too, unless this ran within the verifier's 30 s leeway of before(): sign in
    // again so that the next tests do not depend on how fast this one ran.
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });

  it('a weak new password is refused with the reason, and the link still works', async () => {
    await createUser(api, admin, 'weak@example.com', STRONG);
    const token = await askForLink('weak@example.com', 1);
    const weak = await api.patch('/api/v4/user/reset', { token, password: 'password1' });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.code, 40001);
    assert.match(weak.body.msg, /too easy to guess.*commonly used/i);
    assert.equal((await api.patch('/api/v4/user/reset', { token, password: NEW_PASSWORD })).status, 200);
  });

  it('bad tokens answer 40020, never 500', async () => {
    for (const token of ['x', 'A'.repeat(43), 'nope-nope']) {
      const res = await api.patch('/api/v4/user/reset', { token, password: NEW_PASSWORD });
      assert.equal(res.status, 401, token);
      assert.equal(res.body.code, 40020);
    }
    assert.equal((await api.patch('/api/v4/user/reset', { token: 'has space', password: NEW_PASSWORD })).status, 400);
  });

  it('the mail is in the language of the person asking (zh-CN), and what users typed stays text in the HTML', async () => {
    assert.equal((await api.patch('/api/v4/admin/settings', { site_name: 'Files <b>&amp;</b>' }, { token: admin })).status, 200);
    await createUser(api, admin, 'zh@example.com', STRONG);
    await askForLink('zh@example.com', 1, { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' });
    const mail = smtp.to('zh@example.com')[0]!;
    assert.match(mail.subject, /重置你的 Files <b>&amp;<\/b> 密码/);
    assert.match(mail.text, /此链接只能使用一次/);
    assert.ok(!mail.html.includes('<b>&amp;</b>'), 'the site name is not markup');
    assert.ok(mail.html.includes('Files &lt;b&gt;&amp;amp;&lt;/b&gt;'));
    assert.equal((await api.patch('/api/v4/admin/settings', { site_name: 'Cirrus' }, { token: admin })).status, 200);
  });

  it('throttled per address (at least 5 an hour) and per client (at least 20), then 429 through the throttle helper', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await api.post('/api/v4/user/reset', { email: 'hammered@example.com' })).status);
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    assert.ok(statuses.includes(429), statuses.join());
    const other = new Api({ url: server.url, fetch: injectFetch(server.built.app, server.url, { remoteAddress: '198.51.100.7' }) });
    const perClient: number[] = [];
    for (let i = 0; i < 24; i++) perClient.push((await other.post('/api/v4/user/reset', { email: `spray-${i}@example.com` })).status);
    assert.ok(perClient.slice(0, 20).every((s) => s === 200), perClient.join());
    assert.ok(perClient.includes(429), perClient.join());
    const limited = await other.post('/api/v4/user/reset', { email: 'spray-last@example.com' });
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));
    // Another client asking for another address is not affected.
    assert.equal((await api.post('/api/v4/user/reset', { email: 'unrelated@example.com' })).status, 200);
  });
});
