// Issue 19, item 2: paths could outgrow the 4096-byte limit by moving folders
// (17 moves of 15-deep chains of 250-byte names made a 67,859-byte path). Every
// operation that gives an item a new path now checks the whole path, bytes
// and depth, of the item and of its deepest/longest descendant; archives
// refuse names a ZIP header cannot hold before sending a byte.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, capacity, newUser, put, q, type FileView, type Person } from './helpers.js';
import { newFileRow, FOLDER, type FileRow } from '../../src/files/repository.js';

type Batch = { results: { path: string; code: number; msg: string; file?: FileView }[] };

/** A 250-byte name, distinct per `i`. */
const long = (i: number, fill = 'x') => `${String(i).padStart(3, '0')}${fill.repeat(247)}`;

describe('path limits (issue 19 item 2): 4096 bytes and 256 levels on every path change', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    alice = await newUser(api, await adminToken(api));
  });
  after(() => server.close());

  const create = (path: string, type: 'file' | 'folder') => api.post<FileView>('/api/v4/file/create', { path, type }, { token: alice.token });
  const move = (paths: string[], dst: string, copy = false) => api.post<Batch>('/api/v4/file/move', { paths, dst, copy }, { token: alice.token });
  const rename = (path: string, new_name: string) => api.post<FileView>('/api/v4/file/rename', { path, new_name }, { token: alice.token });
  const info = (path: string) => api.get<FileView>(`/api/v4/file/info?path=${q(path)}`, { token: alice.token });
  const bearer = () => ({ authorization: `Bearer ${alice.token}` });
  const tooLong = (res: { status: number; body: { code: number; msg: string } }, pattern: RegExp) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 40001);
    assert.match(res.body.msg, pattern);
  };

  /**
   * `/<top>/…` 16 folders of 250-byte names with a 5-byte file at the bottom:
   * the file's path is 16 × 251 + 6 = 4022 bytes, so a destination that adds
   * more than 74 bytes pushes it over while the top folder itself still fits.
   */
  async function chain(tag: string): Promise<{ top: string; file: string; names: string[] }> {
    const names = Array.from({ length: 16 }, (_, i) => long(i, tag));
    const file = `/${names.join('/')}/f.txt`;
    assert.equal(Buffer.byteLength(file), 4022);
    assert.equal((await put(api, alice.token, file, 'hello')).status, 200);
    return { top: `/${names[0]}`, file, names };
  }

  it('create and PUT: at most 256 levels deep (400/40001); 256 is fine', async () => {
    const deep = (n: number) => '/' + Array.from({ length: n }, () => 'a').join('/');
    assert.equal((await create(deep(256), 'folder')).status, 200);
    tooLong(await create(deep(257), 'folder'), /path: .*257 levels.*256/);
    tooLong(await put(api, alice.token, `${deep(256)}/x.txt`, 'x'), /257 levels/);
    assert.equal((await info(deep(256))).status, 200);
  });

  it('move and copy check the longest descendant path, not only the moved folder (the tree is unchanged, no quota charged)', async () => {
    const c = await chain('m');
    assert.equal((await create(`/${'d'.repeat(100)}`, 'folder')).status, 200);
    const before = await capacity(api, alice.token);
    for (const copy of [false, true]) {
      const res = await move([c.top], `/${'d'.repeat(100)}`, copy);
      tooLong(res, /dst: the path of an item inside the folder is too long \(4123 bytes; paths are at most 4096 bytes\)/);
      assert.equal(res.body.code, 40001);
    }
    assert.deepEqual(await capacity(api, alice.token), before);
    assert.equal((await info(c.file)).status, 200);
    assert.equal((await info(`/${'d'.repeat(100)}${c.top}`)).status, 404);
    // 74 bytes more still fits: "/" + 73.
    assert.equal((await create(`/${'s'.repeat(73)}`, 'folder')).status, 200);
    const ok = await move([c.top], `/${'s'.repeat(73)}`);
    assert.equal(ok.body.data.results[0]!.code, 0, ok.text);
    const moved = await info(`/${'s'.repeat(73)}${c.file}`);
    assert.equal(moved.status, 200, moved.text);
    assert.equal(Buffer.byteLength(moved.body.data.path), 4096);
  });

  it('move: a folder moved under another may not end up more than 256 levels deep', async () => {
    const sub = '/' + Array.from({ length: 200 }, () => 'z').join('/');
    assert.equal((await create(sub, 'folder')).status, 200);
    const deepDst = '/deep/' + Array.from({ length: 60 }, () => 'y').join('/');
    assert.equal((await create(deepDst, 'folder')).status, 200);
    tooLong(await move(['/z'], deepDst), /dst: the path of an item inside the folder is too deep \(261 levels; paths are at most 256 levels deep\)/);
    tooLong(await move(["/z"], deepDst, true), /261 levels/);
    assert.equal((await info(sub)).status, 200);
    const shallow = '/deep/' + Array.from({ length: 54 }, () => 'y').join('/');
    assert.equal((await move(['/z'], shallow)).body.data.results[0]!.code, 0);
    assert.equal((await info(`${shallow}${sub}`)).status, 200);
  });

  it('rename: a longer folder name may not push a descendant over the limit', async () => {
    const c = await chain('r');
    assert.equal((await create('/r', 'folder')).status, 200);
    assert.equal((await move([c.top], '/r')).body.data.results[0]!.code, 0);
    tooLong(await rename('/r', 'r'.repeat(80)), /new_name: the path of an item inside the folder is too long \(4103 bytes/);
    assert.equal((await info(`/r${c.file}`)).status, 200);
    const ok = await rename('/r', 'r'.repeat(70));
    assert.equal(ok.status, 200, ok.text);
    // A file's own new name counts too.
    tooLong(await rename(`/${'r'.repeat(70)}${c.file}`, 'g'.repeat(30)), /new_name: the new path .* is too long/);
  });

  it('restore from the trash: refused when the original folder\'s path grew meanwhile; the item stays in the trash', async () => {
    const c = await chain('t');
    assert.equal((await create('/t', 'folder')).status, 200);
    assert.equal((await move([c.top], '/t')).body.data.results[0]!.code, 0);
    const del = await api.call('DELETE', '/api/v4/file', { token: alice.token, json: { paths: [`/t${c.top}`] } });
    assert.equal(del.status, 200, del.text);
    // /t is empty now, so a long name is fine for it; the trashed chain no longer fits under it.
    assert.equal((await rename('/t', 't'.repeat(100))).status, 200);
    const trash = await api.get<{ files: (FileView & { original_path: string })[] }>('/api/v4/file/trash?page_size=1000', { token: alice.token });
    const item = trash.body.data.files.find((f) => f.name === c.names[0]);
    assert.ok(item, trash.text);
    const res = await api.post<Batch>('/api/v4/file/trash/restore', { ids: [item.id] }, { token: alice.token });
    tooLong(res, /ids: the path of an item inside the folder is too long \(4123 bytes/);
    const still = await api.get<{ files: FileView[] }>('/api/v4/file/trash?page_size=1000', { token: alice.token });
    assert.ok(still.body.data.files.some((f) => f.id === item.id));
    // Back at a short name, it restores.
    assert.equal((await rename(`/${'t'.repeat(100)}`, 't')).status, 200);
    const again = await api.post<Batch>('/api/v4/file/trash/restore', { ids: [item.id] }, { token: alice.token });
    assert.equal(again.status, 200, again.text);
    assert.equal((await info(`/t${c.file}`)).status, 200);
  });

  it('WebDAV MOVE and COPY (RFC 4918 §9.8, §9.9) check the descendants too: 400, nothing moved', async () => {
    const c = await chain('w');
    assert.equal((await create(`/${'v'.repeat(100)}`, 'folder')).status, 200);
    const dest = `/dav/${'v'.repeat(100)}/${encodeURIComponent(c.names[0]!)}`;
    for (const method of ['MOVE', 'COPY']) {
      const res = await api.fetch(`/dav/${encodeURIComponent(c.names[0]!)}`, { method, headers: { ...bearer(), destination: dest } });
      assert.equal(res.status, 400, `${method}: ${await res.text()}`);
    }
    assert.equal((await info(c.file)).status, 200);
    assert.equal((await info(`/${'v'.repeat(100)}${c.top}`)).status, 404);
  });

  it('tus creation: folder + filename together may not pass 4096 bytes; a too-deep path is refused', async () => {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    const folder = '/' + Array.from({ length: 16 }, (_, i) => long(i, 'u')).join('/');
    const call = (meta: string) =>
      api.fetch('/api/v4/file/upload', { method: 'POST', headers: { ...bearer(), 'tus-resumable': '1.0.0', 'upload-length': '3', 'upload-metadata': meta } });
    const over = await call(`filename ${b64('n'.repeat(100))},folder ${b64(folder)}`);
    assert.equal(over.status, 400);
    const body = (await over.json()) as { code: number; msg: string };
    assert.equal(body.code, 40001);
    assert.match(body.msg, /Upload-Metadata filename: the folder and file name together is too long \(4117 bytes/);
    const deep = await call(`path ${b64('/' + Array.from({ length: 257 }, () => 'q').join('/'))}`);
    assert.equal(deep.status, 400);
    const fits = await call(`filename ${b64('n'.repeat(70))},folder ${b64(folder)}`);
    assert.equal(fits.status, 201, await fits.text());
  });

  describe('archives of trees made before the limit (legacy data)', () => {
    let top: string;

    before(async () => {
      // 270 folders of 250-byte names: the deepest entry name is 270 × 251 = 67,770 bytes, more than a ZIP name holds.
      const root = (await info('/')).body.data;
      const db = server.built.services.db;
      const now = Date.now();
      let parent = root.id;
      const rows: FileRow[] = [];
      for (let i = 0; i < 270; i++) {
        const row = newFileRow({ owner_id: alice.id, parent_id: parent, name: long(i, 'L'), kind: FOLDER, created_at: now });
        rows.push(row);
        parent = row.id;
      }
      for (const row of rows) await db.insertInto('files').values(row).execute();
      top = `/${rows[0]!.name}`;
    });

    it('GET and HEAD /file/archive are 400/40001 before the first byte, never a 200 that breaks mid-stream', async () => {
      for (const method of ['GET', 'HEAD']) {
        const res = await api.fetch(`/api/v4/file/archive?path=${q(top)}`, { method, headers: bearer() });
        assert.equal(res.status, 400, method);
        assert.equal(res.headers.get('content-type')?.startsWith('application/json'), true);
        if (method === 'GET') {
          const body = (await res.json()) as { code: number; msg: string };
          assert.equal(body.code, 40001);
          assert.match(body.msg, /path inside the archive is \d+ bytes long; a ZIP entry name holds at most 65535 bytes/);
        }
      }
      // The root's archive holds the same chain: refused too.
      assert.equal((await api.fetch('/api/v4/file/archive?path=%2F', { method: 'HEAD', headers: bearer() })).status, 400);
    });

    it('a shared folder\'s ?download=1 is refused the same way', async () => {
      const share = await api.put<{ id: string }>('/api/v4/share', { path: top }, { token: alice.token });
      assert.equal(share.status, 200, share.text);
      const res = await api.fetch(`/s/${share.body.data.id}?download=1`);
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { code: number }).code, 40001);
    });
  });
});
