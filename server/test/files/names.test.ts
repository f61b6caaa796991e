// Names (issue 23, item 7), through the API, tus and WebDAV:
// - folders list case-insensitively and naturally (`file2` before `file10`),
//   and keyset pages stay right across page boundaries;
// - `Documents` and `documents` cannot share a folder
//   (docs/decisions/025-names-unique-ignoring-case.md);
// - names Windows and macOS clients cannot store are refused, 400/40001 like
//   every other invalid name, on every way a name is made.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, list, names, newUser, put, q, type FileView, type Person } from './helpers.js';
import { basicHeader, createAccount, dav, emailOf } from '../webdav/helpers.js';

const FORBIDDEN = [
  'CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'con.txt', 'NUL.tar.gz', 'Aux.',
  'a<b', 'a>b', 'a:b', 'a"b', 'a|b', 'a?b', 'a*b', 'trailing.', 'trailing ', 'dots...',
];
// Close to a forbidden name, but fine.
const ALLOWED = ['CONSOLE', 'con-tacts.txt', 'com10', 'lpt0', 'COM', '.hidden', ' leading space', 'a.b'];

describe('names: natural order, one name per folder whatever the case, portable names', () => {
  let server: TestServer;
  let api: Api;
  let alice: Person;
  let basic: string;
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const create = (path: string, type: 'file' | 'folder' = 'file') => api.post<FileView>('/api/v4/file/create', { path, type }, { token: alice.token });
  const rename = (path: string, new_name: string) => api.post<FileView>('/api/v4/file/rename', { path, new_name }, { token: alice.token });
  const tus = (path: string) =>
    api.raw('POST', '/api/v4/file/upload', { token: alice.token, headers: { 'tus-resumable': '1.0.0', 'upload-length': '3', 'upload-metadata': `path ${b64(path)}` } });

  before(async () => {
    server = await startServer();
    api = new Api(server);
    alice = await newUser(api, await adminToken(api));
    const account = await createAccount(api, alice.token, { name: 'names' });
    basic = basicHeader(await emailOf(api, alice.token), account.password);
  });
  after(() => server.close());

  it('lists names case-insensitively and naturally, file2 before file10, in pages of every size', async () => {
    const made = ['file10', 'file2', 'File1', 'file1b', 'file02x', 'a', 'B', 'c', 'IMG_0100.jpg', 'img_99.jpg', 'img_100.jpg', 'x9', 'X10', 'x100'];
    for (const n of made) assert.equal((await create(`/nat/${n}`)).status, 200, n);
    await create('/nat/Folder10', 'folder');
    await create('/nat/folder9', 'folder');
    const expected = ['folder9', 'Folder10', 'a', 'B', 'c', 'File1', 'file1b', 'file2', 'file02x', 'file10', 'img_99.jpg', 'IMG_0100.jpg', 'img_100.jpg', 'x9', 'X10', 'x100'];
    assert.deepEqual(await names(api, alice.token, '/nat'), expected);
    for (const size of [1, 2, 3, 5, 7]) {
      const seen: string[] = [];
      let token: string | null = null;
      do {
        const res = await list(api, alice.token, '/nat', `&page_size=${size}${token ? `&next_page_token=${encodeURIComponent(token)}` : ''}`);
        assert.equal(res.status, 200, res.text);
        seen.push(...res.body.data.files.map((f) => f.name));
        token = res.body.data.next_page_token;
      } while (token);
      assert.deepEqual(seen, expected, `pages of ${size}`);
    }
    // Descending by name is the same order reversed (folders still first).
    const desc = await list(api, alice.token, '/nat', '&order_by=name&order=desc&page_size=4');
    assert.deepEqual(desc.body.data.files.map((f) => f.name), ['Folder10', 'folder9', 'x100', 'X10']);
  });

  it('an entry added between pages shows up once, in its natural place', async () => {
    for (let i = 1; i <= 12; i++) await create(`/grow/part${i}`);
    const first = await list(api, alice.token, '/grow', '&page_size=5');
    assert.deepEqual(first.body.data.files.map((f) => f.name), ['part1', 'part2', 'part3', 'part4', 'part5']);
    await create('/grow/part3b'); // before the boundary: not seen
    await create('/grow/part11b'); // after it: seen once
    const seen = first.body.data.files.map((f) => f.name);
    let token = first.body.data.next_page_token;
    while (token) {
      const res = await list(api, alice.token, '/grow', `&page_size=5&next_page_token=${encodeURIComponent(token)}`);
      seen.push(...res.body.data.files.map((f) => f.name));
      token = res.body.data.next_page_token;
    }
    assert.deepEqual(seen, ['part1', 'part2', 'part3', 'part4', 'part5', 'part6', 'part7', 'part8', 'part9', 'part10', 'part11', 'part11b', 'part12']);
  });

  it('Documents and documents cannot share a folder: create, rename, upload, tus, move, WebDAV answer 409', async () => {
    assert.equal((await create('/case/Documents', 'folder')).status, 200);
    assert.equal((await create('/case/report.txt')).status, 200);
    const conflicts: [string, { status: number; text: string }][] = [
      ['create', await create('/case/documents', 'folder')],
      ['create file', await create('/case/REPORT.TXT')],
      ['upload', await put(api, alice.token, '/case/Report.txt', 'x')],
      ['tus', await tus('/case/report.TXT')],
      ['WebDAV MKCOL', await dav(server, 'MKCOL', '/dav/case/DOCUMENTS', basic)],
      ['WebDAV PUT', await dav(server, 'PUT', '/dav/case/Report.Txt', basic, { body: 'x' })],
    ];
    await create('/case/other.txt');
    conflicts.push(['rename', await rename('/case/other.txt', 'REPORT.txt')]);
    conflicts.push(['WebDAV MOVE', await dav(server, 'MOVE', '/dav/case/other.txt', basic, { headers: { destination: '/dav/case/Report.TXT', overwrite: 'F' } })]);
    await create('/elsewhere/REPORT.txt');
    const moved = await api.post<{ results: { code: number }[] }>('/api/v4/file/move', { paths: ['/elsewhere/REPORT.txt'], dst: '/case' }, { token: alice.token });
    conflicts.push(['move', { status: moved.body.data?.results?.[0]?.code ?? moved.status, text: moved.text }]);
    for (const [what, res] of conflicts) assert.ok(res.status === 409 || res.status === 412, `${what}: ${res.status} ${res.text}`);
    assert.deepEqual(await names(api, alice.token, '/case'), ['Documents', 'other.txt', 'report.txt']);
    // Exact paths only: the API does not find "documents" for "Documents".
    assert.equal((await api.get(`/api/v4/file/info?path=${q('/case/documents')}`, { token: alice.token })).status, 404);
  });

  it('a change of case only is a rename of the item itself (API and WebDAV MOVE)', async () => {
    const made = await create('/recase/notes.md');
    const res = await rename('/recase/notes.md', 'Notes.md');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.id, made.body.data.id);
    const mv = await dav(server, 'MOVE', '/dav/recase/Notes.md', basic, { headers: { destination: '/dav/recase/NOTES.md', overwrite: 'F' } });
    assert.equal(mv.status, 201, mv.text);
    assert.deepEqual(await names(api, alice.token, '/recase'), ['NOTES.md']);
    const info = await api.get<FileView>(`/api/v4/file/info?path=${q('/recase/NOTES.md')}`, { token: alice.token });
    assert.equal(info.body.data.id, made.body.data.id);
  });

  it('a restored item whose name is taken in another case gets a numbered name', async () => {
    await put(api, alice.token, '/restore/Plan.txt', 'old');
    await api.delete('/api/v4/file', { paths: ['/restore/Plan.txt'] }, { token: alice.token });
    await put(api, alice.token, '/restore/plan.txt', 'new');
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash?page_size=100', { token: alice.token });
    const id = trash.body.data.files.find((f) => f.original_path === '/restore/Plan.txt')!.id;
    const res = await api.post<{ results: { code: number; file?: FileView }[] }>('/api/v4/file/trash/restore', { ids: [id] }, { token: alice.token });
    assert.equal(res.body.data.results[0]!.code, 0, res.text);
    assert.equal(res.body.data.results[0]!.file!.name, 'Plan (1).txt');
  });

  it('names Windows and macOS clients cannot store are 400/40001 on create, rename, upload and tus', async () => {
    await create('/ok/src.txt');
    for (const name of FORBIDDEN) {
      for (const [what, res] of [
        ['create', await create(`/bad/${name}`)],
        ['create folder', await create(`/bad/${name}/inner.txt`)],
        ['rename', await rename('/ok/src.txt', name)],
        ['upload', await put(api, alice.token, `/bad/${name}`, 'x')],
        ['tus', await tus(`/bad/${name}`)],
      ] as const) {
        assert.equal(res.status, 400, `${what} ${JSON.stringify(name)}: ${res.status} ${res.text}`);
        assert.equal((res.body as { code: number }).code, 40001, `${what} ${JSON.stringify(name)}`);
        assert.match((res.body as { msg: string }).msg, /reserved device name|must not contain|must not end/);
      }
    }
    assert.deepEqual(await names(api, alice.token, '/ok'), ['src.txt']);
    assert.equal((await api.get(`/api/v4/file/info?path=${q('/bad')}`, { token: alice.token })).status, 404, 'nothing was made');
    for (const name of ALLOWED) assert.equal((await create(`/fine/${name}`)).status, 200, name);
  });

  it('WebDAV PUT, MKCOL, MOVE and COPY refuse the same names with 400', async () => {
    await dav(server, 'MKCOL', '/dav/wd', basic);
    await dav(server, 'PUT', '/dav/wd/src.txt', basic, { body: 'x' });
    for (const name of FORBIDDEN) {
      const enc = encodeURIComponent(name);
      for (const [what, res] of [
        ['PUT', await dav(server, 'PUT', `/dav/wd/${enc}`, basic, { body: 'x' })],
        ['MKCOL', await dav(server, 'MKCOL', `/dav/wd/${enc}`, basic)],
        ['MOVE', await dav(server, 'MOVE', '/dav/wd/src.txt', basic, { headers: { destination: `/dav/wd/${enc}` } })],
        ['COPY', await dav(server, 'COPY', '/dav/wd/src.txt', basic, { headers: { destination: `/dav/wd/${enc}` } })],
      ] as const) {
        assert.equal(res.status, 400, `${what} ${JSON.stringify(name)}: ${res.status} ${res.text}`);
      }
    }
    assert.deepEqual(await names(api, alice.token, '/wd'), ['src.txt']);
  });
});
