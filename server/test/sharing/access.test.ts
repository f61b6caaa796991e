// Sharing with people and groups (api-contract §13, issue 22) through the
// public API and WebDAV: grants, "Shared with me", writes charged to the
// owner, read grants refusing every write path, nothing above or beside the
// shared item reachable by any spelling, revocation, moves and the trash.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { capacity, download, names, put, q, type FileView } from '../files/helpers.js';
import { dav } from '../webdav/helpers.js';
import { assertDavWritesRefused, davPath, adminToken, grant, member, sharedWith, type Grant, type Member } from './helpers.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('sharing with people', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let shareW: string;
  let shareR: string;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    alice = await member(api, admin, { nickname: 'Alice' });
    bob = await member(api, admin, { nickname: 'Bob' });
    carol = await member(api, admin, { nickname: 'Carol' });
    await put(api, alice.token, '/team/plan.txt', 'the plan');
    await put(api, alice.token, '/team/sub/deep.txt', 'deep');
    await put(api, alice.token, '/secret.txt', 'not for you');
    await put(api, alice.token, '/team-private/x.txt', 'sibling with a shared prefix');
  });
  after(() => server.close());

  const bearer = (p: Member) => `Bearer ${p.token}`;

  it('a grant by e-mail shows the item under "Shared with me" with the owner and an en-dash path', async () => {
    const res = await grant(api, alice, { path: '/team', user: bob.email, permission: 'write' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.user?.id, bob.id);
    const items = await sharedWith(api, bob);
    assert.equal(items.length, 1);
    const item = items[0]!;
    assert.equal(item.path, '/Shared with me/Alice – team');
    assert.equal(item.type, 'folder');
    assert.equal(item.permission, 'write');
    assert.deepEqual(item.owner, { id: alice.id, nickname: 'Alice', email: alice.email });
    assert.equal(item.new, true);
    shareW = item.path;
    // By UID, read only.
    const byUid = await grant(api, alice, { path: '/team', user: carol.id, permission: 'read' });
    assert.equal(byUid.status, 200, byUid.text);
    shareR = (await sharedWith(api, carol))[0]!.path;
    assert.equal(shareR, '/Shared with me/Alice – team');
    // The owner sees both grants.
    const list = await api.get<Grant[]>(`/api/v4/file/access?path=${q('/team')}`, { token: alice.token });
    assert.deepEqual(list.body.data.map((g) => [g.user?.email, g.permission]), [[bob.email, 'write'], [carol.email, 'read']]);
    // Nobody but the owner manages them.
    assert.equal((await api.get(`/api/v4/file/access?path=${q(shareW)}`, { token: bob.token })).status, 403);
    assert.equal((await grant(api, bob, { path: shareW, user: carol.email, permission: 'write' })).status, 403);
    // Marking seen clears the badge.
    assert.equal((await api.post('/api/v4/file/shared/seen', undefined, { token: bob.token })).status, 200);
    assert.equal((await sharedWith(api, bob))[0]!.new, false);
  });

  it('the recipient lists, reads and zips the shared folder as their own, under their path', async () => {
    const page = await api.get<{ files: FileView[]; parent: FileView }>(`/api/v4/file?path=${q(shareR)}`, { token: carol.token });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body.data.files.map((f) => f.path), [`${shareR}/sub`, `${shareR}/plan.txt`]);
    assert.equal(page.body.data.parent.path, shareR);
    assert.equal((await download(api, carol.token, `${shareR}/sub/deep.txt`)).body.toString(), 'deep');
    const info = await api.get<FileView>(`/api/v4/file/info?path=${q(`${shareR}/plan.txt`)}`, { token: carol.token });
    assert.equal(info.body.data.path, `${shareR}/plan.txt`);
    // By id too, under the shared path.
    const byId = await api.get<FileView>(`/api/v4/file/info?id=${info.body.data.id}`, { token: carol.token });
    assert.equal(byId.body.data.path, `${shareR}/plan.txt`);
    const zip = await api.fetch(`/api/v4/file/archive?path=${q(shareR)}`, { headers: { authorization: bearer(carol) } });
    assert.equal(zip.status, 200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    assert.ok(bytes.includes(Buffer.from('plan.txt')) && !bytes.includes(Buffer.from('secret.txt')));
    // The virtual folder lists what is shared.
    const top = await api.get<{ files: FileView[] }>(`/api/v4/file?path=${q('/Shared with me')}`, { token: carol.token });
    assert.deepEqual(top.body.data.files.map((f) => f.path), [shareR]);
    // A signed URL of a shared file works without a token.
    const signed = await api.post<{ url: string }>('/api/v4/file/url', { path: `${shareR}/plan.txt` }, { token: carol.token });
    assert.equal(signed.status, 200, signed.text);
    const got = await fetch(signed.body.data.url);
    assert.equal(await got.text(), 'the plan');
  });

  it('a write grant lets the recipient upload into the owner\'s folder; the owner\'s quota moves, not the recipient\'s', async () => {
    const before = { alice: (await capacity(api, alice.token)).used, bob: (await capacity(api, bob.token)).used };
    const body = Buffer.alloc(10_000, 7);
    const res = await put(api, bob.token, `${shareW}/from-bob.bin`, body);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.path, `${shareW}/from-bob.bin`);
    // tus (https://tus.io/protocols/resumable-upload) into the share.
    const created = await api.fetch('/api/v4/file/upload', {
      method: 'POST',
      headers: { authorization: bearer(bob), 'tus-resumable': '1.0.0', 'upload-length': '5000', 'upload-metadata': `path ${b64(`${shareW}/sub/tus.bin`)}` },
    });
    assert.equal(created.status, 201, await created.text());
    const location = created.headers.get('location')!;
    const patched = await api.fetch(new URL(location, server.url).pathname, {
      method: 'PATCH',
      headers: { authorization: bearer(bob), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(5000, 1),
    });
    assert.equal(patched.status, 204, await patched.text());
    // Another person cannot continue it.
    const head = await api.fetch(new URL(location, server.url).pathname, { method: 'HEAD', headers: { authorization: bearer(carol), 'tus-resumable': '1.0.0' } });
    assert.equal(head.status, 404);
    // WebDAV PUT and MKCOL into the share.
    assert.equal((await dav(server, 'PUT', davPath(`${shareW}/dav.txt`), bearer(bob), { body: 'via dav' })).status, 201);
    assert.equal((await dav(server, 'MKCOL', davPath(`${shareW}/made`), bearer(bob))).status, 201);
    assert.deepEqual(await names(api, alice.token, '/team'), ['made', 'sub', 'dav.txt', 'from-bob.bin', 'plan.txt']);
    const afterUse = { alice: (await capacity(api, alice.token)).used, bob: (await capacity(api, bob.token)).used };
    assert.equal(afterUse.alice - before.alice, 10_000 + 5000 + 'via dav'.length);
    assert.equal(afterUse.bob, before.bob);
  });

  it('a write grant renames and deletes inside the share; a deletion goes to the owner\'s trash', async () => {
    const renamed = await api.post<FileView>('/api/v4/file/rename', { path: `${shareW}/dav.txt`, new_name: 'dav2.txt' }, { token: bob.token });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.data.path, `${shareW}/dav2.txt`);
    const moved = await api.post<{ results: { code: number }[] }>('/api/v4/file/move', { paths: [`${shareW}/dav2.txt`], dst: `${shareW}/made` }, { token: bob.token });
    assert.equal(moved.body.data.results[0]!.code, 0, moved.text);
    const removed = await api.delete<{ results: { code: number }[] }>('/api/v4/file', { paths: [`${shareW}/made`], permanent: true }, { token: bob.token });
    assert.equal(removed.body.data.results[0]!.code, 0, removed.text);
    const trash = await api.get<{ files: { original_path: string }[] }>('/api/v4/file/trash', { token: alice.token });
    assert.ok(trash.body.data.files.some((f) => f.original_path === '/team/made'), 'in the owner\'s trash even when asked "permanent"');
    // The shared item itself stays the owner's to rename, move or delete.
    assert.equal((await api.post('/api/v4/file/rename', { path: shareW, new_name: 'mine' }, { token: bob.token })).status, 403);
    const gone = await api.delete<{ results: { code: number }[] }>('/api/v4/file', { paths: [shareW] }, { token: bob.token });
    assert.equal(gone.body.data.results[0]!.code, 403);
  });

  it('moves and copies out of a share, or into it from one\'s own files, are refused', async () => {
    await put(api, bob.token, '/bob-own.txt', 'mine');
    const out = await api.post<{ results: { code: number }[] }>('/api/v4/file/move', { paths: [`${shareW}/plan.txt`], dst: '/' }, { token: bob.token });
    assert.equal(out.body.data.results[0]!.code, 403);
    const copyOut = await api.post<{ results: { code: number }[] }>('/api/v4/file/move', { paths: [`${shareW}/plan.txt`], dst: '/', copy: true }, { token: bob.token });
    assert.equal(copyOut.body.data.results[0]!.code, 403);
    const into = await api.post<{ results: { code: number }[] }>('/api/v4/file/move', { paths: ['/bob-own.txt'], dst: shareW }, { token: bob.token });
    assert.equal(into.body.data.results[0]!.code, 403);
    // WebDAV MOVE with a Destination outside the share (RFC 4918 §9.9).
    const davOut = await dav(server, 'MOVE', davPath(`${shareW}/plan.txt`), bearer(bob), { headers: { destination: `${server.url}/dav/stolen.txt` } });
    assert.equal(davOut.status, 403);
    assert.equal((await download(api, alice.token, '/team/plan.txt')).status, 200);
  });

  it('a read grant refuses every write path: API, tus and WebDAV PUT/MOVE/COPY/DELETE/PROPPATCH/LOCK/MKCOL', async () => {
    const t = carol.token;
    assert.equal((await put(api, t, `${shareR}/new.txt`, 'x')).status, 403);
    assert.equal((await put(api, t, `${shareR}/plan.txt`, 'overwrite')).status, 403);
    assert.equal((await api.post('/api/v4/file/create', { path: `${shareR}/f`, type: 'folder' }, { token: t })).status, 403);
    assert.equal((await api.post('/api/v4/file/rename', { path: `${shareR}/plan.txt`, new_name: 'p.txt' }, { token: t })).status, 403);
    const mv = await api.post('/api/v4/file/move', { paths: [`${shareR}/plan.txt`], dst: `${shareR}/sub` }, { token: t });
    assert.equal(mv.status, 403);
    const del = await api.delete('/api/v4/file', { paths: [`${shareR}/plan.txt`] }, { token: t });
    assert.equal(del.status, 403);
    const tus = await api.fetch('/api/v4/file/upload', {
      method: 'POST',
      headers: { authorization: bearer(carol), 'tus-resumable': '1.0.0', 'upload-length': '3', 'upload-metadata': `path ${b64(`${shareR}/t.bin`)}` },
    });
    assert.equal(tus.status, 403);
    await assertDavWritesRefused(server, bearer(carol), { file: `${shareR}/plan.txt`, moveTo: `${shareR}/sub/p.txt`, newFolder: `${shareR}/newdir` });
    const target = davPath(`${shareR}/plan.txt`);
    // Reading still works, over WebDAV too (RFC 4918 §9.1).
    const pf = await dav(server, 'PROPFIND', davPath(shareR) + '/', bearer(carol), { headers: { depth: '1' } });
    assert.equal(pf.status, 207);
    assert.match(pf.text, /plan\.txt/);
    assert.doesNotMatch(pf.text, /secret/);
    assert.equal((await dav(server, 'GET', target, bearer(carol))).text, 'the plan');
  });

  it('nothing above or beside the shared item is reachable by any spelling', async () => {
    const t = carol.token;
    const secret = (await api.get<FileView>(`/api/v4/file/info?path=${q('/secret.txt')}`, { token: alice.token })).body.data;
    const spellings = [
      `${shareR}/../secret.txt`,
      `${shareR}/./../secret.txt`,
      `${shareR}/%2e%2e/secret.txt`,
      `${shareR}/..%2fsecret.txt`,
      `${shareR}/sub/../../secret.txt`,
      `/Shared with me/Alice – team-private/x.txt`,
      `/Shared with me/../secret.txt`,
      `/Shared with me/Alice/secret.txt`,
      '/secret.txt',
    ];
    for (const p of spellings) {
      const res = await download(api, t, p);
      assert.ok(res.status === 400 || res.status === 404, `${p}: ${res.status}`);
      assert.notEqual(res.body.toString(), 'not for you');
      const raw = await api.fetch(`/api/v4/file/content?path=${p.replace(/ /g, '%20').replace(/–/g, '%E2%80%93')}`, { headers: { authorization: bearer(carol) } });
      assert.ok(raw.status === 400 || raw.status === 404, `raw ${p}: ${raw.status}`);
    }
    // By id.
    assert.equal((await api.get(`/api/v4/file/info?id=${secret.id}`, { token: t })).status, 404);
    // Zip and signed URLs.
    const zip = await api.fetch('/api/v4/file/archive', { method: 'POST', headers: { authorization: bearer(carol), 'content-type': 'application/json' }, body: JSON.stringify({ paths: [`${shareR}/../secret.txt`] }) });
    assert.ok(zip.status === 400 || zip.status === 404);
    const zip2 = await api.fetch('/api/v4/file/archive', { method: 'POST', headers: { authorization: bearer(carol), 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['/secret.txt'] }) });
    assert.equal(zip2.status, 404);
    assert.equal((await api.post('/api/v4/file/url', { path: `${shareR}/../secret.txt` }, { token: t })).status, 400);
    assert.equal((await api.post('/api/v4/file/archive/url', { paths: ['/secret.txt'] }, { token: t })).status, 404);
    // WebDAV: raw and encoded dot segments, and a Destination above the share.
    for (const p of [`${davPath(shareR)}/../secret.txt`, `${davPath(shareR)}/%2e%2e/secret.txt`, `${davPath(shareR)}/%2E%2E/%2E%2E/secret.txt`, '/dav/secret.txt']) {
      const res = await dav(server, 'GET', p, bearer(carol));
      assert.notEqual(res.text, 'not for you', p);
      assert.ok(res.status >= 400, `${p}: ${res.status}`);
    }
    const davMove = await dav(server, 'COPY', davPath(`${shareW}/plan.txt`), bearer(bob), { headers: { destination: `${server.url}${davPath(shareW)}/../secret.txt`, overwrite: 'T' } });
    assert.ok(davMove.status >= 400, `${davMove.status}`);
    assert.equal((await download(api, alice.token, '/secret.txt')).body.toString(), 'not for you');
  });

  it('access follows the item through a rename and a move; the owner\'s deletion hides it and a restore brings it back', async () => {
    await api.post('/api/v4/file/create', { path: '/projects', type: 'folder' }, { token: alice.token });
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/team'], dst: '/projects' }, { token: alice.token })).status, 200);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/projects/team', new_name: 'crew' }, { token: alice.token })).status, 200);
    const items = await sharedWith(api, carol);
    assert.equal(items[0]!.path, '/Shared with me/Alice – crew');
    const path = items[0]!.path;
    assert.equal((await download(api, carol.token, `${path}/plan.txt`)).body.toString(), 'the plan');
    await api.delete('/api/v4/file', { paths: ['/projects'] }, { token: alice.token });
    assert.deepEqual(await sharedWith(api, carol), []);
    assert.equal((await download(api, carol.token, `${path}/plan.txt`)).status, 404);
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: alice.token });
    const id = trash.body.data.files.find((f) => f.original_path === '/projects')!.id;
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [id] }, { token: alice.token })).status, 200);
    assert.equal((await sharedWith(api, carol))[0]!.path, path);
    assert.equal((await download(api, carol.token, `${path}/plan.txt`)).body.toString(), 'the plan');
    shareR = path;
    shareW = path;
  });

  it('names that clash: the label stays with the grant that held it, the newcomer gets part of its item\'s id, the same way every time', async () => {
    const dave = await member(api, admin, { nickname: 'Alice' });
    await put(api, dave.token, '/crew/d.txt', 'dave');
    assert.equal((await grant(api, dave, { path: '/crew', user: carol.email, permission: 'read' })).status, 200);
    const daves = (await api.get<FileView>(`/api/v4/file/info?path=${q('/crew')}`, { token: dave.token })).body.data.id;
    const paths = (await sharedWith(api, carol)).map((i) => [i.owner.id, i.path]);
    const second = `/Shared with me/Alice – crew (${daves.slice(0, 6)})`;
    assert.deepEqual(paths, [[alice.id, '/Shared with me/Alice – crew'], [dave.id, second]]);
    assert.deepEqual((await sharedWith(api, carol)).map((i) => [i.owner.id, i.path]), paths);
    assert.equal((await download(api, carol.token, `${second}/d.txt`)).body.toString(), 'dave');
  });

  it('revocation is immediate, for API, tus and WebDAV', async () => {
    const grants = await api.get<Grant[]>(`/api/v4/file/access?path=${q('/projects/crew')}`, { token: alice.token });
    const carolGrant = grants.body.data.find((g) => g.user?.id === carol.id)!;
    assert.equal((await download(api, carol.token, `${shareR}/plan.txt`)).status, 200);
    // Only the owner revokes.
    assert.equal((await api.delete(`/api/v4/file/access/${carolGrant.id}`, undefined, { token: bob.token })).status, 404);
    assert.equal((await api.delete(`/api/v4/file/access/${carolGrant.id}`, undefined, { token: alice.token })).status, 200);
    assert.equal((await download(api, carol.token, `${shareR}/plan.txt`)).status, 404);
    assert.equal((await dav(server, 'GET', davPath(`${shareR}/plan.txt`), bearer(carol))).status, 404);
    // An upload started before a revocation stops at its next PATCH.
    const created = await api.fetch('/api/v4/file/upload', {
      method: 'POST',
      headers: { authorization: bearer(bob), 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': `path ${b64(`${shareW}/late.bin`)}` },
    });
    assert.equal(created.status, 201);
    const bobGrant = grants.body.data.find((g) => g.user?.id === bob.id)!;
    assert.equal((await api.delete(`/api/v4/file/access/${bobGrant.id}`, undefined, { token: alice.token })).status, 200);
    const patched = await api.fetch(new URL(created.headers.get('location')!, server.url).pathname, {
      method: 'PATCH',
      headers: { authorization: bearer(bob), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(10, 1),
    });
    assert.equal(patched.status, 404);
  });
});
