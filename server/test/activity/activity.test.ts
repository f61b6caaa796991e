// Activity (issue 37, api-contract §17) through the HTTP API: an owner, a
// reader, a writer, someone with nothing and an anonymous uploader each see
// exactly the history they may, with paths as they address the items; renames
// are followed by id; a revoked grant takes the history with it; no owner
// path outside what was shared ever reaches a recipient.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { grant, members, type Member } from '../sharing/helpers.js';
import { dav } from '../webdav/helpers.js';

interface Item {
  id: string;
  at: string;
  actor: { id: string; nickname: string } | { anonymous: true; name?: string };
  type: string;
  path: string;
  old_path?: string;
  file_id: string;
}

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('activity: who did what, as each reader may see it', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member, bob: Member, carol: Member, dave: Member;
  let bobGrant: string;

  async function put(who: Member, path: string, body: string): Promise<void> {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { token: who.token, body, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text);
  }
  async function activity(who: Member, query = ''): Promise<{ status: number; items: Item[]; cursor: string | null; code: number; text: string }> {
    const res = await api.raw('GET', `/api/v4/activity${query}`, { token: who.token });
    const body = JSON.parse(res.text) as { code: number; data: { items: Item[]; cursor: string | null } | null };
    return { status: res.status, items: body.data?.items ?? [], cursor: body.data?.cursor ?? null, code: body.code, text: res.text };
  }
  const brief = (items: Item[]) => items.map((i) => `${i.type} ${i.path}${i.old_path ? ` <- ${i.old_path}` : ''}`);
  const nameOf = (i: Item) => ('id' in i.actor ? i.actor.nickname : `anonymous:${i.actor.name ?? ''}`);

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    [alice, bob, carol, dave] = await members(api, 'Alice', 'Bob', 'Carol', 'Dave');
    await put(alice, '/Project/plan.txt', 'v1');
    await put(alice, '/Private/secret-7f3a.txt', 'nobody else');
    const g = await grant(api, alice, { path: '/Project', user: bob.email, permission: 'read' });
    assert.equal(g.status, 200, g.text);
    bobGrant = g.body.data.id;
    assert.equal((await grant(api, alice, { path: '/Project', user: dave.email, permission: 'write' })).status, 200);
    // Dave writes into Alice's folder, once through the API and once through WebDAV.
    await put(dave, '/Shared with me/Alice – Project/notes.txt', 'from dave');
    const viaDav = await dav(server, 'PUT', `/dav/${['Shared with me', 'Alice – Project', 'dav-notes.txt'].map(encodeURIComponent).join('/')}`, `Bearer ${dave.token}`, { body: 'dav' });
    assert.ok(viaDav.status === 201 || viaDav.status === 204, `${viaDav.status} ${viaDav.text}`);
    // A stranger drops a file through an upload request on /Project/Inbox.
    assert.equal((await api.raw('POST', '/api/v4/file/create', { token: alice.token, json: { path: '/Project/Inbox', type: 'folder' } })).status, 200);
    const req = await api.put<{ id: string }>('/api/v4/share', { path: '/Project/Inbox', upload_only: true }, { token: alice.token });
    assert.equal(req.status, 200, req.text);
    const created = await fetch(`${server.url}/api/v4/share/upload/${req.body.data.id}`, {
      method: 'POST', headers: { ...TUS, 'upload-length': '4', 'upload-metadata': `filename ${b64('drop.txt')},uploader ${b64('Dora')}` },
    });
    assert.equal(created.status, 201, await created.text());
    const sent = await fetch(server.url + created.headers.get('location')!, {
      method: 'PATCH', headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'drop',
    });
    assert.equal(sent.status, 204, await sent.text());
    // A rename, a move in from outside the shared folder, a download through a public link.
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Project/plan.txt', new_name: 'roadmap.txt' }, { token: alice.token })).status, 200);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/Private/secret-7f3a.txt'], dst: '/Project' }, { token: alice.token })).status, 200);
    const link = await api.put<{ id: string }>('/api/v4/share', { path: '/Project/roadmap.txt' }, { token: alice.token });
    assert.equal(link.status, 200, link.text);
    const got = await fetch(`${server.url}/s/${link.body.data.id}?download=1`);
    assert.equal(got.status, 200);
    await got.arrayBuffer();
  });
  after(() => server.close());

  it('the owner sees everything in their tree, newest first, with who did it', async () => {
    const r = await activity(alice);
    assert.equal(r.status, 200, r.text);
    const seen = brief(r.items);
    // Download recording is not awaited by the download: wait for it.
    for (let i = 0; i < 50 && !seen.includes('link_downloaded /Project/roadmap.txt'); i++) {
      await new Promise((res) => setTimeout(res, 20));
      seen.splice(0, seen.length, ...brief((await activity(alice)).items));
    }
    const full = (await activity(alice)).items;
    assert.deepEqual(brief(full), [
      'link_downloaded /Project/roadmap.txt',
      'moved /Project/secret-7f3a.txt <- /Private/secret-7f3a.txt',
      'moved /Project/roadmap.txt <- /Project/plan.txt',
      'link_uploaded /Project/Inbox/drop.txt',
      'created /Project/Inbox',
      'created /Project/dav-notes.txt',
      'created /Project/notes.txt',
      'shared /Project',
      'shared /Project',
      'created /Private/secret-7f3a.txt',
      'created /Private',
      'created /Project/plan.txt',
      'created /Project',
    ]);
    assert.deepEqual(full.map(nameOf), ['anonymous:', 'Alice', 'Alice', 'anonymous:Dora', 'Alice', 'Dave', 'Dave', 'Alice', 'Alice', 'Alice', 'Alice', 'Alice', 'Alice']);
    const ids = full.map((i) => Number(i.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first');
  });

  it('a reader sees only what is beneath the shared folder, addressed under "Shared with me", never an outside path', async () => {
    const r = await activity(bob);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(brief(r.items), [
      'link_downloaded /Shared with me/Alice – Project/roadmap.txt',
      'moved /Shared with me/Alice – Project/secret-7f3a.txt',
      'moved /Shared with me/Alice – Project/roadmap.txt <- /Shared with me/Alice – Project/plan.txt',
      'link_uploaded /Shared with me/Alice – Project/Inbox/drop.txt',
      'created /Shared with me/Alice – Project/Inbox',
      'created /Shared with me/Alice – Project/dav-notes.txt',
      'created /Shared with me/Alice – Project/notes.txt',
      'shared /Shared with me/Alice – Project',
      'shared /Shared with me/Alice – Project',
      'created /Shared with me/Alice – Project/plan.txt',
      'created /Shared with me/Alice – Project',
    ]);
    assert.ok(!r.text.includes('/Private'), 'no path outside the shared folder');
  });

  it('someone with nothing sees nothing, and a path they cannot read is 404 (as /file/info)', async () => {
    const r = await activity(carol);
    assert.equal(r.status, 200);
    assert.deepEqual(r.items, []);
    assert.equal((await activity(carol, `?path=${encodeURIComponent('/Shared with me/Alice – Project')}`)).status, 404);
    assert.equal((await api.raw('GET', `/api/v4/file/info?path=${encodeURIComponent('/Shared with me/Alice – Project')}`, { token: carol.token })).status, 404);
    assert.equal((await activity(bob, `?path=${encodeURIComponent('/Private')}`)).status, 404);
  });

  it('an item\'s history follows it by id through a rename; a folder\'s includes what happened beneath it', async () => {
    const file = await activity(alice, `?path=${encodeURIComponent('/Project/roadmap.txt')}`);
    assert.deepEqual(brief(file.items), ['link_downloaded /Project/roadmap.txt', 'moved /Project/roadmap.txt <- /Project/plan.txt', 'created /Project/plan.txt']);
    const asBob = await activity(bob, `?path=${encodeURIComponent('/Shared with me/Alice – Project/roadmap.txt')}`);
    assert.deepEqual(brief(asBob.items), ['link_downloaded /Shared with me/Alice – Project/roadmap.txt', 'moved /Shared with me/Alice – Project/roadmap.txt <- /Shared with me/Alice – Project/plan.txt', 'created /Shared with me/Alice – Project/plan.txt']);
    const inbox = await activity(alice, `?path=${encodeURIComponent('/Project/Inbox')}`);
    assert.deepEqual(brief(inbox.items), ['link_uploaded /Project/Inbox/drop.txt', 'created /Project/Inbox']);
    assert.deepEqual(inbox.items[0]!.actor, { anonymous: true, name: 'Dora' });
    const moved = await activity(alice, `?path=${encodeURIComponent('/Project/secret-7f3a.txt')}`);
    assert.deepEqual(brief(moved.items), ['moved /Project/secret-7f3a.txt <- /Private/secret-7f3a.txt', 'created /Private/secret-7f3a.txt']);
  });

  it('filters, pages, and refuses a bad cursor with the envelope', async () => {
    const byType = await activity(alice, '?type=shared,link_uploaded');
    assert.deepEqual(brief(byType.items), ['link_uploaded /Project/Inbox/drop.txt', 'shared /Project', 'shared /Project']);
    const byActor = await activity(alice, `?actor=${dave.id}`);
    assert.deepEqual(brief(byActor.items), ['created /Project/dav-notes.txt', 'created /Project/notes.txt']);
    const all = (await activity(alice)).items.map((i) => i.id);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await activity(alice, `?page_size=4${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(p.status, 200, p.text);
      pages.push(...p.items.map((i) => i.id));
      cursor = p.cursor;
    } while (cursor !== null);
    assert.deepEqual(pages, all);
    for (const bad of ['abc', '-1', '1.5']) {
      const r = await activity(alice, `?cursor=${bad}`);
      assert.equal(r.status, 400, r.text);
      assert.notEqual(r.code, 0);
    }
    assert.equal((await activity(alice, '?type=renamed')).status, 400);
  });

  it('a revoked grant takes the history with it', async () => {
    assert.equal((await api.delete(`/api/v4/file/access/${bobGrant}`, undefined, { token: alice.token })).status, 200);
    const r = await activity(bob);
    assert.equal(r.status, 200);
    assert.deepEqual(r.items, []);
    assert.equal((await activity(bob, `?path=${encodeURIComponent('/Shared with me/Alice – Project/roadmap.txt')}`)).status, 404);
    assert.equal((await activity(alice, '?type=unshared')).items.length, 1, 'the owner sees the revocation');
  });
});
