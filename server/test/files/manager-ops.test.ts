// What the web file manager needs from the API (issue 23): a name check that
// answers 200 for missing names (POST /file/exists), copies into the source's
// own folder as "name (copy).ext", moves that keep the modified time (API and
// WebDAV MOVE), and restores from the trash that ask before clashing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, download, names, newUser, put, q, type FileView, type Person } from './helpers.js';
import { dav } from '../webdav/helpers.js';

interface ExistsResult {
  path: string;
  exists: boolean;
  type: 'file' | 'folder' | null;
  code: number;
  msg: string;
}

describe('file manager operations', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let bob: Person;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    bob = await newUser(api, admin);
  });
  after(() => server.close());

  const exists = (p: Person, paths: string[]) => api.post<{ results: ExistsResult[] }>('/api/v4/file/exists', { paths }, { token: p.token });

  it('POST /file/exists answers 200 for taken, missing and invalid paths, each with its own result', async () => {
    assert.equal((await put(api, alice.token, '/ex/report.txt', 'r')).status, 200);
    const res = await exists(alice, ['/ex/report.txt', '/ex', '/ex/missing.txt', '/nowhere/deep/x.txt', '/ex/back\\slash.txt', '/ex/report.txt/under']);
    assert.equal(res.status, 200, res.text);
    const r = res.body.data.results;
    assert.deepEqual(
      r.map((x) => [x.path, x.exists, x.type, x.code]),
      [
        ['/ex/report.txt', true, 'file', 0],
        ['/ex', true, 'folder', 0],
        ['/ex/missing.txt', false, null, 0],
        ['/nowhere/deep/x.txt', false, null, 0],
        ['/ex/back\\slash.txt', false, null, 40001],
        ['/ex/report.txt/under', false, null, 0],
      ],
    );
    assert.match(r[4]!.msg, /\\/, 'the reason names the backslash');
  });

  it('POST /file/exists sees only the caller\'s own tree, and needs a token and a body', async () => {
    const res = await exists(bob, ['/ex/report.txt']);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.results[0]!.exists, false);
    assert.equal((await api.post('/api/v4/file/exists', { paths: ['/ex'] })).status, 401);
    const empty = await api.post('/api/v4/file/exists', { paths: [] }, { token: alice.token });
    assert.equal(empty.status, 400);
    assert.equal((empty.body as unknown as { code: number }).code, 40001);
    assert.equal((await exists(alice, ['relative'])).body.data.results[0]!.code, 40001);
  });

  const move = (p: Person, paths: string[], dst: string, copy = false) =>
    api.post<{ results: { path: string; code: number; msg: string; file?: FileView }[] }>('/api/v4/file/move', { paths, dst, copy }, { token: p.token });
  const info = async (p: Person, path: string) => (await api.get<FileView>(`/api/v4/file/info?path=${q(path)}`, { token: p.token })).body.data;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a copy into the source\'s own folder is "name (copy).ext", then "name (copy 2).ext"; a folder "Dir (copy)"', async () => {
    await put(api, alice.token, '/cp/report.pdf', 'pdf bytes');
    await put(api, alice.token, '/cp/Dir/inner.txt', 'inner');
    await put(api, alice.token, '/cp/.env', 'dot');
    const first = await move(alice, ['/cp/report.pdf'], '/cp', true);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.results[0]!.file!.path, '/cp/report (copy).pdf');
    const second = await move(alice, ['/cp/report.pdf', '/cp/Dir', '/cp/.env'], '/cp', true);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.data.results.map((r) => r.file?.path), ['/cp/report (copy 2).pdf', '/cp/Dir (copy)', '/cp/.env (copy)']);
    assert.equal((await download(api, alice.token, '/cp/report (copy 2).pdf')).body.toString(), 'pdf bytes');
    assert.equal((await download(api, alice.token, '/cp/Dir (copy)/inner.txt')).body.toString(), 'inner');
    assert.deepEqual((await names(api, alice.token, '/cp')).sort(), ['.env', '.env (copy)', 'Dir', 'Dir (copy)', 'report (copy 2).pdf', 'report (copy).pdf', 'report.pdf']);
    // A copy of the copy follows the same rule.
    assert.equal((await move(alice, ['/cp/report (copy).pdf'], '/cp', true)).body.data.results[0]!.file!.path, '/cp/report (copy) (copy).pdf');
    // Into another folder where the name is taken: still a conflict.
    await put(api, alice.token, '/cp2/report.pdf', 'other');
    assert.equal((await move(alice, ['/cp/report.pdf'], '/cp2', true)).status, 409);
  });

  it('a move into the same folder is a no-op; a move keeps the modified time (API)', async () => {
    const made = (await put(api, alice.token, '/mv/a.txt', 'a')).body.data;
    await put(api, alice.token, '/mv/dst/keep.txt', 'k');
    await sleep(30);
    const same = await move(alice, ['/mv/a.txt'], '/mv');
    assert.equal(same.status, 200);
    assert.equal(same.body.data.results[0]!.file!.updated_at, made.updated_at);
    const moved = await move(alice, ['/mv/a.txt'], '/mv/dst');
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.data.results[0]!.file!.updated_at, made.updated_at);
    assert.equal((await info(alice, '/mv/dst/a.txt')).updated_at, made.updated_at);
    // A folder too.
    const folder = await info(alice, '/mv/dst');
    await sleep(30);
    await move(alice, ['/mv/dst'], '/');
    assert.equal((await info(alice, '/dst')).updated_at, folder.updated_at);
  });

  it('RFC 4918 §9.9: a WebDAV MOVE (also with a new name) keeps getlastmodified and updated_at', async () => {
    const bearer = `Bearer ${alice.token}`;
    const made = (await put(api, alice.token, '/davmv/song.mp3', 'la la')).body.data;
    assert.equal((await dav(server, 'MKCOL', '/dav/davmv/into', bearer)).status, 201);
    await sleep(1100); // getlastmodified has whole seconds
    const propfind = async (path: string) => {
      const res = await dav(server, 'PROPFIND', path, bearer, { headers: { depth: '0' } });
      assert.equal(res.status, 207, res.text);
      return /<D:getlastmodified>([^<]+)</i.exec(res.text)?.[1];
    };
    const before = await propfind('/dav/davmv/song.mp3');
    assert.ok(before);
    assert.equal((await dav(server, 'MOVE', '/dav/davmv/song.mp3', bearer, { headers: { destination: '/dav/davmv/into/renamed.mp3' } })).status, 201);
    assert.equal(await propfind('/dav/davmv/into/renamed.mp3'), before);
    assert.equal((await info(alice, '/davmv/into/renamed.mp3')).updated_at, made.updated_at);
  });

  it('restore with on_conflict: fail answers 409 and leaves the item in the trash; replace trashes the item in the way; rename numbers it', async () => {
    const trashList = async () => (await api.get<{ files: { id: string; name: string; original_path: string }[] }>('/api/v4/file/trash?page_size=200', { token: alice.token })).body.data.files;
    const restore = (ids: string[], on_conflict?: string) =>
      api.post<{ results: { id: string; code: number; msg: string; file?: FileView }[] }>('/api/v4/file/trash/restore', { ids, ...(on_conflict ? { on_conflict } : {}) }, { token: alice.token });
    await put(api, alice.token, '/rs/doc.txt', 'old');
    await put(api, alice.token, '/rs/free.txt', 'free');
    assert.equal((await api.call('DELETE', '/api/v4/file', { token: alice.token, json: { paths: ['/rs/doc.txt', '/rs/free.txt'] } })).status, 200);
    await put(api, alice.token, '/rs/doc.txt', 'new');
    const trashed = await trashList();
    const doc = trashed.find((f) => f.original_path === '/rs/doc.txt')!;
    const free = trashed.find((f) => f.original_path === '/rs/free.txt')!;

    const clash = await restore([doc.id, free.id], 'fail');
    assert.equal(clash.status, 200, clash.text);
    assert.deepEqual(clash.body.data.results.map((r) => [r.id, r.code]), [[doc.id, 409], [free.id, 0]]);
    assert.match(clash.body.data.results[0]!.msg, /already exists/);
    assert.ok((await trashList()).some((f) => f.id === doc.id), 'the clashing item stays in the trash');
    const alone = await restore([doc.id], 'fail');
    assert.equal(alone.status, 409, 'one clashing item alone: the answer is its 409');

    const replaced = await restore([doc.id], 'replace');
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.data.results[0]!.file!.path, '/rs/doc.txt');
    assert.equal((await download(api, alice.token, '/rs/doc.txt')).body.toString(), 'old');
    const inTrash = (await trashList()).filter((f) => f.original_path === '/rs/doc.txt');
    assert.equal(inTrash.length, 1, 'the replaced file went to the trash');
    const kept = await restore([inTrash[0]!.id]);
    assert.equal(kept.body.data.results[0]!.file!.path, '/rs/doc (1).txt', 'the default still numbers the name');
    assert.equal((await download(api, alice.token, '/rs/doc (1).txt')).body.toString(), 'new');
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [doc.id], on_conflict: 'merge' }, { token: alice.token })).status, 400);
  });
});
