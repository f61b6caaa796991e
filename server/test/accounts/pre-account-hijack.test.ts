// Pre-account hijacking (issue 32, finding 4). With sign-up open and
// activation off, an attacker registers the victim's address and adds a
// passkey, a WebDAV password, an OAuth grant and two-step verification. The
// victim later takes the account over with a reset link from their mailbox:
// that link is the first proof of the address, so everything made before it
// must stop working, and the reset-done mail says what remains. An account
// whose address was already verified keeps its credentials (and the mail
// lists them). Real SMTP sink, software WebAuthn authenticator, WebDAV Basic.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { INJECT_ORIGIN, startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { SoftAuthenticator } from '../helpers/webauthn.js';
import { ManualClock } from '../../src/core/clock.js';
import { totp } from '../foundation/support.js';
import { approve, createApp, exchange } from '../oauth/helpers.js';
import { basicHeader, dav } from '../webdav/helpers.js';

const ATTACKER_PASSWORD = 'granite-pelican-orbit-55';
const VICTIM_PASSWORD = 'copper-meadow-whistle-97';
const RP_ID = new URL(INJECT_ORIGIN).hostname;

describe('pre-account hijacking (issue 32, finding 4)', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let smtp: MailCatcher;
  const clock = new ManualClock({ at: Date.now() });
  const step = () => Math.floor(clock.now() / 30_000);
  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env, { clock });
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    assert.equal((await api.patch('/api/v4/admin/settings', { signup_enabled: true, signup_email_verification: false }, { token: admin })).status, 200);
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  /** Signs in with `password` and adds every kind of credential; answers what is needed to try them later. */
  async function plant(email: string, password: string) {
    const token = (await signIn(api, email, password)).token.access_token;
    const key = new SoftAuthenticator(RP_ID, INJECT_ORIGIN);
    const opts = await api.put<{ challenge: string; user: { id: string } }>('/api/v4/user/authn', undefined, { token });
    const added = await api.post('/api/v4/user/authn', { response: key.create(opts.body.data), name: 'Planted key', password }, { token });
    assert.equal(added.status, 200, added.text);
    const webdav = await api.put<{ password: string }>('/api/v4/devices/dav', { name: 'Planted WebDAV' }, { token });
    assert.equal(webdav.status, 200, webdav.text);
    const ctx = { server, api, adminToken: admin };
    const app = await createApp(ctx, { name: `Planted app ${email}` });
    const tokens = await exchange(ctx, app, await approve(ctx, token, app));
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token })).body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, step()) }, { token })).status, 200);
    return { key, davPassword: webdav.body.data.password, refresh: (tokens.body as { refresh_token: string }).refresh_token, app };
  }

  /** The first mail to `email` whose subject matches (notices of the planting arrive too, in any order). */
  async function mailLike(email: string, subject: RegExp) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = smtp.to(email).find((m) => subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${email}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function resetByMail(email: string, password: string): Promise<string> {
    assert.equal((await api.post('/api/v4/user/reset', { email })).status, 200);
    const token = linkIn(await mailLike(email, /Reset your/), '/reset').searchParams.get('token');
    const done = await api.patch('/api/v4/user/reset', { token, password });
    assert.equal(done.status, 200, done.text);
    return (await mailLike(email, /password was reset/)).text;
  }

  async function passkeySignIn(key: SoftAuthenticator) {
    const start = await api.put<{ id: string; options: { challenge: string } }>('/api/v4/session/authn');
    return api.post('/api/v4/session/authn', { id: start.body.data.id, response: key.get(start.body.data.options) });
  }

  it('a reset that first proves the address ends every credential made before it; the mail says nothing remains', async () => {
    const up = await api.post('/api/v4/user', { email: 'victim@example.com', password: ATTACKER_PASSWORD });
    assert.equal(up.status, 200, up.text);
    const planted = await plant('victim@example.com', ATTACKER_PASSWORD);
    // Before the reset, each of them works.
    assert.equal((await passkeySignIn(planted.key)).status, 200);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', basicHeader('victim@example.com', planted.davPassword), { headers: { depth: '0' } })).status, 207);

    const mail = await resetByMail('victim@example.com', VICTIM_PASSWORD);

    const key = await passkeySignIn(planted.key);
    assert.equal(key.status, 400, `the planted passkey no longer signs in: ${key.text}`);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', basicHeader('victim@example.com', planted.davPassword), { headers: { depth: '0' } })).status, 401, 'the planted WebDAV password no longer works');
    const ctx = { server, api, adminToken: admin };
    const refreshed = await ctx.api.raw('POST', '/api/v4/session/oauth/token', {
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: planted.refresh, client_id: planted.app.id, client_secret: planted.app.secret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(refreshed.status, 400, 'the planted app cannot refresh');
    // The victim signs in with the new password alone: the planted two-step is gone.
    const victim = await signIn(api, 'victim@example.com', VICTIM_PASSWORD);
    const settings = await api.get<{ two_fa_enabled: boolean; oauth_grants: unknown[] }>('/api/v4/user/setting', { token: victim.token.access_token });
    assert.equal(settings.body.data.two_fa_enabled, false);
    assert.deepEqual(settings.body.data.oauth_grants, []);
    assert.deepEqual((await api.get<unknown[]>('/api/v4/user/authn', { token: victim.token.access_token })).body.data, []);
    assert.deepEqual((await api.get<{ accounts: unknown[] }>('/api/v4/devices/dav', { token: victim.token.access_token })).body.data.accounts, []);
    // The notice says what happened and what remains.
    assert.match(mail, /first proof that this address is yours/);
    assert.match(mail, /Passkeys: none\./);
    assert.match(mail, /WebDAV passwords: none\./);
    assert.match(mail, /Connected apps: none\./);
    assert.match(mail, /Two-step verification: off\./);
  });

  it('an account whose address was already verified keeps its credentials through a reset, and the mail lists them', async () => {
    await createUser(api, admin, 'owner@example.com', ATTACKER_PASSWORD);
    // The address is proven first (a verification link from the mailbox).
    const owner = (await signIn(api, 'owner@example.com', ATTACKER_PASSWORD)).token.access_token;
    assert.equal((await api.post('/api/v4/user/email/verify', undefined, { token: owner })).status, 200);
    const verify = linkIn(await mailLike('owner@example.com', /Confirm|Verify|verify|confirm/), '/verify-email').searchParams.get('token');
    assert.equal((await api.post('/api/v4/user/email/confirm', { token: verify })).status, 200);
    const planted = await plant('owner@example.com', ATTACKER_PASSWORD);
    const notice = await resetByMail('owner@example.com', VICTIM_PASSWORD);
    assert.equal((await passkeySignIn(planted.key)).status, 200, 'the passkey still signs in');
    assert.doesNotMatch(notice, /first proof/);
    assert.match(notice, /Passkeys: Planted key\./);
    assert.match(notice, /WebDAV passwords: Planted WebDAV\./);
    assert.match(notice, /Connected apps: Planted app owner@example\.com\./);
    assert.match(notice, /Two-step verification: on\./);
  });
});
