// Trash (delete, list, restore, delete for good, empty), its effect on the
// quota, and the Files.Read / Files.Write scopes of OAuth tokens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { approve, createApp, exchange, type OAuthTestContext } from '../oauth/helpers.js';
import { adminToken, capacity, download, names, newUser, put, storageCounts, type FileView, type Person } from './helpers.js';

interface TrashView extends FileView {
  trashed_at: string;
  original_path: string;
}
type Results = { results: { id?: string; path?: string; code: number; msg: string; file?: FileView }[] };

describe('trash', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let alice: Person;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = await adminToken(api);
    alice = await newUser(api, admin);
  });
  after(() => server.close());

  const remove = (paths: string[], permanent = false, p = alice) => api.delete<Results>('/api/v4/file', { paths, ...(permanent ? { permanent } : {}) }, { token: p.token });
  const trash = (p = alice, extra = '') => api.get<{ files: TrashView[]; next_page_token: string | null }>(`/api/v4/file/trash?page_size=100${extra}`, { token: p.token });
  const restore = (ids: string[], p = alice) => api.post<Results>('/api/v4/file/trash/restore', { ids }, { token: p.token });
  const purge = (ids: string[], p = alice) => api.post<Results>('/api/v4/file/trash/delete', { ids }, { token: p.token });
  const trashIdOf = async (path: string, p = alice) => (await trash(p)).body.data.files.find((f) => f.original_path === path)!.id;

  it('deleting moves items to the trash with where they came from; their contents are unreachable', async () => {
    await put(api, alice.token, '/docs/report.txt', 'quarterly');
    await put(api, alice.token, '/docs/sub/deep.txt', 'deep');
    const res = await remove(['/docs/report.txt', '/docs/sub', '/docs/none']);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.results.map((r) => r.code), [0, 0, 404]);
    assert.deepEqual(await names(api, alice.token, '/docs'), []);
    assert.equal((await download(api, alice.token, '/docs/sub/deep.txt')).status, 404);
    const list = (await trash()).body.data.files;
    assert.deepEqual(list.map((f) => f.original_path).sort(), ['/docs/report.txt', '/docs/sub']);
    assert.match(list[0]!.trashed_at, /Z$/);
    // A trashed item's id no longer resolves as a live file.
    assert.equal((await api.get(`/api/v4/file/info?id=${list[0]!.id}`, { token: alice.token })).status, 404);
  });

  it('restores to the original place, subtree included', async () => {
    const res = await restore([await trashIdOf('/docs/sub')]);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.results[0]!.file!.path, '/docs/sub');
    assert.equal((await download(api, alice.token, '/docs/sub/deep.txt')).body.toString(), 'deep');
  });

  it('restores under a new name when the original name is taken', async () => {
    await put(api, alice.token, '/docs/report.txt', 'a newer report');
    const res = await restore([await trashIdOf('/docs/report.txt')]);
    assert.equal(res.body.data.results[0]!.file!.path, '/docs/report (1).txt');
    assert.equal((await download(api, alice.token, '/docs/report (1).txt')).body.toString(), 'quarterly');
    assert.equal((await download(api, alice.token, '/docs/report.txt')).body.toString(), 'a newer report');
  });

  it('restores into a recreated folder when the original folder is gone', async () => {
    await put(api, alice.token, '/gone/inner/file.txt', 'keep me');
    await remove(['/gone/inner/file.txt']);
    await remove(['/gone'], true);
    const res = await restore([await trashIdOf('/gone/inner/file.txt')]);
    assert.equal(res.body.data.results[0]!.file!.path, '/gone/inner/file.txt');
    assert.equal((await download(api, alice.token, '/gone/inner/file.txt')).body.toString(), 'keep me');
  });

  it('restore follows the original folder when it was moved meanwhile', async () => {
    await put(api, alice.token, '/moving/f.txt', 'f');
    await remove(['/moving/f.txt']);
    await api.post('/api/v4/file/move', { paths: ['/moving'], dst: '/docs' }, { token: alice.token });
    const res = await restore([await trashIdOf('/moving/f.txt')]);
    assert.equal(res.body.data.results[0]!.file!.path, '/docs/moving/f.txt');
  });

  it("unknown ids and another user's trash are 404 per item", async () => {
    await put(api, alice.token, '/mine.txt', 'mine');
    await remove(['/mine.txt']);
    const id = await trashIdOf('/mine.txt');
    const bob = await newUser(api, admin);
    assert.equal((await restore([id], bob)).status, 404);
    assert.equal((await purge([id], bob)).status, 404);
    assert.equal((await trash(bob)).body.data.files.length, 0);
    assert.equal((await restore(['nope'])).status, 404);
    assert.equal((await restore(['../x'])).status, 400);
  });

  it('trash counts towards the quota until deleted for good; blobs are removed then', async () => {
    const carol = await newUser(api, admin);
    await put(api, carol.token, '/a.bin', Buffer.alloc(1000, 1));
    await put(api, carol.token, '/b.bin', Buffer.alloc(500, 2));
    // A copy shares the blob: deleting the original keeps the bytes for the copy.
    await api.post('/api/v4/file/create', { path: '/copies', type: 'folder' }, { token: carol.token });
    await api.post('/api/v4/file/move', { paths: ['/b.bin'], dst: '/copies', copy: true }, { token: carol.token });
    assert.equal((await capacity(api, carol.token)).used, 2000);
    const blobsBefore = (await storageCounts(server)).blobs;
    await remove(['/a.bin', '/b.bin'], false, carol);
    assert.equal((await capacity(api, carol.token)).used, 2000, 'trash still counts');
    const ids = (await trash(carol)).body.data.files.map((f) => f.id);
    const res = await purge([ids[0]!], carol);
    assert.equal(res.body.data.results[0]!.code, 0);
    const emptied = await api.delete<{ deleted: number }>('/api/v4/file/trash', undefined, { token: carol.token });
    assert.equal(emptied.body.data.deleted, 1);
    assert.equal((await trash(carol)).body.data.files.length, 0);
    assert.equal((await capacity(api, carol.token)).used, 500);
    assert.equal((await storageCounts(server)).blobs, blobsBefore - 1, 'a.bin is gone; b.bin lives on in the copy');
    assert.equal((await download(api, carol.token, '/copies/b.bin')).body.length, 500);
  });

  it('permanent delete skips the trash and frees the space at once', async () => {
    const dave = await newUser(api, admin);
    await put(api, dave.token, '/tmp/x.bin', Buffer.alloc(300));
    const res = await remove(['/tmp'], true, dave);
    assert.equal(res.body.data.results[0]!.code, 0);
    assert.equal((await trash(dave)).body.data.files.length, 0);
    assert.equal((await capacity(api, dave.token)).used, 0);
    assert.equal((await remove(['/'], false, dave)).status, 400);
  });

  it('pages the trash with next_page_token', async () => {
    const erin = await newUser(api, admin);
    for (let i = 0; i < 5; i++) {
      await put(api, erin.token, `/t${i}`, 'x');
      await remove([`/t${i}`], false, erin);
    }
    type Page = { files: TrashView[]; next_page_token: string | null };
    const first = await api.get<Page>('/api/v4/file/trash?page_size=2', { token: erin.token });
    assert.equal(first.body.data.files.length, 2);
    const seen = first.body.data.files.map((f) => f.name);
    let token: string | null = first.body.data.next_page_token;
    while (token) {
      const page: { body: { data: Page } } = await api.get<Page>(`/api/v4/file/trash?page_size=2&next_page_token=${encodeURIComponent(token)}`, { token: erin.token });
      seen.push(...page.body.data.files.map((f) => f.name));
      token = page.body.data.next_page_token;
    }
    assert.deepEqual(seen.sort(), ['t0', 't1', 't2', 't3', 't4']);
  });
});

