// Mail (api-contract §11): the SMTP transport from the environment or the
// dashboard, the test message, and the outbox that loses no message: a real
// SMTP server runs in this process and is stopped and started again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { ManualClock } from '../../src/core/clock.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshDatabase, type FreshDatabase } from '../foundation/support.js';

interface MailStatus {
  configured: boolean;
  queued: number;
  sent: number;
  failed: number;
}

describe('mail: no transport configured', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  it('the site config tells the web app that mail is off, and flows that need mail answer 403/40019', async () => {
    const config = await api.get<{ mail_enabled: boolean }>('/api/v4/site/config');
    assert.equal(config.body.data.mail_enabled, false);
    const reset = await api.post('/api/v4/user/reset', { email: ADMIN_EMAIL });
    assert.equal(reset.status, 403);
    assert.equal(reset.body.code, 40019);
    const test = await api.post('/api/v4/admin/mail/test', { to: 'someone@example.com' }, { token: admin });
    assert.equal(test.status, 403);
    assert.equal(test.body.code, 40019);
    const status = await api.get<MailStatus>('/api/v4/admin/mail', { token: admin });
    assert.deepEqual(status.body.data, { configured: false, queued: 0, sent: 0, failed: 0 });
  });
});

describe('mail: Dashboard → Settings → E-mail', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer();
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  it('the transport set in the dashboard works, and the SMTP password is write-only (never in an answer)', async () => {
    const secret = 'smtp-secret-value-1234';
    const patch = await api.patch<Record<string, unknown>>(
      '/api/v4/admin/settings',
      { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', smtp_password: secret, mail_from: 'Files <files@example.org>' },
      { token: admin },
    );
    assert.equal(patch.status, 200, patch.text);
    assert.ok(!patch.text.includes(secret));
    assert.equal(patch.body.data.smtp_password_set, true);
    assert.equal('smtp_password' in patch.body.data, false);
    const read = await api.get<Record<string, unknown>>('/api/v4/admin/settings', { token: admin });
    assert.ok(!read.text.includes(secret));
    assert.equal(read.body.data.smtp_host, '127.0.0.1');
    assert.equal(read.body.data.smtp_password_set, true);
    assert.equal((await api.get<{ mail_enabled: boolean }>('/api/v4/site/config')).body.data.mail_enabled, true);
    // The password is sent only when a user is set; with no user, the server (no AUTH) accepts the message.
    const test = await api.post<{ sent: boolean; response: string }>('/api/v4/admin/mail/test', { to: 'ops@example.com' }, { token: admin });
    assert.equal(test.status, 200, test.text);
    assert.equal(test.body.data.sent, true);
    assert.match(test.body.data.response, /^250\b/);
    const mail = await smtp.waitFor('ops@example.com');
    assert.match(mail.from, /files@example\.org/);
    assert.match(mail.subject, /Test message from Cirrus/);
    assert.ok(mail.text.length > 0 && mail.html.length > 0, 'a text and an HTML part');
  });

  it("the test message answers with the SMTP server's error when it refuses", async () => {
    const test = await api.post<{ sent: boolean; response: string }>('/api/v4/admin/mail/test', { to: 'reject-me@example.com' }, { token: admin });
    assert.equal(test.status, 200);
    assert.equal(test.body.data.sent, false);
    assert.match(test.body.data.response, /550/);
  });

  it('a line break in a sender or recipient (header injection) is refused with 400 and nothing changes', async () => {
    for (const mail_from of ['Evil <a@example.org>\r\nBcc: victim@example.com', 'x@example.org\nSubject: hi', 'Two <a@example.org>, <b@example.org>']) {
      const res = await api.patch('/api/v4/admin/settings', { mail_from }, { token: admin });
      assert.equal(res.status, 400, mail_from);
      assert.equal(res.body.code, 40001);
    }
    const res = await api.post('/api/v4/admin/mail/test', { to: 'ops@example.com\r\nBcc: victim@example.com' }, { token: admin });
    assert.equal(res.status, 400);
    const nick = await api.post('/api/v4/admin/user', {}, { token: admin }); // list: the site still answers
    assert.equal(nick.status, 200);
    const u = await createUser(api, admin, 'nick-inject@example.com', 'violet-harbor-lantern-42');
    const badNick = await api.patch('/api/v4/user/setting', { nickname: 'Bob\r\nBcc: victim@example.com' }, { token: u.token.access_token });
    assert.equal(badNick.status, 400);
    assert.equal((await api.get<{ mail_from: string }>('/api/v4/admin/settings', { token: admin })).body.data.mail_from, 'Files <files@example.org>');
  });

  it('only administrators see the outbox or send test messages', async () => {
    const u = await createUser(api, admin, 'not-admin-mail@example.com', 'violet-harbor-lantern-42');
    assert.equal((await api.get('/api/v4/admin/mail', { token: u.token.access_token })).status, 403);
    assert.equal((await api.post('/api/v4/admin/mail/test', { to: 'x@example.com' }, { token: u.token.access_token })).status, 403);
  });
});

