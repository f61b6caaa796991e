// Notifications through the public API (issue 37, api-contract §17), with a
// real SMTP sink: three people with different mail preferences receive
// exactly the mails they chose (instant, the daily digest, off), a share
// makes one mail and not two (the notification's mail replaced §13's), and
// every kind is raised where its event happens. Bad input: someone else's
// notification is 404, malformed preferences 400.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';

interface Note {
  id: string;
  type: string;
  at: string;
  read: boolean;
  data: Record<string, unknown>;
}
interface Page {
  items: Note[];
  unread: number;
  cursor: string | null;
}
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notifications', () => {
  let server: InjectedServer;
  let api: Api;
  let smtp: MailCatcher;
  let admin: string;
  const tag = `${process.pid}-${Date.now()}`;
  const people = { alice: `n-alice-${tag}@example.com`, bob: `n-bob-${tag}@example.com`, carol: `n-carol-${tag}@example.com` };
  const token: Record<keyof typeof people, string> = { alice: '', bob: '', carol: '' };
  const id: Record<keyof typeof people, string> = { alice: '', bob: '', carol: '' };

  before(async () => {
    smtp = await MailCatcher.start();
    server = await startInjectedServer(smtp.env);
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    for (const who of Object.keys(people) as (keyof typeof people)[]) {
      const u = await createUser(api, admin, people[who]);
      token[who] = u.token.access_token;
      id[who] = u.user.id;
    }
  });
  after(async () => {
    await server.close();
    await smtp.stop();
  });

  const list = async (who: keyof typeof people) => {
    const res = await api.get<Page>('/api/v4/notifications', { token: token[who] });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  /** Waits until `who` has a notification of `type` (some are raised after the answer). */
  const waitFor = async (who: keyof typeof people, type: string, n = 1) => {
    for (let i = 0; i < 100; i++) {
      const found = (await list(who)).items.filter((x) => x.type === type);
      if (found.length >= n) return found;
      await sleep(50);
    }
    assert.fail(`${who} got no ${type} #${n}`);
  };
  /** Lets the outbox send what it queued (it sends at once), then counts. */
  const settled = async () => {
    await server.built.services.jobs.run('mail_outbox');
    await sleep(300);
  };

  it('preferences: the defaults, a change answers all kinds, malformed ones are 400 with the envelope', async () => {
    const defaults = await api.get<Record<string, { web: boolean; email: string }>>('/api/v4/user/setting/notifications', { token: token.carol });
    assert.equal(defaults.status, 200);
    assert.deepEqual(defaults.body.data.shared_with_me, { web: true, email: 'instant' });
    assert.deepEqual(defaults.body.data.link_downloaded, { web: true, email: 'off' });
    assert.equal(Object.keys(defaults.body.data).length, 7);
    const changed = await api.patch<Record<string, { web: boolean; email: string }>>('/api/v4/user/setting/notifications', { shared_with_me: { email: 'daily' } }, { token: token.carol });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body.data.shared_with_me, { web: true, email: 'daily' });
    assert.deepEqual(changed.body.data.quota_almost_full, { web: true, email: 'instant' });
    const off = await api.patch('/api/v4/user/setting/notifications', { upload_request_received: { email: 'off' }, link_downloaded: { web: true } }, { token: token.alice });
    assert.equal(off.status, 200, off.text);
    for (const bad of [{ shared_with_me: { email: 'weekly' } }, { no_such_kind: { web: true } }, {}, { shared_with_me: {} }, { shared_with_me: { web: 'yes' } }, { shared_with_me: { web: true, extra: 1 } }]) {
      const res = await api.patch<unknown>('/api/v4/user/setting/notifications', bad, { token: token.bob });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.equal(typeof res.body.code, 'number');
      assert.equal(typeof res.body.msg, 'string');
    }
    // Nothing of the refused changes stuck.
    assert.deepEqual((await api.get<Record<string, unknown>>('/api/v4/user/setting/notifications', { token: token.bob })).body.data.shared_with_me, { web: true, email: 'instant' });
  });

  it('a share: one mail for the instant reader (not two), none yet for the daily one, a notice for both; a re-grant says nothing new', async () => {
    assert.equal((await api.post('/api/v4/file/create', { path: '/Project', type: 'folder' }, { token: token.alice })).status, 200);
    for (const [who, permission] of [['bob', 'read'], ['carol', 'write']] as const) {
      const res = await api.put('/api/v4/file/access', { path: '/Project', user: people[who], permission }, { token: token.alice });
      assert.equal(res.status, 200, res.text);
    }
    await smtp.waitFor(people.bob);
    await settled();
    const bobMails = smtp.to(people.bob);
    assert.equal(bobMails.length, 1, bobMails.map((m) => m.subject).join(' | '));
    assert.match(bobMails[0]!.subject, /shared "Project" with you/);
    assert.match(bobMails[0]!.text, /\/shared/);
    assert.equal(smtp.to(people.carol).length, 0, 'daily: nothing until the digest');
    for (const who of ['bob', 'carol'] as const) {
      const page = await list(who);
      const shared = page.items.filter((n) => n.type === 'shared_with_me');
      assert.equal(shared.length, 1);
      assert.equal(shared[0]!.data.name, 'Project');
      assert.equal(shared[0]!.data.link, '/shared');
      assert.equal(shared[0]!.read, false);
      assert.ok(page.unread >= 1);
    }
    // Revoke and grant again within the period: no new notice, no new mail (issue 32).
    const grants = await api.get<{ id: string; user?: { email: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent('/Project')}`, { token: token.alice });
    const bobGrant = grants.body.data.find((g) => g.user?.email === people.bob)!;
    assert.equal((await api.delete(`/api/v4/file/access/${bobGrant.id}`, undefined, { token: token.alice })).status, 200);
    assert.equal((await api.put('/api/v4/file/access', { path: '/Project', user: people.bob, permission: 'read' }, { token: token.alice })).status, 200);
    await settled();
    assert.equal(smtp.to(people.bob).length, 1);
    assert.equal((await list('bob')).items.filter((n) => n.type === 'shared_with_me').length, 1);
  });

  it('an upload request: the owner is notified in the app, and not mailed when their mail preference is off', async () => {
    assert.equal((await api.post('/api/v4/file/create', { path: '/Inbox', type: 'folder' }, { token: token.alice })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/Inbox', upload_only: true }, { token: token.alice });
    const created = await server.fetch(`/api/v4/share/upload/${share.body.data.id}`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '5', 'upload-metadata': `filename ${b64('scan.pdf')},uploader ${b64('Jordan')}` },
    });
    assert.equal(created.status, 201);
    const done = await server.fetch(created.headers.get('location')!, { method: 'PATCH', headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'hello' });
    assert.equal(done.status, 204);
    await server.built.services.jobs.run('upload_request_notices');
    const [n] = await waitFor('alice', 'upload_request_received');
    assert.equal(n!.data.count, 1);
    assert.deepEqual(n!.data.files, ['scan.pdf (Jordan)']);
    assert.equal(n!.data.link, '/files/Inbox');
    await settled();
    assert.equal(smtp.to(people.alice).length, 0, 'off: no mail');
  });

  it('link downloads notify only when the link asks for it', async () => {
    assert.equal((await api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/report.txt')}`, { token: token.alice, body: 'report', headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    const quiet = await api.put<{ id: string; notify_downloads: boolean }>('/api/v4/share', { path: '/report.txt' }, { token: token.alice });
    assert.equal(quiet.body.data.notify_downloads, false);
    const loud = await api.put<{ id: string; notify_downloads: boolean }>('/api/v4/share', { path: '/report.txt', notify_downloads: true }, { token: token.alice });
    assert.equal(loud.body.data.notify_downloads, true);
    assert.equal((await (await server.fetch(`/s/${quiet.body.data.id}`)).text()), 'report');
    assert.equal((await (await server.fetch(`/s/${loud.body.data.id}`)).text()), 'report');
    const [n] = await waitFor('alice', 'link_downloaded');
    assert.equal(n!.data.share_id, loud.body.data.id);
    assert.equal(n!.data.name, 'report.txt');
    await sleep(200);
    assert.equal((await list('alice')).items.filter((x) => x.type === 'link_downloaded').length, 1, 'the quiet link said nothing');
    // Turned off again: no more.
    const patched = await api.patch<{ notify_downloads: boolean }>(`/api/v4/share/${loud.body.data.id}`, { notify_downloads: false }, { token: token.alice });
    assert.equal(patched.body.data.notify_downloads, false);
    await (await server.fetch(`/s/${loud.body.data.id}`)).text();
    await sleep(200);
    assert.equal((await list('alice')).items.filter((x) => x.type === 'link_downloaded').length, 1);
  });

  it('storage almost full: once when crossing 90 %, not on every upload after', async () => {
    assert.equal((await api.put(`/api/v4/admin/user/${id.carol}`, { storage_quota: 1000 }, { token: admin })).status, 200);
    const up = (name: string, bytes: number) => api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent(name)}`, { token: token.carol, body: 'x'.repeat(bytes), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal((await up('/a.bin', 500)).status, 200);
    await sleep(800);
    assert.equal((await list('carol')).items.filter((x) => x.type === 'quota_almost_full').length, 0, '50 %: nothing');
    assert.equal((await up('/b.bin', 420)).status, 200);
    const [n] = await waitFor('carol', 'quota_almost_full');
    assert.equal(n!.data.percent, 92);
    assert.equal((await up('/c.bin', 30)).status, 200);
    await sleep(800);
    assert.equal((await list('carol')).items.filter((x) => x.type === 'quota_almost_full').length, 1, 'still above: told once');
    // Carol's mail for it is instant (the default).
    const mail = await smtp.waitFor(people.carol);
    assert.match(mail.subject, /95% full|92% full/);
  });

  it('a sign-in from a new browser is told (and mailed); the same browser again is not', async () => {
    const signInAs = (ua: string) => api.post('/api/v4/session/token', { email: people.bob, password: 'user-password-123' }, { headers: { 'user-agent': ua } });
    const before = smtp.to(people.bob).length;
    assert.equal((await signInAs(FIREFOX)).status, 200);
    const [n] = await waitFor('bob', 'new_device_sign_in');
    assert.equal(n!.data.browser, 'Firefox 128');
    assert.equal(n!.data.os, 'Windows 10');
    assert.equal(n!.data.link, '/settings/security');
    const mail = await smtp.waitFor(people.bob, before + 1);
    assert.match(mail.subject, /new sign-in/);
    assert.match(mail.text, /Firefox 128, Windows 10/);
    assert.equal((await signInAs(FIREFOX.replace('128.0', '129.0'))).status, 200);
    await settled();
    assert.equal((await list('bob')).items.filter((x) => x.type === 'new_device_sign_in').length, 1, 'a newer version of the same browser is no new device');
    assert.equal(smtp.to(people.bob).length, before + 1);
  });

  it('a security change is a notification; the §11 notice stays the only mail for it', async () => {
    const before = smtp.to(people.carol).length;
    const res = await api.patch('/api/v4/user/setting', { current_password: 'user-password-123', new_password: 'a-much-longer-passphrase-42' }, { token: token.carol });
    assert.equal(res.status, 200, res.text);
    token.carol = (await signIn(api, people.carol, 'a-much-longer-passphrase-42')).token.access_token;
    const [n] = await waitFor('carol', 'security_change');
    assert.equal(n!.data.change, 'password_changed');
    await settled();
    const mails = smtp.to(people.carol).slice(before);
    assert.equal(mails.length, 1, mails.map((m) => m.subject).join(' | '));
    assert.match(mails[0]!.subject, /password was changed/);
  });

  it('the daily digest: one mail per person with what waited, sent by the admin route; again, nothing', async () => {
    const forbidden = await api.post('/api/v4/admin/notifications/digest', undefined, { token: token.bob });
    assert.equal(forbidden.status, 403);
    const before = smtp.to(people.carol).length;
    const sent = await api.post<{ sent: number }>('/api/v4/admin/notifications/digest', undefined, { token: admin });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.data.sent, 1, 'only Carol chose the digest');
    const digest = await smtp.waitFor(people.carol, before + 1);
    assert.match(digest.subject, /1 notification from/);
    assert.match(digest.text, /shared "Project" with you/);
    assert.match(digest.text, /\/notifications/);
    const again = await api.post<{ sent: number }>('/api/v4/admin/notifications/digest', undefined, { token: admin });
    assert.equal(again.body.data.sent, 0);
    await settled();
    assert.equal(smtp.to(people.carol).length, before + 1);
    // In all: Bob got the share mail and the new-device mail; Alice nothing (upload notices off, downloads off).
    assert.equal(smtp.to(people.bob).length, 2);
    assert.equal(smtp.to(people.alice).length, 0);
  });

  it('an app authorized: told once (and mailed); the same consent again says nothing new', async () => {
    const app = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Photo Backup', icon: 'cloud-upload', redirect_uris: ['https://client.example/callback'], scopes: ['openid', 'UserInfo.Read', 'Files.Read'] } },
      { token: admin },
    );
    assert.equal(app.status, 200, app.text);
    const before = smtp.to(people.bob).length;
    const consent = () =>
      api.post<{ code?: string }>('/api/v4/session/oauth/consent', { response_type: 'code', client_id: app.body.data.id, redirect_uri: 'https://client.example/callback', scope: 'openid UserInfo.Read' }, { token: token.bob });
    const first = await consent();
    assert.equal(first.status, 200, first.text);
    assert.ok(first.body.data.code);
    const [n] = await waitFor('bob', 'app_authorized');
    assert.equal(n!.data.app, 'Photo Backup');
    assert.deepEqual(n!.data.scopes, ['openid', 'UserInfo.Read']);
    const mail = await smtp.waitFor(people.bob, before + 1);
    assert.match(mail.subject, /Photo Backup can now use your/);
    assert.equal((await consent()).status, 200);
    await settled();
    assert.equal((await list('bob')).items.filter((x) => x.type === 'app_authorized').length, 1);
    assert.equal(smtp.to(people.bob).length, before + 1);
  });

  it('read marks: one, all; another person\'s notification is 404; paging goes to older ones', async () => {
    const page = await list('bob');
    assert.ok(page.unread >= 2);
    const first = page.items[0]!;
    const marked = await api.patch<Note>(`/api/v4/notifications/${first.id}`, { read: true }, { token: token.bob });
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.body.data.read, true);
    assert.equal((await list('bob')).unread, page.unread - 1);
    const theirs = await api.patch<unknown>(`/api/v4/notifications/${first.id}`, { read: false }, { token: token.alice });
    assert.equal(theirs.status, 404);
    assert.equal(typeof theirs.body.code, 'number');
    assert.equal((await api.patch(`/api/v4/notifications/${first.id}`, { read: 'yes' }, { token: token.bob })).status, 400);
    assert.equal((await api.patch(`/api/v4/notifications/no-such-id`, { read: true }, { token: token.bob })).status, 404);
    assert.equal((await api.get('/api/v4/notifications?cursor=abc', { token: token.bob })).status, 400);
    const one = await api.get<Page>('/api/v4/notifications?limit=1', { token: token.bob });
    assert.equal(one.body.data.items.length, 1);
    assert.ok(one.body.data.cursor);
    const older = await api.get<Page>(`/api/v4/notifications?limit=1&cursor=${one.body.data.cursor}`, { token: token.bob });
    assert.notEqual(older.body.data.items[0]!.id, one.body.data.items[0]!.id);
    const all = await api.post<{ updated: number }>('/api/v4/notifications/read-all', undefined, { token: token.bob });
    assert.equal(all.status, 200);
    assert.equal((await list('bob')).unread, 0);
    assert.equal((await api.get('/api/v4/notifications')).status, 401);
  });
});
