// Mailed links do not outlive the password or the address they were sent
// under (issue 32, findings 3 and 11): whoever reads an old mailbox, or a
// mail from before a password change, must not take the account. Read from
// a real SMTP sink, used the way a person (or an attacker) would.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';

const PASSWORD = 'violet-harbor-lantern-42';
const NEW_PASSWORD = 'copper-meadow-whistle-97';
const ATTACKER_PASSWORD = 'granite-pelican-orbit-55';

describe('mailed links and later changes (issue 32: 3, 11)', () => {
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

  const resetMails = (email: string) => smtp.to(email).filter((m) => /Reset your/.test(m.subject));

  /** Asks for a reset and waits for its mail (notices to the same address may arrive in between). */
  async function resetLink(email: string): Promise<string> {
    const n = resetMails(email).length;
    assert.equal((await api.post('/api/v4/user/reset', { email })).status, 200);
    // The outbox sends within a second or two; 30 s is for a loaded machine, not a target.
    const deadline = Date.now() + 30_000;
    while (resetMails(email).length <= n) {
      if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return linkIn(resetMails(email)[n]!, '/reset').searchParams.get('token')!;
  }

  /** A link used after it was voided: the same answer as an expired one (401/40020), and nothing changes. */
  async function assertRefused(token: string, email: string, password: string): Promise<void> {
    assert.equal((await api.post<{ valid: boolean }>('/api/v4/user/reset/check', { token })).body.data.valid, false, 'the page says the link no longer works');
    const used = await api.patch('/api/v4/user/reset', { token, password: ATTACKER_PASSWORD });
    assert.equal(used.status, 401, used.text);
    assert.equal(used.body.code, 40020);
    assert.match(used.body.msg, /invalid, has been used or has expired/);
    assert.equal((await api.post('/api/v4/session/token', { email, password: ATTACKER_PASSWORD })).status, 401, "the attacker's password was not set");
    assert.equal((await signIn(api, email, password)).user.email, email, "the owner's password still works");
  }

  it('a reset link mailed to the old address is refused after the address changed (finding 3)', async () => {
    const u = await createUser(api, admin, 'old-box@example.com', PASSWORD);
    const stale = await resetLink('old-box@example.com');
    // The owner moves to a new address (confirmed from the new mailbox).
    assert.equal((await api.patch('/api/v4/user/email', { email: 'new-box@example.com', password: PASSWORD }, { token: u.token.access_token })).status, 200);
    const confirm = linkIn(await smtp.waitFor('new-box@example.com'), '/verify-email').searchParams.get('token');
    assert.equal((await api.post('/api/v4/user/email/confirm', { token: confirm })).status, 200);
    await assertRefused(stale, 'new-box@example.com', PASSWORD);
  });

  it('a reset link is refused when its address is no longer the account\'s, even if it was issued after the change began', async () => {
    const u = await createUser(api, admin, 'drifting@example.com', PASSWORD);
    assert.equal((await api.patch('/api/v4/user/email', { email: 'drifted@example.com', password: PASSWORD }, { token: u.token.access_token })).status, 200);
    // Issued while the address was still the old one; confirmed afterwards.
    const stale = await resetLink('drifting@example.com');
    const confirm = linkIn(await smtp.waitFor('drifted@example.com'), '/verify-email').searchParams.get('token');
    assert.equal((await api.post('/api/v4/user/email/confirm', { token: confirm })).status, 200);
    await assertRefused(stale, 'drifted@example.com', PASSWORD);
  });

  it('a reset link mailed before a password change is refused after it (finding 11)', async () => {
    const u = await createUser(api, admin, 'changer@example.com', PASSWORD);
    const stale = await resetLink('changer@example.com');
    const changed = await api.patch('/api/v4/user/setting', { current_password: PASSWORD, new_password: NEW_PASSWORD }, { token: u.token.access_token });
    assert.equal(changed.status, 200, changed.text);
    await assertRefused(stale, 'changer@example.com', NEW_PASSWORD);
    // A link asked for after the change works.
    const fresh = await resetLink('changer@example.com');
    assert.equal((await api.patch('/api/v4/user/reset', { token: fresh, password: ATTACKER_PASSWORD })).status, 200);
  });

  it("an administrator's password reset voids the links too", async () => {
    const u = await createUser(api, admin, 'admin-reset@example.com', PASSWORD);
    const stale = await resetLink('admin-reset@example.com');
    const reset = await api.put(`/api/v4/admin/user/${u.user.id}`, { password: NEW_PASSWORD }, { token: admin });
    assert.equal(reset.status, 200, reset.text);
    await assertRefused(stale, 'admin-reset@example.com', NEW_PASSWORD);
  });

  it('a reset voids the address-change link asked for before it', async () => {
    const u = await createUser(api, admin, 'two-links@example.com', PASSWORD);
    assert.equal((await api.patch('/api/v4/user/email', { email: 'two-links-new@example.com', password: PASSWORD }, { token: u.token.access_token })).status, 200);
    const change = linkIn(await smtp.waitFor('two-links-new@example.com'), '/verify-email').searchParams.get('token');
    const reset = await resetLink('two-links@example.com');
    assert.equal((await api.patch('/api/v4/user/reset', { token: reset, password: NEW_PASSWORD })).status, 200);
    const late = await api.post('/api/v4/user/email/confirm', { token: change });
    assert.equal(late.status, 401, late.text);
    assert.equal(late.body.code, 40020);
    assert.equal((await signIn(api, 'two-links@example.com', NEW_PASSWORD)).user.email, 'two-links@example.com', 'the address did not move');
  });
});
