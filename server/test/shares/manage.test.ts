// The owner's and the administrator's share routes: create, list, read,
// change, delete; bad input; other users' shares; scopes of OAuth tokens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { approve, createApp, exchange, type OAuthTestContext } from '../oauth/helpers.js';
import { newUser, setUp, share, upload, type Ctx, type Person, type ShareView } from './support.js';

describe('shares: owner and admin', () => {
  let ctx: Ctx;
  let alice: Person;
  let bob: Person;

  before(async () => {
    ctx = await setUp();
    alice = await newUser(ctx);
    bob = await newUser(ctx);
    await upload(ctx, alice, '/docs/report.pdf', 'report bytes');
    await upload(ctx, alice, '/docs/notes.txt', 'notes');
    await upload(ctx, bob, '/bob.txt', 'bob');
  });
  after(() => ctx.server.close());

  it('creates a share for a file with a password, an expiry and a download limit; the password never comes back', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await ctx.api.put<ShareView>('/api/v4/share', { path: '/docs/report.pdf', password: 'open sesame', expires_at: expires, download_limit: 3 }, { token: alice.token });
    assert.equal(res.status, 200, res.text);
    const s = res.body.data;
    assert.match(s.id, /^[A-Za-z0-9]{16,}$/, 'an opaque id of at least 16 characters (> 64 bits)');
    assert.equal(s.url, `${ctx.server.url}/s/${s.id}`);
    assert.equal(s.path, '/docs/report.pdf');
    assert.equal(s.type, 'file');
    assert.equal(s.name, 'report.pdf');
    assert.equal(s.has_password, true);
    assert.equal(s.expires_at, expires);
    assert.equal(s.download_limit, 3);
    assert.equal(s.downloads, 0);
    assert.equal(s.views, 0);
    assert.equal(s.status, 'active');
    assert.match(s.created_at, /Z$/);
    assert.ok(!res.text.includes('open sesame'), 'the password is not echoed');
    assert.ok(!/password_hash|argon2/.test(res.text), 'nor its hash');
  });

  it('creates a share for a folder with expires_in; ids differ between shares', async () => {
    const before = Date.now();
    const a = await share(ctx, alice, { path: '/docs', expires_in: 3600 });
    const b = await share(ctx, alice, { path: '/docs' });
    assert.equal(a.type, 'folder');
    assert.equal(a.has_password, false);
    const at = Date.parse(a.expires_at!);
    assert.ok(at >= before + 3_599_000 && at <= Date.now() + 3_601_000, a.expires_at!);
    assert.equal(b.expires_at, null);
    assert.equal(b.download_limit, null);
    assert.notEqual(a.id, b.id);
  });

  it('rejects bad input with 400/40001 and creates nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /path/],
      [{ path: 'docs/report.pdf' }, /path/],
      [{ path: '/docs/../docs/report.pdf' }, /path/],
      [{ path: '/' }, /root/],
      [{ path: '/docs/report.pdf', password: 'abc' }, /password/],
      [{ path: '/docs/report.pdf', password: 12345678 }, /password/],
      [{ path: '/docs/report.pdf', expires_at: 'tomorrow' }, /expires_at/],
      [{ path: '/docs/report.pdf', expires_at: '2030-01-01T00:00:00' }, /expires_at/],
      [{ path: '/docs/report.pdf', expires_at: '2001-01-01T00:00:00Z' }, /expires_at/],
      [{ path: '/docs/report.pdf', expires_at: '2999-01-01T00:00:00Z' }, /expires_at/],
      [{ path: '/docs/report.pdf', expires_in: 0 }, /expires_in/],
      [{ path: '/docs/report.pdf', expires_in: 1.5 }, /expires_in/],
      [{ path: '/docs/report.pdf', expires_in: 60, expires_at: new Date(Date.now() + 60_000).toISOString() }, /expires_at, expires_in/],
      [{ path: '/docs/report.pdf', download_limit: 0 }, /download_limit/],
      [{ path: '/docs/report.pdf', download_limit: -1 }, /download_limit/],
      [{ path: '/docs/report.pdf', download_limit: '3' }, /download_limit/],
    ];
    const count = async () => (await ctx.api.get<{ shares: ShareView[] }>('/api/v4/share?page_size=100', { token: alice.token })).body.data.shares.length;
    const before = await count();
    for (const [body, field] of cases) {
      const res = await ctx.api.put('/api/v4/share', body, { token: alice.token });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, 40001);
      assert.match(res.body.msg, field, JSON.stringify(body));
    }
    const missing = await ctx.api.put('/api/v4/share', { path: '/docs/nope.txt' }, { token: alice.token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 404);
    // Another user's path is resolved in the caller's own tree: not found.
    assert.equal((await ctx.api.put('/api/v4/share', { path: '/bob.txt' }, { token: alice.token })).status, 404);
    assert.equal(await count(), before);
  });

  it('requires a token for every owner route', async () => {
    for (const [method, path] of [['PUT', '/api/v4/share'], ['GET', '/api/v4/share'], ['GET', '/api/v4/share/abc'], ['PATCH', '/api/v4/share/abc'], ['DELETE', '/api/v4/share/abc']] as const) {
      const res = await ctx.api.call(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: {} });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.code, 401);
    }
  });

  it('lists the owner\'s shares newest first with next_page_token, and only theirs', async () => {
    const owner = await newUser(ctx);
    await upload(ctx, owner, '/f.txt', 'x');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await share(ctx, owner, { path: '/f.txt' })).id);
    await share(ctx, bob, { path: '/bob.txt' });
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const q: string = token ? `&next_page_token=${encodeURIComponent(token)}` : '';
      const res = await ctx.api.get<{ shares: ShareView[]; next_page_token: string | null }>(`/api/v4/share?page_size=2${q}`, { token: owner.token });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.shares.length <= 2);
      seen.push(...res.body.data.shares.map((s) => s.id));
      token = res.body.data.next_page_token;
      pages++;
    } while (token && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...made].reverse());
    const bad = await ctx.api.get('/api/v4/share?next_page_token=garbage', { token: owner.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 40001);
    assert.equal((await ctx.api.get('/api/v4/share?page_size=0', { token: owner.token })).status, 400);
  });

  it('?path= lists only the shares of that item (the share dialog finds an existing link); the item follows a rename; unknown paths are 404', async () => {
    const owner = await newUser(ctx);
    await upload(ctx, owner, '/a/one.txt', '1');
    await upload(ctx, owner, '/a/two.txt', '2');
    const one = await share(ctx, owner, { path: '/a/one.txt' });
    const folder = await share(ctx, owner, { path: '/a' });
    // Bob's share of his own /a/one.txt never shows up in the owner's answer.
    await upload(ctx, bob, '/a/one.txt', 'b');
    await share(ctx, bob, { path: '/a/one.txt' });
    const byPath = async (p: string, who = owner) =>
      ctx.api.get<{ shares: ShareView[]; next_page_token: string | null }>(`/api/v4/share?path=${encodeURIComponent(p)}`, { token: who.token });
    const res = await byPath('/a/one.txt');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.shares.map((s) => s.id), [one.id]);
    assert.equal(res.body.data.next_page_token, null);
    assert.deepEqual((await byPath('/a')).body.data.shares.map((s) => s.id), [folder.id]);
    assert.deepEqual((await byPath('/a/two.txt')).body.data.shares, []);
    const moved = await ctx.api.post('/api/v4/file/rename', { path: '/a/one.txt', new_name: 'uno.txt' }, { token: owner.token });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual((await byPath('/a/uno.txt')).body.data.shares.map((s) => s.id), [one.id]);
    const missing = await byPath('/a/one.txt');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 404);
    const bad = await byPath('relative');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 40001);
  });

  it('reads, changes and deletes a share; the path follows renames and moves', async () => {
    const s = await share(ctx, alice, { path: '/docs/notes.txt', password: 'first-pass', download_limit: 2 });
    const got = await ctx.api.get<ShareView>(`/api/v4/share/${s.id}`, { token: alice.token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, s);

    let res = await ctx.api.patch<ShareView>(`/api/v4/share/${s.id}`, { password: null, download_limit: null, expires_in: 120 }, { token: alice.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.has_password, false);
    assert.equal(res.body.data.download_limit, null);
    assert.ok(Date.parse(res.body.data.expires_at!) > Date.now() + 100_000);
    res = await ctx.api.patch<ShareView>(`/api/v4/share/${s.id}`, { expires_at: null, password: 'second-pass' }, { token: alice.token });
    assert.equal(res.body.data.expires_at, null);
    assert.equal(res.body.data.has_password, true);

    const bad = await ctx.api.patch(`/api/v4/share/${s.id}`, { download_limit: 0 }, { token: alice.token });
    assert.equal(bad.status, 400);
    assert.equal((await ctx.api.patch(`/api/v4/share/${s.id}`, { expires_at: 'soon' }, { token: alice.token })).status, 400);
    assert.equal((await ctx.api.get<ShareView>(`/api/v4/share/${s.id}`, { token: alice.token })).body.data.download_limit, null, 'a rejected change changes nothing');

    assert.equal((await ctx.api.post('/api/v4/file/rename', { path: '/docs/notes.txt', new_name: 'renamed.txt' }, { token: alice.token })).status, 200);
    assert.equal((await ctx.api.post('/api/v4/file/move', { paths: ['/docs/renamed.txt'], dst: '/' }, { token: alice.token })).status, 200);
    const moved = await ctx.api.get<ShareView>(`/api/v4/share/${s.id}`, { token: alice.token });
    assert.equal(moved.body.data.path, '/renamed.txt');
    assert.equal(moved.body.data.name, 'renamed.txt');

    const del = await ctx.api.delete(`/api/v4/share/${s.id}`, undefined, { token: alice.token });
    assert.equal(del.status, 200);
    assert.equal(del.body.code, 0);
    assert.equal((await ctx.api.get(`/api/v4/share/${s.id}`, { token: alice.token })).status, 404);
    assert.equal((await ctx.api.delete(`/api/v4/share/${s.id}`, undefined, { token: alice.token })).status, 404);
  });

  it('another user\'s share is 404 for read, change and delete, and stays unchanged', async () => {
    const s = await share(ctx, alice, { path: '/docs/report.pdf', download_limit: 7 });
    for (const res of [
      await ctx.api.get(`/api/v4/share/${s.id}`, { token: bob.token }),
      await ctx.api.patch(`/api/v4/share/${s.id}`, { download_limit: 1 }, { token: bob.token }),
      await ctx.api.delete(`/api/v4/share/${s.id}`, undefined, { token: bob.token }),
    ]) {
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 404);
    }
    const still = await ctx.api.get<ShareView>(`/api/v4/share/${s.id}`, { token: alice.token });
    assert.equal(still.status, 200);
    assert.equal(still.body.data.download_limit, 7);
    // Malformed ids are parameter errors, not lookups.
    assert.equal((await ctx.api.get('/api/v4/share/not-an-id!', { token: alice.token })).status, 400);
  });

  it('the admin lists every user\'s shares (paginated, filterable by user) and can delete any; others get 403', async () => {
    const s = await share(ctx, bob, { path: '/bob.txt' });
    const all = await ctx.api.post<{ shares: (ShareView & { owner: { id: string; email: string } })[]; pagination: { page: number; page_size: number; total: number } }>(
      '/api/v4/admin/share',
      { page: 1, page_size: 100 },
      { token: ctx.admin },
    );
    assert.equal(all.status, 200, all.text);
    const owners = new Set(all.body.data.shares.map((x) => x.owner.id));
    assert.ok(owners.has(alice.id) && owners.has(bob.id));
    assert.equal(all.body.data.pagination.total, all.body.data.shares.length);
    const mine = all.body.data.shares.find((x) => x.id === s.id)!;
    assert.equal(mine.owner.email, bob.email);
    assert.equal(mine.path, '/bob.txt');

    const paged = await ctx.api.post<{ shares: ShareView[]; pagination: { total: number } }>('/api/v4/admin/share', { page: 2, page_size: 1 }, { token: ctx.admin });
    assert.equal(paged.body.data.shares.length, 1);
    assert.equal(paged.body.data.shares[0]!.id, all.body.data.shares[1]!.id);
    const bobs = await ctx.api.post<{ shares: ShareView[]; pagination: { total: number } }>('/api/v4/admin/share', { user_id: bob.id }, { token: ctx.admin });
    assert.ok(bobs.body.data.shares.length >= 1);
    assert.ok(bobs.body.data.shares.every((x) => (x as ShareView & { owner: { id: string } }).owner.id === bob.id));

    const denied = await ctx.api.post('/api/v4/admin/share', {}, { token: alice.token });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 403);
    assert.equal((await ctx.api.delete(`/api/v4/admin/share/${s.id}`, undefined, { token: alice.token })).status, 403);

    assert.equal((await ctx.api.delete(`/api/v4/admin/share/${s.id}`, undefined, { token: ctx.admin })).status, 200);
    assert.equal((await ctx.api.get(`/api/v4/share/${s.id}`, { token: bob.token })).status, 404);
    assert.equal((await ctx.api.delete(`/api/v4/admin/share/${s.id}`, undefined, { token: ctx.admin })).status, 404);
  });

  describe('OAuth tokens', () => {
    let oauth: OAuthTestContext;
    let app: Awaited<ReturnType<typeof createApp>>;
    const tokenWith = async (scope: string) => {
      const res = await exchange(oauth, app, await approve(oauth, alice.token, app, { scope }));
      assert.equal(res.status, 200, res.text);
      return res.body.access_token!;
    };

    before(async () => {
      oauth = { server: ctx.server, api: ctx.api, adminToken: ctx.admin };
      app = await createApp(oauth, { scopes: ['openid', 'Files.Read', 'Shares.Read', 'Shares.Write', 'Admin.Read'] });
    });

    it('RFC 6750 §3.1: without Shares.Write, creating, changing and deleting a share is 403/40089 insufficient_scope', async () => {
      const s = await share(ctx, alice, { path: '/docs/report.pdf' });
      const readOnly = await tokenWith('openid Files.Read Shares.Read');
      for (const res of [
        await ctx.api.put('/api/v4/share', { path: '/docs/report.pdf' }, { token: readOnly }),
        await ctx.api.patch(`/api/v4/share/${s.id}`, { download_limit: 1 }, { token: readOnly }),
        await ctx.api.delete(`/api/v4/share/${s.id}`, undefined, { token: readOnly }),
      ]) {
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.code, 40089);
        assert.match(res.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="Shares.Write"/);
      }
      // Shares.Read is enough to read.
      assert.equal((await ctx.api.get(`/api/v4/share/${s.id}`, { token: readOnly })).status, 200);
      assert.equal((await ctx.api.get<ShareView>(`/api/v4/share/${s.id}`, { token: alice.token })).body.data.download_limit, null);
    });

    it('RFC 6750 §3.1: without Shares.Read, listing is 403/40089; Shares.Write implies Shares.Read', async () => {
      const none = await tokenWith('openid Files.Read');
      const res = await ctx.api.get('/api/v4/share', { token: none });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40089);
      assert.match(res.headers.get('www-authenticate') ?? '', /scope="Shares.Read"/);
      const writer = await tokenWith('openid Shares.Write');
      assert.equal((await ctx.api.get('/api/v4/share', { token: writer })).status, 200);
      const created = await ctx.api.put<ShareView>('/api/v4/share', { path: '/docs/report.pdf' }, { token: writer });
      assert.equal(created.status, 200, created.text);
    });

    it('RFC 6750 §3.1: the admin list needs Shares.Read besides Admin.Read for an OAuth token', async () => {
      const adminOauth = async (scope: string) => {
        const res = await exchange(oauth, app, await approve(oauth, ctx.admin, app, { scope }));
        assert.equal(res.status, 200, res.text);
        return res.body.access_token!;
      };
      const adminOnly = await adminOauth('openid Admin.Read');
      const res = await ctx.api.post('/api/v4/admin/share', {}, { token: adminOnly });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40089);
      const both = await adminOauth('openid Admin.Read Shares.Read');
      assert.equal((await ctx.api.post('/api/v4/admin/share', {}, { token: both })).status, 200);
    });
  });
});
