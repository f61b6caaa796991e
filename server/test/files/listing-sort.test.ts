// GET /file?order_by=&order=: a folder sorted by name, size or modified date,
// either way, paged by keyset. Paging through in small pages must give every
// entry exactly once, in the order computed here independently (folders
// first; names case-insensitively and naturally, `file2` before `file10`;
// other ties broken by the name in byte order).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put, q, type FileView, type Person } from './helpers.js';

type Order = 'name' | 'size' | 'updated_at';

const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * Names compared as the listing does (issue 23), written apart from the
 * server's sort key: lower case, every run of digits as its value padded to
 * 100 digits, in byte order; equal keys by the name's bytes.
 */
function natural(a: string, b: string): number {
  const key = (s: string) => s.normalize('NFC').toLowerCase().replace(/\d+/g, (d) => BigInt(d).toString().padStart(100, '0'));
  return bytes(key(a), key(b)) || bytes(a, b);
}

function expected(all: FileView[], by: Order, desc: boolean): string[] {
  const sign = desc ? -1 : 1;
  return [...all]
    .sort((a, b) => {
      if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
      if (by === 'name') return sign * natural(a.name, b.name);
      const key = by === 'size' ? a.size - b.size : Date.parse(a.updated_at) - Date.parse(b.updated_at);
      return sign * (key || bytes(a.name, b.name));
    })
    .map((f) => f.name);
}

describe('sorted folder listings', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let all: FileView[];
  // Stands still unless moved: equal modification times are certain, not a matter of luck.
  const clock = new ManualClock({ at: Date.now() });

  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    alice = await newUser(api, await adminToken(api));
    for (const name of ['zeta', 'Alpha', '目录']) await api.post('/api/v4/file/create', { path: `/s/${name}`, type: 'folder' }, { token: alice.token });
    // Sizes repeat (ties broken by name); names mix case, digits and CJK so byte order matters.
    const names = ['b.txt', 'B.md', 'a10', 'a2', '中文.md', 'ÿ.bin', 'x', 'y', 'z', 'readme', 'Makefile', 'c', 'd', 'e', 'file10', 'File2', 'file02b'];
    for (const [i, name] of names.entries()) {
      await put(api, alice.token, `/s/${name}`, 'x'.repeat((i * 7) % 5));
      // Distinct modification times for most, equal ones for a few.
      if (i % 4 !== 0) clock.advance(3);
    }
    const res = await api.get<{ files: FileView[] }>(`/api/v4/file?path=${q('/s')}&page_size=1000`, { token: alice.token });
    all = res.body.data.files;
    assert.equal(all.length, 20);
  });
  after(() => server.close());

  async function pageThrough(by: Order, order: 'asc' | 'desc', pageSize: number): Promise<string[]> {
    const seen: string[] = [];
    let token: string | null = null;
    for (let n = 0; n < 100; n++) {
      const extra: string = token ? `&next_page_token=${encodeURIComponent(token)}` : '';
      const res = await api.get<{ files: FileView[]; next_page_token: string | null }>(`/api/v4/file?path=${q('/s')}&order_by=${by}&order=${order}&page_size=${pageSize}${extra}`, { token: alice.token });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.files.length <= pageSize);
      seen.push(...res.body.data.files.map((f) => f.name));
      token = res.body.data.next_page_token;
      if (!token) return seen;
    }
    throw new Error('paging did not end');
  }

  for (const by of ['name', 'size', 'updated_at'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`${by} ${order}: every entry once, in order, across pages of 3 (and 1)`, async () => {
        const want = expected(all, by, order === 'desc');
        assert.deepEqual(await pageThrough(by, order, 3), want);
        assert.deepEqual(await pageThrough(by, order, 1), want);
      });
    }
  }

  it('a token of one order is refused by another; a bad order is 400', async () => {
    const first = await api.get<{ next_page_token: string }>(`/api/v4/file?path=${q('/s')}&order_by=size&order=desc&page_size=2`, { token: alice.token });
    const token = encodeURIComponent(first.body.data.next_page_token);
    const other = await api.get(`/api/v4/file?path=${q('/s')}&order_by=updated_at&order=desc&page_size=2&next_page_token=${token}`, { token: alice.token });
    assert.equal(other.status, 400);
    assert.equal((await api.get(`/api/v4/file?path=${q('/s')}&order_by=size&order=asc&page_size=2&next_page_token=${token}`, { token: alice.token })).status, 400);
    assert.equal((await api.get(`/api/v4/file?path=${q('/s')}&order_by=owner`, { token: alice.token })).status, 400);
  });

  it('an entry added between pages shows up once, in its place, when it sorts after the page boundary', async () => {
    const first = await api.get<{ files: FileView[]; next_page_token: string }>(`/api/v4/file?path=${q('/s')}&order_by=size&order=desc&page_size=5`, { token: alice.token });
    await put(api, alice.token, '/s/tiny-late', '');
    let token: string | null = first.body.data.next_page_token;
    const rest: string[] = [];
    while (token) {
      const res: { body: { data: { files: FileView[]; next_page_token: string | null } } } = await api.get(`/api/v4/file?path=${q('/s')}&order_by=size&order=desc&page_size=5&next_page_token=${encodeURIComponent(token)}`, { token: alice.token });
      rest.push(...res.body.data.files.map((f) => f.name));
      token = res.body.data.next_page_token;
    }
    const names = [...first.body.data.files.map((f) => f.name), ...rest];
    assert.equal(names.filter((n) => n === 'tiny-late').length, 1);
    assert.equal(new Set(names).size, names.length, 'no entry twice');
    assert.equal(names.length, 21);
  });
});
