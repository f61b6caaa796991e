// Recipient suggestions for the share dialog (issue 38 item 4):
// GET /api/v4/file/access/suggest?q= answers people and groups one may share
// with, within the site's share_with setting, and never lists accounts the
// setting hides: a prefix finds only people of one's own group; anyone else
// only by their exact e-mail or UID (what a grant accepts anyway). Groups are
// found by name, so nobody has to know a group's id.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { adminToken, grant, member, type Member } from './helpers.js';

interface Suggestions {
  people: { id: string; email: string; nickname: string }[];
  groups: { id: number; name: string }[];
}

describe('recipient suggestions (GET /file/access/suggest)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let design: { id: number; name: string };
  let sales: { id: number; name: string };
  let asker: Member;
  let mate: Member;
  let outsider: Member;
  let banned: Member;
  const tag = `${process.pid}${Date.now()}`;

  const setPolicy = async (value: 'anyone' | 'groups' | 'nobody') => {
    const res = await api.patch('/api/v4/admin/settings', { share_with: value }, { token: admin });
    assert.equal(res.status, 200, res.text);
  };
  const suggest = async (who: Member, q: string) => {
    const res = await api.get<Suggestions>(`/api/v4/file/access/suggest?q=${encodeURIComponent(q)}`, { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const group = async (name: string) => {
    const res = await api.put<{ id: number; name: string }>('/api/v4/admin/group', { name, storage_quota: 1 << 30 }, { token: admin });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    design = await group(`Design ${tag}`);
    sales = await group(`Sales ${tag}`);
    asker = await member(api, admin, { nickname: `Ada ${tag}`, groupId: design.id });
    mate = await member(api, admin, { nickname: `Zed mate ${tag}`, groupId: design.id });
    outsider = await member(api, admin, { nickname: `Zed outsider ${tag}`, groupId: sales.id });
    banned = await member(api, admin, { nickname: `Zed banned ${tag}`, groupId: design.id });
    assert.equal((await api.put(`/api/v4/admin/user/${banned.id}`, { status: 'banned' }, { token: admin })).status, 200);
  });
  after(() => server.close());

  it('share_with anyone: a prefix lists people of one\'s own group only, never oneself, a banned account or someone outside the group', async () => {
    await setPolicy('anyone');
    const found = await suggest(asker, 'zed');
    assert.deepEqual(found.people.map((p) => p.id), [mate.id]);
    assert.deepEqual(found.people[0], { id: mate.id, email: mate.email, nickname: mate.nickname });
    // By e-mail prefix too, case-insensitively.
    assert.deepEqual((await suggest(asker, mate.email.slice(0, 12).toUpperCase())).people.map((p) => p.id), [mate.id]);
    assert.deepEqual((await suggest(asker, 'ada')).people, [], 'not oneself');
    // % and _ are literal, not wildcards.
    assert.deepEqual((await suggest(asker, '%')).people, []);
    assert.deepEqual((await suggest(asker, '_')).people, []);
  });

  it('share_with anyone: someone outside the group is resolved by their exact e-mail or UID (as a grant would), never a banned account', async () => {
    await setPolicy('anyone');
    assert.deepEqual((await suggest(asker, outsider.email)).people.map((p) => p.id), [outsider.id]);
    assert.deepEqual((await suggest(asker, ` ${outsider.email.toUpperCase()} `)).people.map((p) => p.id), [outsider.id]);
    assert.deepEqual((await suggest(asker, outsider.id)).people.map((p) => p.id), [outsider.id]);
    // One character short of the address: nothing.
    assert.deepEqual((await suggest(asker, outsider.email.slice(0, -1))).people, []);
    assert.deepEqual((await suggest(asker, banned.email)).people, []);
    assert.deepEqual((await suggest(asker, `nobody-${tag}@example.com`)).people, []);
  });

  it('share_with anyone: groups by name prefix, case-insensitively; a grant to the suggested group works', async () => {
    await setPolicy('anyone');
    const found = await suggest(asker, `sales ${tag}`.slice(0, 8));
    assert.ok(found.groups.some((g) => g.id === sales.id && g.name === sales.name), JSON.stringify(found));
    assert.ok(!found.groups.some((g) => g.id === design.id));
    assert.equal((await put(api, asker.token, '/plan.txt', 'plan')).status, 200);
    const granted = await grant(api, asker, { path: '/plan.txt', group: found.groups[0]!.id, permission: 'read' });
    assert.equal(granted.status, 200, granted.text);
  });

  it('share_with groups: only one\'s own group and its people; an outsider\'s exact address is answered as an unknown one', async () => {
    await setPolicy('groups');
    assert.deepEqual((await suggest(asker, 'zed')).people.map((p) => p.id), [mate.id]);
    assert.deepEqual((await suggest(asker, outsider.email)).people, []);
    assert.deepEqual((await suggest(asker, outsider.id)).people, []);
    assert.deepEqual((await suggest(asker, mate.email)).people.map((p) => p.id), [mate.id]);
    assert.deepEqual((await suggest(asker, 'sales')).groups, []);
    assert.deepEqual((await suggest(asker, 'design')).groups.map((g) => g.id), [design.id]);
    // The outsider asking sees nobody of the design group.
    assert.deepEqual((await suggest(outsider, 'zed')).people, []);
    assert.deepEqual((await suggest(outsider, asker.email)).people, []);
  });

  it('share_with nobody: 403/40019, as a grant', async () => {
    await setPolicy('nobody');
    const res = await api.get('/api/v4/file/access/suggest?q=zed', { token: asker.token });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40019);
    await setPolicy('anyone');
  });

  it('at most 8 of each; the query is validated (1–320 characters, no control characters) and needs a signed-in person', async () => {
    await setPolicy('anyone');
    for (let i = 0; i < 10; i++) await member(api, admin, { nickname: `Many ${tag} ${i}`, groupId: design.id });
    for (let i = 0; i < 10; i++) await group(`Many ${tag} ${i}`);
    const found = await suggest(asker, `many ${tag}`);
    assert.equal(found.people.length, 8);
    assert.equal(found.groups.length, 8);
    for (const q of ['', 'a'.repeat(321), 'a\u0001b']) {
      const res = await api.get(`/api/v4/file/access/suggest?q=${encodeURIComponent(q)}`, { token: asker.token });
      assert.equal(res.status, 400, `${JSON.stringify(q)}: ${res.text}`);
    }
    assert.equal((await api.get('/api/v4/file/access/suggest?q=zed')).status, 401);
  });

  it('exact lookups are throttled per person like grants: after 200 in an hour, 429 with Retry-After', async () => {
    await setPolicy('anyone');
    const prober = await member(api, admin, { groupId: sales.id });
    let status = 200;
    let n = 0;
    for (; n < 205 && status === 200; n++) {
      const res = await api.get(`/api/v4/file/access/suggest?q=${encodeURIComponent(`probe-${n}-${tag}@example.com`)}`, { token: prober.token });
      status = res.status;
      if (status === 429) assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
    assert.equal(status, 429, `refused after ${n} lookups`);
    assert.ok(n > 200, `at least 200 lookups pass (refused at ${n})`);
    // Prefixes of one's own group are no lookup and stay answered.
    assert.equal((await api.get('/api/v4/file/access/suggest?q=zed', { token: prober.token })).status, 200);
  });
});
