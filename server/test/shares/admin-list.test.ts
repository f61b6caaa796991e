// POST /admin/share: searched, sorted and paged by the database, so the
// dashboard sees every share rather than the newest hundred.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, setUp, share, upload, type Ctx, type Person, type ShareView } from './support.js';

type AdminShare = ShareView & { owner: { id: string; email: string; nickname: string } | null };
interface ListBody {
  page?: number;
  page_size?: number;
  keyword?: string;
  order_by?: string;
  order_direction?: 'asc' | 'desc';
}

describe('admin share list: search, sort, pages', () => {
  let ctx: Ctx;
  let alice: Person;
  let bob: Person;
  const ids: string[] = [];

  before(async () => {
    ctx = await setUp();
    alice = await newUser(ctx, 'Alice Wonder');
    bob = await newUser(ctx, '鲍勃');
    for (const [who, name] of [[alice, 'Quarterly Report.pdf'], [alice, '旅行照片.zip'], [alice, 'notes.txt'], [bob, 'bob-song.mp3'], [bob, 'README.md']] as const) {
      await upload(ctx, who, `/${name}`, `bytes of ${name}`);
    }
    // Distinct views and expiries to sort by; one share never expires.
    ids.push((await share(ctx, alice, { path: '/Quarterly Report.pdf', expires_in: 7200 })).id);
    ids.push((await share(ctx, alice, { path: '/旅行照片.zip' })).id);
    ids.push((await share(ctx, alice, { path: '/notes.txt', expires_in: 3600 })).id);
    ids.push((await share(ctx, bob, { path: '/bob-song.mp3', expires_in: 90_000 })).id);
    ids.push((await share(ctx, bob, { path: '/README.md', expires_in: 60 })).id);
    for (const [i, id] of ids.entries()) for (let n = 0; n < (i * 3) % 5; n++) await ctx.server.fetch(`/api/v4/share/info/${id}`);
  });
  after(() => ctx.server.close());

  const list = async (body: ListBody) => {
    const res = await ctx.api.post<{ shares: AdminShare[]; pagination: { total: number } }>('/api/v4/admin/share', body, { token: ctx.admin });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  it('searches the item name (any script), the owner e-mail and nickname and the id, any case', async () => {
    assert.deepEqual((await list({ keyword: 'quarterly' })).shares.map((s) => s.name), ['Quarterly Report.pdf']);
    assert.deepEqual((await list({ keyword: '照片' })).shares.map((s) => s.name), ['旅行照片.zip']);
    const bobs = await list({ keyword: bob.email.toUpperCase(), page_size: 100 });
    assert.deepEqual(bobs.shares.map((s) => s.name).sort(), ['README.md', 'bob-song.mp3']);
    assert.equal(bobs.pagination.total, 2);
    assert.equal((await list({ keyword: '鲍勃' })).pagination.total, 2);
    assert.equal((await list({ keyword: 'wonder' })).pagination.total, 3);
    assert.deepEqual((await list({ keyword: ids[2]!.slice(2, 12) })).shares.map((s) => s.id), [ids[2]]);
    assert.equal((await list({ keyword: '100%_' })).pagination.total, 0, '% and _ are literal');
  });

  const orders: [string, (s: AdminShare) => number | string][] = [
    ['item', (s) => s.name ?? ''],
    ['owner', (s) => s.owner?.email ?? ''],
    ['views', (s) => s.views],
    ['created_at', (s) => Date.parse(s.created_at)],
    ['expires_at', (s) => (s.expires_at ? Date.parse(s.expires_at) : Number.MAX_SAFE_INTEGER)],
  ];
  for (const [by, key] of orders) {
    for (const dir of ['asc', 'desc'] as const) {
      it(`order_by ${by} ${dir}: pages of 2 give every share once, in order`, async () => {
        const seen: AdminShare[] = [];
        const total = (await list({ order_by: by, order_direction: dir, page_size: 2 })).pagination.total;
        for (let page = 1; (page - 1) * 2 < total; page++) seen.push(...(await list({ order_by: by, order_direction: dir, page, page_size: 2 })).shares);
        assert.equal(seen.length, total);
        assert.equal(new Set(seen.map((s) => s.id)).size, total, 'no share twice');
        for (const id of ids) assert.ok(seen.some((s) => s.id === id));
        const sign = dir === 'asc' ? 1 : -1;
        for (let i = 1; i < seen.length; i++) {
          const a = key(seen[i - 1]!);
          const b = key(seen[i]!);
          const c = typeof a === 'number' && typeof b === 'number' ? a - b : Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
          assert.ok(sign * c <= 0, `${by} ${dir}: ${String(a)} then ${String(b)}`);
        }
      });
    }
  }

  it('refuses an unknown sort field', async () => {
    const res = await ctx.api.post('/api/v4/admin/share', { order_by: 'password_hash' }, { token: ctx.admin });
    assert.equal(res.status, 400);
  });
});
