// Share notifications are no mail cannon (issue 32, finding 6), checked with a
// real SMTP sink: a grant, revoke, grant loop mails the recipient once per
// item and period; a group's members get one mail for all of one person's
// group grants in the period; and grants per account are throttled (429 with
// Retry-After).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { put, q } from '../files/helpers.js';
import { adminToken, grant, member, newGroup, type Grant, type Member } from './helpers.js';

const settle = () => new Promise((r) => setTimeout(r, 1_500));

describe('sharing: notices are bounded', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let api: Api;
  let admin: string;
  let mallory: Member;

  before(async () => {
    mail = await MailCatcher.start();
    server = await startServer(mail.env);
    api = new Api(server);
    admin = await adminToken(api);
    mallory = await member(api, admin, { nickname: 'Mallory' });
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await put(api, mallory.token, `/${name}`, 'click me');
  });
  after(async () => {
    await server.close();
    await mail.stop();
  });

  const revokeAll = async (path: string) => {
    const grants = await api.get<Grant[]>(`/api/v4/file/access?path=${q(path)}`, { token: mallory.token });
    for (const g of grants.body.data) assert.equal((await api.delete(`/api/v4/file/access/${g.id}`, undefined, { token: mallory.token })).status, 200);
  };

  it('grant, revoke, grant again: one mail per item and recipient', async () => {
    const bob = await member(api, admin, { nickname: 'Bob' });
    for (let i = 0; i < 4; i++) {
      assert.equal((await grant(api, mallory, { path: '/a.txt', user: bob.email, permission: 'read' })).status, 200);
      await revokeAll('/a.txt');
    }
    await mail.waitFor(bob.email);
    await settle();
    assert.equal(mail.to(bob.email).length, 1);
    // Another item is another notice.
    assert.equal((await grant(api, mallory, { path: '/b.txt', user: bob.email, permission: 'read' })).status, 200);
    await mail.waitFor(bob.email, 2);
    await settle();
    assert.equal(mail.to(bob.email).length, 2);
  });

  it('group grants: each member gets one mail for all of one person\'s group grants', async () => {
    const group = await newGroup(api, admin, 'crowd');
    const crowd = [await member(api, admin, { nickname: 'One', groupId: group }), await member(api, admin, { nickname: 'Two', groupId: group })];
    for (const path of ['/a.txt', '/b.txt', '/c.txt', '/a.txt']) {
      assert.equal((await grant(api, mallory, { path, group, permission: 'read' })).status, 200);
      await revokeAll(path);
    }
    for (const m of crowd) await mail.waitFor(m.email);
    await settle();
    for (const m of crowd) assert.equal(mail.to(m.email).length, 1, m.email);
  });

  it('grants per account are throttled: 429 with Retry-After after 100 in an hour', async () => {
    const eve = await member(api, admin, { nickname: 'Eve' });
    const target = await member(api, admin, { nickname: 'Target' });
    await put(api, eve.token, '/x.txt', 'x');
    let refused = -1;
    for (let i = 0; i < 110; i++) {
      const res = await grant(api, eve, { path: '/x.txt', user: target.email, permission: i % 2 ? 'read' : 'write' });
      if (res.status === 429) {
        refused = i;
        assert.equal((res.body as unknown as { code: number }).code, 429);
        assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After');
        break;
      }
      assert.equal(res.status, 200, res.text);
    }
    assert.equal(refused, 100, 'the 101st grant in the hour is refused');
    // Someone else is not held back by Eve's count.
    assert.equal((await grant(api, mallory, { path: '/c.txt', user: target.email, permission: 'read' })).status, 200);
  });
});
