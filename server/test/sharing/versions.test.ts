// Versions of shared files (api-contract §13, issue 22): a recipient lists and
// downloads the versions of a file inside an item shared with them, by their
// "/Shared with me/…" path; with a write grant they restore them (in the
// owner's tree, charged to the owner) but never delete one (only the owner
// destroys content for good); a read grant refuses both, and version ids of
// anything outside the shared item stay 404.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put, q } from '../files/helpers.js';
import { members, grant, type Member } from './helpers.js';

interface Version {
  id: string;
  size: number;
  current: boolean;
}

describe('versions of shared files', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  const M = '/Shared with me/Alice – docs';

  before(async () => {
    server = await startServer();
    api = new Api(server);
    [alice, bob, carol] = await members(api, 'Alice', 'Bob', 'Carol');
    await put(api, alice.token, '/docs/report.txt', 'one');
    await put(api, alice.token, '/docs/report.txt', 'two!');
    await put(api, alice.token, '/private.txt', 'v1');
    await put(api, alice.token, '/private.txt', 'v2');
    assert.equal((await grant(api, alice, { path: '/docs', user: bob.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, alice, { path: '/docs', user: carol.email, permission: 'read' })).status, 200);
  });
  after(() => server.close());

  const versionsOf = (p: Member, path: string) => api.get<Version[]>(`/api/v4/file/versions?path=${q(path)}`, { token: p.token });

  it('a recipient lists and downloads versions by their path, read or write', async () => {
    for (const p of [bob, carol]) {
      const list = await versionsOf(p, `${M}/report.txt`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.data.map((v) => [v.size, v.current]), [[4, true], [3, false]]);
      const old = list.body.data[1]!;
      const bytes = await api.raw('GET', `/api/v4/file/versions/${old.id}/content`, { token: p.token });
      assert.equal(bytes.status, 200);
      assert.equal(bytes.text, 'one');
    }
  });

  it('a read grant refuses restore and delete', async () => {
    const old = (await versionsOf(carol, `${M}/report.txt`)).body.data[1]!;
    assert.equal((await api.post('/api/v4/file/versions/restore', { path: `${M}/report.txt`, version_id: old.id }, { token: carol.token })).status, 403);
    assert.equal((await api.delete(`/api/v4/file/versions/${old.id}`, undefined, { token: carol.token })).status, 403);
    assert.equal((await versionsOf(alice, '/docs/report.txt')).body.data.length, 2, 'nothing changed');
  });

  it('a write grant restores (in the owner\'s tree, seen by the owner) but never deletes a version (issue 32 finding 7)', async () => {
    const old = (await versionsOf(bob, `${M}/report.txt`)).body.data[1]!;
    const restored = await api.post<{ path: string; size: number }>('/api/v4/file/versions/restore', { path: `${M}/report.txt`, version_id: old.id }, { token: bob.token });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.data.path, `${M}/report.txt`);
    assert.equal((await download(api, alice.token, '/docs/report.txt')).body.toString(), 'one');
    const now = (await versionsOf(alice, '/docs/report.txt')).body.data;
    assert.deepEqual(now.map((v) => v.size), [3, 4], 'the replaced content became a version');
    // Overwrite, then delete the old content's version: the owner's content would be gone for good.
    assert.equal((await put(api, bob.token, `${M}/report.txt`, 'vandalised')).status, 200);
    const kept = (await versionsOf(bob, `${M}/report.txt`)).body.data;
    const del = await api.delete<unknown>(`/api/v4/file/versions/${kept[1]!.id}`, undefined, { token: bob.token });
    assert.equal(del.status, 403, del.text);
    assert.equal((del.body as { code: number }).code, 403);
    const left = (await versionsOf(alice, '/docs/report.txt')).body.data;
    assert.deepEqual(left.map((v) => v.size), [10, 3, 4], 'every earlier content is still there');
    const original = await api.get(`/api/v4/file/versions/${left[1]!.id}/content`, { token: alice.token });
    assert.equal(original.body.toString(), 'one');
    // The owner still can.
    assert.equal((await api.delete(`/api/v4/file/versions/${left[2]!.id}`, undefined, { token: alice.token })).status, 200);
    assert.equal((await versionsOf(alice, '/docs/report.txt')).body.data.length, 2);
  });

  it('versions of the owner\'s other files stay out of reach by id', async () => {
    const priv = (await versionsOf(alice, '/private.txt')).body.data[1]!;
    assert.equal((await api.raw('GET', `/api/v4/file/versions/${priv.id}/content`, { token: bob.token })).status, 404);
    assert.equal((await api.delete(`/api/v4/file/versions/${priv.id}`, undefined, { token: bob.token })).status, 404);
    assert.equal((await api.post('/api/v4/file/versions/restore', { path: `${M}/report.txt`, version_id: priv.id }, { token: bob.token })).status, 404);
    assert.equal((await versionsOf(bob, '/private.txt')).status, 404);
    assert.equal((await versionsOf(alice, '/private.txt')).body.data.length, 2);
  });
});
