// Who may be shared with (the site setting `share_with`), grants to groups,
// and revocation seen by a second instance on the same database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put } from '../files/helpers.js';
import { adminToken, grant, member, newGroup, sharedWith, type Member } from './helpers.js';

describe('sharing policy, groups and instances', () => {
  let server: TestServer;
  let second: TestServer;
  let api: Api;
  let api2: Api;
  let admin: string;
  let group: number;
  let alice: Member;
  let bob: Member;
  let erin: Member;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    // A second instance on the same database: the same SQLite file (and data dir), or the same PostgreSQL database.
    const db = server.config.database;
    second = await startServer(db.kind === 'postgres' ? { CIRRUS_DATABASE_URL: db.url, CIRRUS_DATA_DIR: server.config.dataDir } : { CIRRUS_DATA_DIR: server.config.dataDir });
    api2 = new Api(second);
    group = await newGroup(api, admin, 'designers');
    alice = await member(api, admin, { nickname: 'Alice', groupId: group });
    bob = await member(api, admin, { nickname: 'Bob', groupId: group });
    erin = await member(api, admin, { nickname: 'Erin' });
    await put(api, alice.token, '/designs/logo.svg', '<svg/>');
    await put(api, alice.token, '/notes.txt', 'notes');
  });
  after(async () => {
    await second.close();
    await server.close();
  });

  const setPolicy = async (value: string) => {
    const res = await api.patch<{ share_with: string }>('/api/v4/admin/settings', { share_with: value }, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.share_with, value);
  };

  it('"groups": only people of one\'s own group and one\'s own group can be given access', async () => {
    await setPolicy('groups');
    assert.equal((await grant(api, alice, { path: '/designs', user: bob.email, permission: 'read' })).status, 200);
    const outside = await grant(api, alice, { path: '/designs', user: erin.email, permission: 'read' });
    assert.equal(outside.status, 404);
    // The same answer as for an address nobody has: no way to probe who exists.
    const nobody = await grant(api, alice, { path: '/designs', user: 'no-one@example.com', permission: 'read' });
    assert.equal(nobody.status, 404);
    assert.equal(nobody.body.msg, outside.body.msg);
    assert.equal((await grant(api, alice, { path: '/designs', group: 2, permission: 'read' })).status, 404);
    assert.deepEqual(await sharedWith(api, erin), []);
  });

  it('a grant to a group reaches its members; the better of two grants wins', async () => {
    const res = await grant(api, alice, { path: '/designs', group, permission: 'write' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.group?.id, group);
    const items = await sharedWith(api, bob);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.permission, 'write');
    assert.equal((await put(api, bob.token, `${items[0]!.path}/from-bob.txt`, 'hi')).status, 200);
    // The owner is in the group but does not see their own item as shared.
    assert.deepEqual(await sharedWith(api, alice), []);
  });

  it('"nobody": no new grant', async () => {
    await setPolicy('nobody');
    const res = await grant(api, alice, { path: '/notes.txt', user: bob.email, permission: 'read' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40019);
    await setPolicy('anyone');
    assert.equal((await grant(api, alice, { path: '/notes.txt', user: erin.email, permission: 'read' })).status, 200);
  });

  it('a revocation on one instance is refused on the other within 1 s', async () => {
    const path = (await sharedWith(api2, erin))[0]!.path;
    assert.equal((await download(api2, erin.token, path)).body.toString(), 'notes');
    const grants = await api.get<{ id: string; user?: { id: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent('/notes.txt')}`, { token: alice.token });
    const id = grants.body.data.find((g) => g.user?.id === erin.id)!.id;
    assert.equal((await api.delete(`/api/v4/file/access/${id}`, undefined, { token: alice.token })).status, 200);
    const revokedAt = Date.now();
    let status = 0;
    while (Date.now() - revokedAt < 1000) {
      status = (await download(api2, erin.token, path)).status;
      if (status === 404) break;
    }
    assert.equal(status, 404);
    assert.ok(Date.now() - revokedAt < 1000);
  });
});
