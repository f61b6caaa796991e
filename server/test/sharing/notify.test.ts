// Notifications of new grants (a mail in the recipient's language when mail
// is configured; a change of permission sends none) and resharing (off
// unless the owner allows it on the grant; never more than one holds).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { download, put } from '../files/helpers.js';
import { adminToken, grant, member, sharedWith, type Member } from './helpers.js';

describe('sharing: mail and resharing', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let api: Api;
  let admin: string;
  let alice: Member;
  let bob: Member;
  let carol: Member;

  before(async () => {
    mail = await MailCatcher.start();
    server = await startServer(mail.env);
    api = new Api(server);
    admin = await adminToken(api);
    alice = await member(api, admin, { nickname: 'Alice' });
    bob = await member(api, admin, { nickname: 'Bob' });
    // Carol signs up with a Chinese browser: her mails are in Chinese.
    assert.equal((await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: admin })).status, 200);
    const email = `carol-${process.pid}-${Date.now()}@example.com`;
    const made = await api.post<{ id: string }>('/api/v4/user', { email, password: 'user-password-123', nickname: 'Carol' }, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    assert.equal(made.status, 200, made.text);
    const signed = await signIn(api, email, 'user-password-123');
    carol = { id: made.body.data.id, token: signed.token.access_token, email, nickname: 'Carol' };
    await put(api, alice.token, '/photos/cat.jpg', 'meow');
  });
  after(async () => {
    await server.close();
    await mail.stop();
  });

  it('a new grant mails the recipient with a link to Shared with me; Chinese for a Chinese reader; a change of permission mails nothing', async () => {
    assert.equal((await grant(api, alice, { path: '/photos', user: bob.email, permission: 'read', reshare: true })).status, 200);
    const m = await mail.waitFor(bob.email);
    assert.match(m.subject, /Alice shared "photos" with you/);
    assert.match(m.text, /view access/);
    assert.equal(linkIn(m, '/shared').pathname, '/shared');
    assert.equal((await grant(api, alice, { path: '/photos', user: bob.email, permission: 'read', reshare: true })).status, 200);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mail.to(bob.email).length, 1);
    assert.equal((await grant(api, alice, { path: '/photos/cat.jpg', user: carol.email, permission: 'write' })).status, 200);
    const zh = await mail.waitFor(carol.email);
    assert.match(zh.subject, /Alice 与你共享了“cat\.jpg”/);
    assert.match(zh.text, /编辑/);
  });

  it('resharing: allowed on the grant, never above what one holds; the new grant names the owner', async () => {
    const dave = await member(api, admin, { nickname: 'Dave' });
    const path = (await sharedWith(api, bob)).find((i) => i.name === 'photos')!.path;
    assert.equal((await grant(api, bob, { path, user: dave.email, permission: 'write' })).status, 403);
    const res = await grant(api, bob, { path, user: dave.email, permission: 'read', reshare: true });
    assert.equal(res.status, 200, res.text);
    const items = await sharedWith(api, dave);
    assert.equal(items[0]!.owner.id, alice.id);
    assert.equal(items[0]!.path, '/Shared with me/Alice – photos');
    assert.equal((await download(api, dave.token, `${items[0]!.path}/cat.jpg`)).body.toString(), 'meow');
    // Dave's grant cannot be passed on again (only an owner allows resharing), and Carol's (no reshare) cannot share.
    const dPath = items[0]!.path;
    assert.equal((await grant(api, dave, { path: dPath, user: carol.email, permission: 'read' })).status, 403);
    const cPath = (await sharedWith(api, carol))[0]!.path;
    assert.equal((await grant(api, carol, { path: cPath, user: dave.email, permission: 'read' })).status, 403);
    // The owner sees and can revoke it; the resharer sees the grants they made.
    const all = await api.get<{ id: string; user?: { id: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent('/photos')}`, { token: alice.token });
    assert.deepEqual(all.body.data.map((g) => g.user?.id), [bob.id, dave.id]);
    const mine = await api.get<{ id: string; user?: { id: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent(path)}`, { token: bob.token });
    assert.deepEqual(mine.body.data.map((g) => g.user?.id), [dave.id]);
    assert.equal((await api.delete(`/api/v4/file/access/${mine.body.data[0]!.id}`, undefined, { token: bob.token })).status, 200);
    assert.deepEqual(await sharedWith(api, dave), []);
  });
});