describe('mail: the outbox loses no message and sends none twice', () => {
  let db: FreshDatabase;
  let smtp: MailCatcher;
  const clock = new ManualClock();
  before(async () => {
    db = await freshDatabase();
    smtp = await MailCatcher.start();
  });
  after(async () => {
    await smtp.stop();
    await db.drop();
  });

  /** A Cirrus instance on the shared database (a restart is a new one). */
  async function instance() {
    const config = loadConfig({
      CIRRUS_PORT: '0',
      CIRRUS_HOST: '127.0.0.1',
      CIRRUS_BASE_URL: 'http://cirrus.invalid',
      CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
      CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CIRRUS_LOG_LEVEL: 'silent',
      ...db.env,
      ...smtp.env,
    });
    const built = await buildApp(config, { clock, logger: false });
    await built.app.ready();
    const { injectFetch } = await import('../helpers/inject.js');
    const api = new Api({ url: 'http://cirrus.invalid', fetch: injectFetch(built.app, 'http://cirrus.invalid') });
    return { built, api, deliver: () => built.services.jobs.run('mail_outbox'), idle: () => built.services.jobs.idle() };
  }

  it('SMTP down, a reset asked for, Cirrus restarted, SMTP back: the mail arrives exactly once', async () => {
    await smtp.stop();
    const first = await instance();
    const admin = (await signIn(first.api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await first.api.post('/api/v4/user/reset', { email: ADMIN_EMAIL });
    assert.equal(res.status, 200);
    await first.idle();
    await first.deliver(); // refused: SMTP is down
    let status = (await first.api.get<MailStatus>('/api/v4/admin/mail', { token: admin })).body.data;
    assert.equal(status.queued, 1);
    assert.equal(status.sent, 0);
    await first.built.app.close();

    const second = await instance();
    await smtp.resume();
    await second.deliver();
    assert.equal(smtp.to(ADMIN_EMAIL).length, 0, 'the retry waits for its time (backing off), not for the restart');
    clock.advance(60_000); // the first retry comes within 60 s
    await second.deliver();
    const mail = await smtp.waitFor(ADMIN_EMAIL);
    assert.match(mail.subject, /Reset your Cirrus password/);
    linkIn(mail, '/reset');
    clock.advance(3600_000);
    await second.deliver();
    await second.deliver();
    assert.equal(smtp.to(ADMIN_EMAIL).length, 1, 'sent once');
    status = (await second.api.get<MailStatus>('/api/v4/admin/mail', { token: (await signIn(second.api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token })).body.data;
    assert.equal(status.sent, 1);
    assert.equal(status.queued, 0);
    await second.built.app.close();
  });

  it('two instances sending from one outbox at once send each message once', async () => {
    const a = await instance();
    const b = await instance();
    const admin = (await signIn(a.api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await smtp.stop();
    const addresses = Array.from({ length: 8 }, (_, i) => `pair-${i}@example.com`);
    for (const email of addresses) await createUser(a.api, admin, email, 'violet-harbor-lantern-42');
    for (const email of addresses) assert.equal((await b.api.post('/api/v4/user/reset', { email })).status, 200);
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.deliver(), b.deliver()]); // all refused
    await smtp.resume();
    clock.advance(60_000);
    await Promise.all([a.deliver(), b.deliver(), a.deliver(), b.deliver()]);
    for (const email of addresses) await smtp.waitFor(email);
    clock.advance(3600_000);
    await Promise.all([a.deliver(), b.deliver()]);
    for (const email of addresses) assert.equal(smtp.to(email).length, 1, email);
    const ids = smtp.messages.map((m) => m.messageId);
    assert.equal(new Set(ids).size, ids.length, 'no Message-ID twice');
    await a.built.app.close();
    await b.built.app.close();
  });

  it('a message is retried for at least 24 h, then counted as failed', async () => {
    const one = await instance();
    // Signed in again for each look: the clock moves past the access token's hour.
    const status = async () => (await one.api.get<MailStatus>('/api/v4/admin/mail', { token: (await signIn(one.api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token })).body.data;
    await smtp.stop();
    const before = await status();
    assert.equal((await one.api.post('/api/v4/user/reset', { email: 'pair-0@example.com' })).status, 200);
    await one.idle();
    for (let hours = 0; hours < 23; hours++) {
      clock.advance(3600_000);
      await one.deliver();
    }
    let now = await status();
    assert.equal(now.queued, before.queued + 1, 'still queued after 23 h');
    assert.equal(now.failed, before.failed);
    clock.advance(2 * 3600_000);
    await one.deliver();
    now = await status();
    assert.equal(now.failed, before.failed + 1, 'given up after 24 h');
    assert.equal(now.queued, before.queued);
    await smtp.resume();
    await one.built.app.close();
  });
});
