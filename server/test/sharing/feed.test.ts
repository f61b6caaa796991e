// Recipients' change feeds (api-contract §13, issue 22): a change inside an
// item shared with someone reaches their feed (pages and the SSE stream) with
// the path as they see it, whoever made it; a grant adds the mount (`created`)
// and a revocation removes it (`deleted`); nothing outside shared items leaks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { openEvents } from '../files/sse.js';
import { adminToken, grant, member, newGroup, sharedWith, type Member } from './helpers.js';

interface Ev {
  id: string;
  type: string;
  path: string;
  old_path?: string;
  file_id: string;
  is_dir: boolean;
}

describe('recipients\' change feeds', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let dave: Member;
  let groupId: number;
  const cursors = new Map<string, string>();

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    groupId = await newGroup(api, admin, 'feeders');
    alice = await member(api, admin, { nickname: 'Alice' });
    bob = await member(api, admin, { nickname: 'Bob' });
    carol = await member(api, admin, { nickname: 'Carol' });
    dave = await member(api, admin, { nickname: 'Dave', groupId });
    await put(api, alice.token, '/proj/readme.txt', 'hello');
    await put(api, alice.token, '/private/x.txt', 'mine');
    for (const p of [alice, bob, carol, dave]) cursors.set(p.id, await cursorOf(p));
  });
  after(() => server.close());

  async function cursorOf(p: Member): Promise<string> {
    const res = await api.get<{ cursor: string }>('/api/v4/file/changes', { token: p.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.cursor;
  }

  /** The events since the last call for this person, as [type, path, old_path?]. */
  async function since(p: Member): Promise<(string | undefined)[][]> {
    const res = await api.get<{ events: Ev[]; cursor: string; has_more: boolean; reset: boolean }>(`/api/v4/file/changes?cursor=${cursors.get(p.id)}&limit=500`, { token: p.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.reset, false);
    // Cursors increase by one per event of this person: nothing skipped, nothing repeated.
    let prev = Number(cursors.get(p.id));
    for (const e of res.body.data.events) assert.equal(Number(e.id), ++prev);
    cursors.set(p.id, res.body.data.cursor);
    return res.body.data.events.map((e) => (e.old_path !== undefined ? [e.type, e.path, e.old_path] : [e.type, e.path]));
  }

  const M = '/Shared with me/Alice – proj';

  it('a grant adds the mount to the recipient\'s feed as a created folder; a group grant to each member', async () => {
    assert.equal((await grant(api, alice, { path: '/proj', user: bob.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, alice, { path: '/proj', user: carol.email, permission: 'read' })).status, 200);
    assert.equal((await grant(api, alice, { path: '/proj', group: groupId, permission: 'read' })).status, 200);
    assert.deepEqual(await since(bob), [['created', M]]);
    assert.deepEqual(await since(carol), [['created', M]]);
    assert.deepEqual(await since(dave), [['created', M]]);
    // The owner's own feed is about the owner's tree only: granting changed nothing in it.
    assert.deepEqual(await since(alice), []);
    // A second grant of the same item (permission change) adds nothing.
    assert.equal((await grant(api, alice, { path: '/proj', user: carol.email, permission: 'read' })).status, 200);
    assert.deepEqual(await since(carol), []);
  });

  it('the owner\'s changes inside the shared folder reach every recipient in their terms; others do not', async () => {
    await put(api, alice.token, '/proj/a.txt', 'a');
    await put(api, alice.token, '/private/y.txt', 'not shared');
    await put(api, alice.token, '/proj-other/z.txt', 'a sibling with the same prefix');
    assert.equal((await api.post('/api/v4/file/rename', { path: '/proj/a.txt', new_name: 'b.txt' }, { token: alice.token })).status, 200);
    const expected = [['created', `${M}/a.txt`], ['moved', `${M}/b.txt`, `${M}/a.txt`]];
    assert.deepEqual(await since(bob), expected);
    assert.deepEqual(await since(carol), expected);
    assert.deepEqual(await since(dave), expected);
    const own = await since(alice);
    assert.deepEqual(own.filter((e) => e[1]!.startsWith('/proj/')), [['created', '/proj/a.txt'], ['moved', '/proj/b.txt', '/proj/a.txt']]);
  });

  it('a recipient\'s write reaches the owner and the other recipients, each in their own terms', async () => {
    assert.equal((await put(api, bob.token, `${M}/from-bob.txt`, 'bob')).status, 200);
    assert.deepEqual(await since(alice), [['created', '/proj/from-bob.txt']]);
    assert.deepEqual(await since(bob), [['created', `${M}/from-bob.txt`]]);
    assert.deepEqual(await since(carol), [['created', `${M}/from-bob.txt`]]);
    assert.deepEqual(await since(dave), [['created', `${M}/from-bob.txt`]]);
  });

  it('moving an item out of the share is a deletion for recipients, moving it in a creation', async () => {
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/proj/b.txt'], dst: '/private' }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(carol), [['deleted', `${M}/b.txt`]]);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/private/y.txt'], dst: '/proj' }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(carol), [['created', `${M}/y.txt`]]);
    for (const p of [bob, dave, alice]) await since(p);
  });

  it('trashing the shared folder (or a folder above it) removes the mount; restoring brings it back', async () => {
    assert.equal((await api.delete('/api/v4/file', { paths: ['/proj'] }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['deleted', M]]);
    assert.deepEqual(await sharedWith(api, bob), []);
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: alice.token });
    const id = trash.body.data.files.find((f) => f.original_path === '/proj')!.id;
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [id] }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['restored', M]]);
    // Moved under another folder that is then trashed: the mount goes with it.
    await api.post('/api/v4/file/create', { path: '/outer', type: 'folder' }, { token: alice.token });
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/proj'], dst: '/outer' }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [], 'a move of the shared item does not change the recipient\'s path');
    assert.equal((await api.delete('/api/v4/file', { paths: ['/outer'] }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['deleted', M]]);
    const outer = (await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: alice.token })).body.data.files.find((f) => f.original_path === '/outer')!.id;
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [outer] }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['restored', M]]);
    for (const p of [carol, dave, alice]) await since(p);
  });

  it('renaming the shared item renames the mount', async () => {
    assert.equal((await api.post('/api/v4/file/rename', { path: '/outer/proj', new_name: 'project' }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['moved', '/Shared with me/Alice – project', M]]);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/outer/project', new_name: 'proj' }, { token: alice.token })).status, 200);
    assert.deepEqual(await since(bob), [['moved', M, '/Shared with me/Alice – project']]);
    for (const p of [carol, dave, alice]) await since(p);
  });

  it('the SSE stream of a recipient delivers a change live; revocation ends the mount and later changes stay out', async () => {
    const stream = openEvents(server.url, carol.token, cursors.get(carol.id));
    try {
      await stream.ready;
      await put(api, alice.token, '/outer/proj/live.txt', 'live');
      assert.ok(await stream.until(() => stream.changes<Ev>().some((e) => e.path === `${M}/live.txt`)), 'the recipient\'s stream got the owner\'s change');
      const grants = await api.get<{ id: string; user?: { id: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent('/outer/proj')}`, { token: alice.token });
      const carols = grants.body.data.find((g) => g.user?.id === carol.id)!;
      assert.equal((await api.delete(`/api/v4/file/access/${carols.id}`, undefined, { token: alice.token })).status, 200);
      assert.ok(await stream.until(() => stream.changes<Ev>().some((e) => e.type === 'deleted' && e.path === M)), 'revocation arrives as the mount deleted');
    } finally {
      await stream.close();
    }
    assert.deepEqual(await since(carol), [['created', `${M}/live.txt`], ['deleted', M]]);
    await put(api, alice.token, '/outer/proj/after.txt', 'after');
    assert.deepEqual(await since(carol), []);
    assert.deepEqual(await since(bob), [['created', `${M}/live.txt`], ['created', `${M}/after.txt`]]);
  });
});
