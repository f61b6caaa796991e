// "Shared by me" for people and groups (issue 38 item 6):
// GET /api/v4/file/access/given lists every grant on the person's items, with
// the item (at their path; null while it is in the trash), who has access and
// the permission; the permission changes with PUT /file/access and a grant
// goes with DELETE /file/access/:id. Nobody else's grants show.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { adminToken, grant, member, newGroup, type Member } from './helpers.js';

interface Given {
  id: string;
  user?: { id: string; email: string; nickname: string };
  group?: { id: number; name: string };
  permission: 'read' | 'write';
  reshare: boolean;
  item: { id: string; name: string; type: 'file' | 'folder'; path: string | null };
}

describe('shared by me: grants to people and groups (GET /file/access/given)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let owner: Member;
  let bob: Member;
  let carol: Member;
  let groupId: number;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    groupId = await newGroup(api, admin, 'crew');
    owner = await member(api, admin, { nickname: 'Olive' });
    bob = await member(api, admin, { nickname: 'Bob' });
    carol = await member(api, admin, { nickname: 'Carol', groupId });
  });
  after(() => server.close());

  const given = async (who: Member) => {
    const res = await api.get<Given[]>('/api/v4/file/access/given', { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  it('lists grants to people and to groups with the item, who and the permission, newest first; nobody else sees them', async () => {
    assert.equal((await put(api, owner.token, '/Plans/a.txt', 'a')).status, 200);
    assert.equal((await put(api, owner.token, '/notes.txt', 'n')).status, 200);
    assert.equal((await grant(api, owner, { path: '/Plans', user: bob.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, owner, { path: '/notes.txt', group: groupId, permission: 'read' })).status, 200);
    const list = await given(owner);
    assert.equal(list.length, 2);
    assert.equal(list[0]!.item.path, '/notes.txt');
    assert.equal(list[0]!.item.type, 'file');
    assert.equal(list[0]!.group?.id, groupId);
    assert.equal(list[0]!.permission, 'read');
    assert.deepEqual(list[1]!.item, { id: list[1]!.item.id, name: 'Plans', type: 'folder', path: '/Plans' });
    assert.deepEqual(list[1]!.user, { id: bob.id, email: bob.email, nickname: 'Bob' });
    assert.equal(list[1]!.permission, 'write');
    assert.deepEqual(await given(bob), []);
    assert.deepEqual(await given(carol), []);
  });

  it('follows renames, shows a trashed item with path null, and changes and revokes through the grant routes', async () => {
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Plans', new_name: 'Plans 2026' }, { token: owner.token })).status, 200);
    let plans = (await given(owner)).find((g) => g.user?.id === bob.id)!;
    assert.equal(plans.item.path, '/Plans 2026');
    // Change the permission: the same grant, now read.
    const changed = await grant(api, owner, { path: plans.item.path!, user: plans.user!.id, permission: 'read' });
    assert.equal(changed.status, 200, changed.text);
    plans = (await given(owner)).find((g) => g.user?.id === bob.id)!;
    assert.equal(plans.permission, 'read');
    assert.equal(plans.id, changed.body.data.id);
    // In the trash: listed with path null until restored or revoked.
    assert.equal((await api.delete('/api/v4/file', { paths: ['/notes.txt'] }, { token: owner.token })).status, 200);
    const notes = (await given(owner)).find((g) => g.group?.id === groupId)!;
    assert.equal(notes.item.path, null);
    assert.equal(notes.item.name, 'notes.txt');
    assert.equal((await api.delete(`/api/v4/file/access/${notes.id}`, undefined, { token: owner.token })).status, 200);
    assert.deepEqual((await given(owner)).map((g) => g.id), [plans.id]);
  });

  it('a resharer sees the grants they made, under their path of the item', async () => {
    assert.equal((await put(api, owner.token, '/Deck/slides.txt', 's')).status, 200);
    assert.equal((await grant(api, owner, { path: '/Deck', user: bob.email, permission: 'write', reshare: true })).status, 200);
    const mounted = (await api.get<{ path: string; name: string }[]>('/api/v4/file/shared', { token: bob.token })).body.data.find((s) => s.name === 'Deck')!;
    assert.equal((await grant(api, bob, { path: mounted.path, user: carol.email, permission: 'read' })).status, 200);
    const mine = await given(bob);
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.user?.id, carol.id);
    assert.equal(mine[0]!.item.path, mounted.path);
    // The owner sees it too (it is on their item).
    assert.ok((await given(owner)).some((g) => g.user?.id === carol.id && g.item.path === '/Deck'));
  });

  it('needs a signed-in person', async () => {
    assert.equal((await api.get('/api/v4/file/access/given')).status, 401);
  });
});
