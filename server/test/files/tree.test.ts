// The file tree through the API: create, list (keyset pages), rename, move,
// copy, info, and every bad name and path the issue lists.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, download, list, names, newUser, put, q, type FileView, type Person } from './helpers.js';

describe('file tree', () => {
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

  const create = (p: Person, path: string, type: 'file' | 'folder') => api.post<FileView>('/api/v4/file/create', { path, type }, { token: p.token });
  const rename = (p: Person, path: string, new_name: string) => api.post<FileView>('/api/v4/file/rename', { path, new_name }, { token: p.token });
  const move = (p: Person, paths: string[], dst: string, copy?: boolean) =>
    api.post<{ results: { path: string; code: number; msg: string; file?: FileView }[] }>('/api/v4/file/move', { paths, dst, ...(copy ? { copy } : {}) }, { token: p.token });
  const info = (p: Person, path: string) => api.get<FileView>(`/api/v4/file/info?path=${q(path)}`, { token: p.token });

  it('creates folders and empty files with the contract file object; parents are created', async () => {
    const res = await create(alice, '/projects/2024/notes.md', 'file');
    assert.equal(res.status, 200, res.text);
    const f = res.body.data;
    assert.deepEqual(Object.keys(f).sort(), ['created_at', 'id', 'mime_type', 'name', 'path', 'size', 'type', 'updated_at']);
    assert.equal(f.path, '/projects/2024/notes.md');
    assert.equal(f.type, 'file');
    assert.equal(f.size, 0);
    assert.equal(f.mime_type, 'text/markdown');
    assert.match(f.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.deepEqual(await names(api, alice.token, '/projects'), ['2024']);
    const folder = await create(alice, '/projects/2025', 'folder');
    assert.equal(folder.body.data.type, 'folder');
    assert.equal(folder.body.data.mime_type, null);
  });

  it('409 when the name is taken, by a file or a folder', async () => {
    await create(alice, '/dup/x', 'folder');
    for (const type of ['file', 'folder'] as const) {
      const res = await create(alice, '/dup/x', type);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 409);
    }
    assert.equal((await create(alice, '/', 'folder')).status, 409);
  });

  it('lists folders first, then names case-insensitively and naturally (issue 23)', async () => {
    for (const n of ['b.txt', 'file10', 'a.txt', 'Zed', 'File2', 'file1']) assert.equal((await create(alice, `/order/${n}`, 'file')).status, 200, n);
    await create(alice, '/order/zfolder', 'folder');
    await create(alice, '/order/Afolder', 'folder');
    assert.deepEqual(await names(api, alice.token, '/order'), ['Afolder', 'zfolder', 'a.txt', 'b.txt', 'file1', 'File2', 'file10', 'Zed']);
  });

  it('pages with an opaque next_page_token and stays stable under concurrent inserts', async () => {
    for (let i = 0; i < 25; i++) await create(alice, `/paged/f${String(i).padStart(2, '0')}`, 'file');
    const first = await list(api, alice.token, '/paged', '&page_size=10');
    assert.equal(first.body.data.files.length, 10);
    assert.equal(first.body.data.files[9]!.name, 'f09');
    const token = first.body.data.next_page_token;
    assert.equal(typeof token, 'string');
    // Inserts before and after the cursor while paging: nothing is skipped or repeated.
    await create(alice, '/paged/f00a', 'file');
    await create(alice, '/paged/f15a', 'file');
    const seen = first.body.data.files.map((f) => f.name);
    let next: string | null = token;
    while (next) {
      const page = await list(api, alice.token, '/paged', `&page_size=10&next_page_token=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200, page.text);
      seen.push(...page.body.data.files.map((f) => f.name));
      next = page.body.data.next_page_token;
    }
    assert.equal(new Set(seen).size, seen.length, 'no duplicates');
    assert.ok(seen.includes('f15a') && !seen.includes('f00a'));
    assert.equal(seen.length, 26);
  });

  it('a page token from another folder, or forged, is 400', async () => {
    const first = await list(api, alice.token, '/paged', '&page_size=5');
    const token = first.body.data.next_page_token!;
    assert.equal((await list(api, alice.token, '/order', `&next_page_token=${encodeURIComponent(token)}`)).status, 400);
    assert.equal((await list(api, alice.token, '/paged', '&next_page_token=not-a-token')).status, 400);
    assert.equal((await list(api, alice.token, '/paged', '&page_size=0')).status, 400);
  });

  it('names are normalised to NFC: decomposed and composed spellings are one name', async () => {
    const decomposed = '/nfc/Cafe\u0301.txt';
    const res = await put(api, alice.token, decomposed, 'crème');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.name, 'Caf\u00e9.txt');
    assert.equal((await info(alice, '/nfc/Caf\u00e9.txt')).status, 200);
    assert.equal((await create(alice, '/nfc/Caf\u00e9.txt', 'file')).status, 409);
    assert.equal((await download(api, alice.token, decomposed)).body.toString(), 'crème');
  });

  it('rejects path traversal in every spelling with 400 and changes nothing', async () => {
    await put(api, alice.token, '/safe/secret.txt', 'x');
    const bad = ['/safe/../etc', '/../x', '/safe/./x', 'safe/x', '', '//x', '/safe//x', '/a\\..\\b', '/x\\y', '/a/..', '/%2e%2e/x'.replace('%2e%2e', '..')];
    for (const path of bad) {
      const res = await create(alice, path, 'folder');
      assert.equal(res.status, 400, `${JSON.stringify(path)}: ${res.text}`);
      assert.equal(res.body.code, 40001);
    }
    // Percent-encoded dots in the query string decode to ".." and are refused too.
    const encoded = await api.get(`/api/v4/file?path=/safe/%2e%2e/`, { token: alice.token });
    assert.equal(encoded.status, 400);
    // A double-encoded "%2e%2e" is a literal name, not a traversal.
    assert.equal((await create(alice, '/safe/%2e%2e', 'folder')).status, 200);
    assert.deepEqual(await names(api, alice.token, '/safe'), ['%2e%2e', 'secret.txt']);
    for (const newName of ['..', '.', 'a/b', '/etc/passwd', 'a\\b', '']) {
      const res = await rename(alice, '/safe/secret.txt', newName);
      assert.equal(res.status, 400, `${JSON.stringify(newName)}`);
    }
    assert.equal((await info(alice, '/safe/secret.txt')).status, 200);
  });

  it('rejects NUL and control characters, lone surrogates and names over 255 bytes', async () => {
    for (const name of ['a\u0000b', 'tab\there', 'new\nline', 'del\u007f', 'c1\u0085', '\ud800x']) {
      const res = await create(alice, `/ctl/${name}`, 'file');
      assert.equal(res.status, 400, JSON.stringify(name));
    }
    const ok255 = 'é'.repeat(127) + 'x'; // 255 bytes
    assert.equal((await create(alice, `/long/${ok255}`, 'file')).status, 200);
    const res = await create(alice, `/long/${ok255}y`, 'file');
    assert.equal(res.status, 400);
    assert.match(res.body.msg, /255 bytes/);
    assert.equal((await list(api, alice.token, '/ctl')).status, 404);
  });

  it("another user's paths and ids are 404, never 403", async () => {
    const mine = await put(api, alice.token, '/private/diary.txt', 'dear diary');
    assert.equal((await info(bob, '/private/diary.txt')).status, 404);
    assert.equal((await download(api, bob.token, '/private/diary.txt')).status, 404);
    const byId = await api.get(`/api/v4/file/info?id=${mine.body.data.id}`, { token: bob.token });
    assert.equal(byId.status, 404);
    assert.equal(byId.body.code, 404);
    const own = await api.get<FileView>(`/api/v4/file/info?id=${mine.body.data.id}`, { token: alice.token });
    assert.equal(own.body.data.path, '/private/diary.txt');
    assert.equal((await move(bob, ['/private/diary.txt'], '/')).status, 404);
  });

  it('renames (metadata only: same id), updates the MIME type, 409 on a taken name', async () => {
    const f = await put(api, alice.token, '/ren/a.txt', 'aaa');
    await put(api, alice.token, '/ren/b.txt', 'bbb');
    const res = await rename(alice, '/ren/a.txt', 'a.png');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, f.body.data.id);
    assert.equal(res.body.data.path, '/ren/a.png');
    assert.equal(res.body.data.mime_type, 'image/png');
    assert.equal((await rename(alice, '/ren/a.png', 'b.txt')).status, 409);
    assert.equal((await download(api, alice.token, '/ren/a.png')).body.toString(), 'aaa');
    assert.equal((await rename(alice, '/', 'x')).status, 400);
  });

  it('moves files and folders (ids kept) and reports each item of a batch', async () => {
    const folder = await create(alice, '/mv/src/deep', 'folder');
    await put(api, alice.token, '/mv/src/deep/f.txt', 'payload');
    await create(alice, '/mv/dst', 'folder');
    await put(api, alice.token, '/mv/dst/taken.txt', 'old');
    await put(api, alice.token, '/mv/taken.txt', 'new');
    const res = await move(alice, ['/mv/src/deep', '/mv/taken.txt', '/mv/missing'], '/mv/dst');
    assert.equal(res.status, 200, res.text);
    const [ok, taken, missing] = res.body.data.results;
    assert.equal(ok!.code, 0);
    assert.equal(ok!.file!.id, folder.body.data.id);
    assert.equal(ok!.file!.path, '/mv/dst/deep');
    assert.equal(taken!.code, 409);
    assert.equal(missing!.code, 404);
    assert.equal((await download(api, alice.token, '/mv/dst/deep/f.txt')).body.toString(), 'payload');
    assert.equal((await download(api, alice.token, '/mv/taken.txt')).body.toString(), 'new');
    assert.deepEqual(await names(api, alice.token, '/mv/src'), []);
  });

  it('a batch whose every item fails answers with the first error and the results', async () => {
    const res = await move(alice, ['/mv/nothing-here'], '/mv/dst');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 404);
    assert.equal((res.body.data as { results: unknown[] }).results.length, 1);
  });

  it('refuses to move or copy a folder into itself or a descendant (400), or onto a file (409)', async () => {
    await create(alice, '/cyc/a/b/c', 'folder');
    await put(api, alice.token, '/cyc/file.txt', 'x');
    for (const dst of ['/cyc/a', '/cyc/a/b', '/cyc/a/b/c']) {
      for (const copy of [false, true]) {
        const res = await move(alice, ['/cyc/a'], dst, copy);
        assert.equal(res.status, 400, `${dst} copy=${copy}: ${res.text}`);
        assert.match(res.body.msg, /into itself/);
      }
    }
    assert.equal((await move(alice, ['/cyc/a'], '/cyc/file.txt')).status, 409);
    assert.equal((await move(alice, ['/'], '/cyc')).status, 400);
    assert.deepEqual(await names(api, alice.token, '/cyc/a/b'), ['c']);
  });

  it('copies a subtree: new ids, same bytes, independent afterwards', async () => {
    await put(api, alice.token, '/cp/src/one.txt', 'one');
    await put(api, alice.token, '/cp/src/sub/two.txt', 'two');
    await create(alice, '/cp/dst', 'folder');
    const res = await move(alice, ['/cp/src'], '/cp/dst', true);
    assert.equal(res.status, 200, res.text);
    const copy = res.body.data.results[0]!.file!;
    assert.equal(copy.path, '/cp/dst/src');
    assert.equal((await download(api, alice.token, '/cp/dst/src/sub/two.txt')).body.toString(), 'two');
    await put(api, alice.token, '/cp/src/one.txt', 'changed');
    assert.equal((await download(api, alice.token, '/cp/dst/src/one.txt')).body.toString(), 'one');
    // Copying into the same folder makes "one (copy).txt" (manager-ops.test.ts); into a folder where the name is taken: 409.
    assert.equal((await move(alice, ['/cp/src/one.txt'], '/cp/dst/src', true)).status, 409);
  });

  it('listing a file path is 400; a missing path is 404', async () => {
    assert.equal((await list(api, alice.token, '/cp/src/one.txt')).status, 400);
    assert.equal((await list(api, alice.token, '/nope')).status, 404);
    assert.equal((await api.get('/api/v4/file/info', { token: alice.token })).status, 400);
  });

  it('needs a token: 401 without one', async () => {
    assert.equal((await api.get('/api/v4/file?path=/')).status, 401);
    assert.equal((await api.post('/api/v4/file/create', { path: '/x', type: 'folder' })).status, 401);
  });
});