describe('scopes of OAuth tokens on the file routes', () => {
  let server: InjectedServer;
  let ctx: OAuthTestContext;
  let user: Person;

  before(async () => {
    server = await startInjectedServer();
    const api = new Api(server);
    ctx = { server, api, adminToken: await adminToken(api) };
    user = await newUser(api, ctx.adminToken);
    await put(api, user.token, '/hello.txt', 'hello');
  });
  after(() => server.close());

  async function tokenWith(scope: string): Promise<string> {
    const app = await createApp(ctx, { scopes: ['Files.Read', 'Files.Write', 'UserInfo.Read'] });
    const res = await exchange(ctx, app, await approve(ctx, user.token, app, { scope }));
    assert.equal(res.status, 200, res.text);
    return res.body.access_token!;
  }

  it('RFC 6750 §3.1: Files.Read lists and downloads but cannot write (403 insufficient_scope)', async () => {
    const token = await tokenWith('Files.Read');
    assert.equal((await ctx.api.get('/api/v4/file?path=/', { token })).status, 200);
    assert.equal((await download(ctx.api, token, '/hello.txt')).status, 200);
    for (const res of [
      await put(ctx.api, token, '/nope.txt', 'x'),
      await ctx.api.post('/api/v4/file/create', { path: '/nope', type: 'folder' }, { token }),
      await ctx.api.delete('/api/v4/file', { paths: ['/hello.txt'] }, { token }),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40089);
      assert.match(res.headers.get('www-authenticate') ?? '', /insufficient_scope.*Files\.Write/);
    }
    const tus = await server.fetch(`/api/v4/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': '1' } });
    assert.equal(tus.status, 403);
    assert.equal((await download(ctx.api, user.token, '/hello.txt')).body.toString(), 'hello');
  });

  it('RFC 6750 §3.1: a token without Files scopes cannot read files; Files.Write implies read', async () => {
    const none = await tokenWith('UserInfo.Read');
    assert.equal((await ctx.api.get('/api/v4/file?path=/', { token: none })).status, 403);
    assert.equal((await ctx.api.get('/api/v4/user/capacity', { token: none })).status, 403);
    const write = await tokenWith('Files.Write');
    assert.equal((await put(ctx.api, write, '/written.txt', 'w')).status, 200);
    assert.equal((await download(ctx.api, write, '/written.txt')).body.toString(), 'w');
  });
});
