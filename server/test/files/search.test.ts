// GET /api/v4/file/search: any part of a name, case-insensitive in any script,
// Chinese names, keyset paging, only the person's live items, bad input.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put, type FileView, type Person } from './helpers.js';

type Page = { files: FileView[]; next_page_token: string | null };

describe('file search', () => {
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
    for (const path of [
      '/Reports/Quarterly REPORT 2024.pdf',
      '/Reports/annual-report.txt',
      '/notes/Привет МИР.txt',
      '/notes/Ärger über Öl.md',
      '/照片/年度报告.docx',
      '/照片/旅行.jpg',
      '/odd/100%_done.txt',
      '/odd/100x_done.txt',
      '/gone/report-in-trash.txt',
      '/trashed-folder/inner-report.txt',
    ]) {
      const res = await put(api, alice.token, path, 'x');
      assert.equal(res.status, 200, res.text);
    }
    await put(api, bob.token, '/bob-report.txt', 'x');
    const del = await api.delete('/api/v4/file', { paths: ['/gone/report-in-trash.txt', '/trashed-folder'] }, { token: alice.token });
    assert.equal(del.status, 200, del.text);
  });
  after(() => server.close());

  const search = (q: string, extra = '', who = alice) => api.get<Page>(`/api/v4/file/search?q=${encodeURIComponent(q)}${extra}`, { token: who.token });
  const paths = async (q: string) => {
    const res = await search(q);
    assert.equal(res.status, 200, res.text);
    return res.body.data.files.map((f) => f.path).sort();
  };

  it('finds any part of a name, whatever the case, with full paths; folders too', async () => {
    assert.deepEqual(await paths('report'), ['/Reports', '/Reports/Quarterly REPORT 2024.pdf', '/Reports/annual-report.txt']);
    assert.deepEqual(await paths('RePoRt 20'), ['/Reports/Quarterly REPORT 2024.pdf']);
    const res = await search('quarterly');
    const file = res.body.data.files[0]!;
    assert.deepEqual(Object.keys(file).sort(), ['created_at', 'id', 'mime_type', 'name', 'path', 'size', 'type', 'updated_at']);
    assert.equal(file.type, 'file');
  });

  it('is case-insensitive beyond ASCII (Cyrillic, umlauts)', async () => {
    assert.deepEqual(await paths('мир'), ['/notes/Привет МИР.txt']);
    assert.deepEqual(await paths('ПРИВЕТ'), ['/notes/Привет МИР.txt']);
    assert.deepEqual(await paths('ärger'), ['/notes/Ärger über Öl.md']);
  });

  it('finds Chinese names by one, two or more characters', async () => {
    assert.deepEqual(await paths('报告'), ['/照片/年度报告.docx']);
    assert.deepEqual(await paths('年度报告'), ['/照片/年度报告.docx']);
    assert.deepEqual(await paths('旅'), ['/照片/旅行.jpg']);
    assert.deepEqual(await paths('照片'), ['/照片']);
  });

  it('takes % and _ literally', async () => {
    assert.deepEqual(await paths('100%_'), ['/odd/100%_done.txt']);
    assert.deepEqual(await paths('%'), ['/odd/100%_done.txt']);
  });

  it('leaves out trashed items, items in trashed folders, and other people\'s files', async () => {
    assert.ok(!(await paths('report')).some((p) => p.includes('trash')));
    assert.deepEqual(await paths('inner-report'), []);
    const bobs = await search('report', '', bob);
    assert.deepEqual(bobs.body.data.files.map((f) => f.path), ['/bob-report.txt']);
  });

  it('follows renames', async () => {
    const res = await api.post('/api/v4/file/rename', { path: '/照片/旅行.jpg', new_name: 'Journey 旅行.jpg' }, { token: alice.token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await paths('journey'), ['/照片/Journey 旅行.jpg']);
    assert.deepEqual(await paths('旅行'), ['/照片/Journey 旅行.jpg']);
  });

  it('pages by keyset: every hit once, in name order, across pages', async () => {
    const carol = await newUser(api, await adminToken(api));
    const expected: string[] = [];
    for (let i = 0; i < 45; i++) {
      const name = `batch-${String(i).padStart(3, '0')}.log`;
      expected.push(`/many/${name}`);
      assert.equal((await put(api, carol.token, `/many/${name}`, 'x')).status, 200);
    }
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<typeof search>> = await search('BATCH-', `&page_size=20${token ? `&next_page_token=${encodeURIComponent(token)}` : ''}`, carol);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.data.files.map((f) => f.path));
      token = res.body.data.next_page_token;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen, expected);
  });

  it('bad input: 400/40001 naming the field, never a 500', async () => {
    for (const [query, field] of [
      ['', 'q'],
      ['?q=%20%20', 'q'],
      ['?q=a&page_size=0', 'page_size'],
      ['?q=a&page_size=501', 'page_size'],
      ['?q=a&next_page_token=garbage', 'next_page_token'],
      ['?q=' + encodeURIComponent('a\u0001b'), 'q'],
      ['?q=' + 'x'.repeat(1001), 'q'],
    ] as const) {
      const res = await api.get(`/api/v4/file/search${query}`, { token: alice.token });
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 40001);
      assert.match(res.body.msg, new RegExp(field));
    }
    // A token from another query is refused, not misapplied.
    const first = await search('report', '&page_size=1');
    const token = first.body.data.next_page_token!;
    const other = await search('notes', `&next_page_token=${encodeURIComponent(token)}`);
    assert.equal(other.status, 400);
    assert.equal((await api.get('/api/v4/file/search?q=a')).status, 401);
  });
});
