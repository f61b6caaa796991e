// Share links without an account: page data, downloads at /s/:id (Range,
// ETag, zip), browsing inside a shared folder without ever leaving it, and
// what stops a link (trash, deletion, a banned owner).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetchBytes, newUser, setUp, share, upload, type Ctx, type ItemView, type Person, type PublicView, type ShareView } from './support.js';

describe('shares: public access', () => {
  let ctx: Ctx;
  let alice: Person;
  const content = 'The quick brown fox jumps over the lazy dog';

  before(async () => {
    ctx = await setUp();
    alice = await newUser(ctx, 'Alice Example');
    await upload(ctx, alice, '/secret.txt', 'OUTSIDE-THE-SHARE');
    await upload(ctx, alice, '/public/readme.txt', content);
    await upload(ctx, alice, '/public/sub/deep.txt', 'deep content');
    await upload(ctx, alice, '/public/sub/more/deeper.txt', 'deeper');
    await upload(ctx, alice, '/single/photo.jpg', 'jpeg bytes');
  });
  after(() => ctx.server.close());

  const info = (id: string, headers: Record<string, string> = {}) => ctx.api.get<PublicView>(`/api/v4/share/info/${id}`, { headers });
  const ownerView = async (id: string) => (await ctx.api.get<ShareView>(`/api/v4/share/${id}`, { token: alice.token })).body.data;
  const browse = (id: string, query = '') => ctx.api.get<{ files: ItemView[]; next_page_token: string | null; parent: ItemView }>(`/api/v4/share/list/${id}${query}`);

  it('page data names the item and the owner\'s nickname, never the owner\'s e-mail, id or paths; each visit counts a view', async () => {
    const s = await share(ctx, alice, { path: '/public/readme.txt', download_limit: 10 });
    const res = await info(s.id);
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.equal(d.id, s.id);
    assert.equal(d.type, 'file');
    assert.equal(d.name, 'readme.txt');
    assert.equal(d.size, Buffer.byteLength(content));
    assert.deepEqual(d.owner, { nickname: 'Alice Example' });
    assert.equal(d.has_password, false);
    assert.equal(d.unlocked, true);
    assert.equal(d.download_limit, 10);
    assert.equal(d.downloads, 0);
    assert.equal(d.views, 1);
    assert.equal(d.mime_type, 'text/plain', 'the page picks its preview from the type');
    assert.deepEqual(Object.keys(d).sort(), ['accepting', 'created_at', 'download_limit', 'downloads', 'expires_at', 'has_password', 'id', 'max_file_size', 'max_files', 'mime_type', 'name', 'owner', 'size', 'type', 'unlocked', 'upload_only', 'views']);
    for (const leak of [alice.email, alice.id, '/public', s.path!]) assert.ok(!res.text.includes(leak), `no ${leak} in ${res.text}`);
    assert.equal((await info(s.id)).body.data.views, 2);
    assert.equal((await ownerView(s.id)).views, 2);
  });

  it('public routes ignore the Authorization header (a broken token is not a 401)', async () => {
    const s = await share(ctx, alice, { path: '/public/readme.txt' });
    const res = await info(s.id, { authorization: 'Bearer not.a.token' });
    assert.equal(res.status, 200);
    const dl = await fetchBytes(ctx, `/s/${s.id}`, { headers: { authorization: 'Bearer garbage' } });
    assert.equal(dl.status, 200);
  });

  it('unknown and malformed ids: 404 and 400, in the envelope', async () => {
    const unknown = await info('AAAAAAAAAAAAAAAA');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 404);
    assert.equal((await fetchBytes(ctx, '/s/AAAAAAAAAAAAAAAA')).status, 404);
    const malformed = await info('..%2f..%2fapi');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 40001);
  });

  it('RFC 9110 §13.1.2, §14.2: GET /s/:id downloads a shared file with ETag and Range; a full body counts a download, a short range, HEAD and 304 do not', async () => {
    const s = await share(ctx, alice, { path: '/public/readme.txt' });
    const full = await fetchBytes(ctx, `/s/${s.id}`);
    assert.equal(full.status, 200);
    assert.equal(full.body.toString(), content);
    assert.match(full.headers.get('content-disposition') ?? '', /^attachment; filename="readme.txt"/);
    assert.equal(full.headers.get('accept-ranges'), 'bytes');
    const etag = full.headers.get('etag')!;
    assert.ok(etag);

    const part = await fetchBytes(ctx, `/s/${s.id}`, { headers: { range: 'bytes=4-8' } });
    assert.equal(part.status, 206);
    assert.equal(part.body.toString(), 'quick');
    assert.equal(part.headers.get('content-range'), `bytes 4-8/${Buffer.byteLength(content)}`);

    const head = await fetchBytes(ctx, `/s/${s.id}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(content)));
    const notModified = await fetchBytes(ctx, `/s/${s.id}`, { headers: { 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    const unsatisfiable = await fetchBytes(ctx, `/s/${s.id}`, { headers: { range: 'bytes=9999-' } });
    assert.equal(unsatisfiable.status, 416);

    const v = await ownerView(s.id);
    assert.equal(v.downloads, 1, 'the 200 counts; a 206 short of the end, HEAD, 304 and 416 do not');
    assert.equal((await info(s.id)).body.data.downloads, 1);
  });

  it('a shared folder downloads as zip, and a file inside it with ?path=', async () => {
    const s = await share(ctx, alice, { path: '/public' });
    const zip = await fetchBytes(ctx, `/s/${s.id}`);
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.match(zip.headers.get('content-disposition') ?? '', /filename="public.zip"/);
    assert.equal(zip.body.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
    const text = zip.body.toString('latin1');
    for (const name of ['public/readme.txt', 'public/sub/deep.txt', 'public/sub/more/deeper.txt', content]) assert.ok(text.includes(name), name);
    assert.ok(!text.includes('OUTSIDE-THE-SHARE'));

    const inner = await fetchBytes(ctx, `/s/${s.id}?path=${encodeURIComponent('/sub/deep.txt')}`);
    assert.equal(inner.status, 200);
    assert.equal(inner.body.toString(), 'deep content');
    const sub = await fetchBytes(ctx, `/s/${s.id}?path=/sub`);
    assert.equal(sub.status, 200);
    assert.match(sub.headers.get('content-disposition') ?? '', /filename="sub.zip"/);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/nope.txt`)).status, 404);
  });

  it('browsing a shared folder lists items with paths relative to it, page by page', async () => {
    const s = await share(ctx, alice, { path: '/public' });
    const root = await browse(s.id);
    assert.equal(root.status, 200, root.text);
    assert.deepEqual(root.body.data.parent.path, '/');
    assert.deepEqual(root.body.data.files.map((f) => [f.type, f.path]), [['folder', '/sub'], ['file', '/readme.txt']]);
    assert.equal(root.body.data.files[1]!.size, Buffer.byteLength(content));
    const sub = await browse(s.id, `?path=${encodeURIComponent('/sub/')}`);
    assert.deepEqual(sub.body.data.files.map((f) => f.path), ['/sub/more', '/sub/deep.txt']);
    assert.equal(sub.body.data.parent.path, '/sub');
    const first = await browse(s.id, '?path=/sub&page_size=1');
    assert.equal(first.body.data.files.length, 1);
    const second = await browse(s.id, `?path=/sub&page_size=1&next_page_token=${encodeURIComponent(first.body.data.next_page_token!)}`);
    assert.deepEqual(second.body.data.files.map((f) => f.path), ['/sub/deep.txt']);
    assert.equal(second.body.data.next_page_token, null);
    assert.ok(!JSON.stringify(root.body).includes('/public'), 'the owner\'s own paths stay hidden');

    assert.equal((await browse(s.id, '?path=/readme.txt')).status, 400, 'a file is not a folder');
    const fileShare = await share(ctx, alice, { path: '/public/readme.txt' });
    assert.equal((await browse(fileShare.id)).status, 400);
    // A file share has nothing inside it.
    assert.equal((await fetchBytes(ctx, `/s/${fileShare.id}?path=/readme.txt`)).status, 404);
  });

  it('paths inside a shared folder never escape it: .., %2e%2e, backslashes, absolute owner paths', async () => {
    const s = await share(ctx, alice, { path: '/public/sub' });
    const attempts = [
      '..', '/..', '/../secret.txt', '/../../secret.txt', '/more/../../readme.txt', '/./deep.txt', '//secret.txt',
      '%2e%2e/secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/%2E%2E/secret.txt', '/%252e%252e/secret.txt',
      '/..%2fsecret.txt', '/..%5csecret.txt', '\\..\\secret.txt', '/more\\..\\..\\secret.txt', '/%5c..%5csecret.txt',
      '/secret.txt', '/public/readme.txt', '/public/sub/deep.txt', 'secret.txt', '/deep.txt%00', '/more/deeper.txt/..',
    ];
    for (const raw of attempts) {
      // Sent as written (already-encoded forms stay encoded once more in the URL only where they contain %).
      const query = `?path=${raw.replace(/\\/g, '%5C')}`;
      const dl = await fetchBytes(ctx, `/s/${s.id}${query}`);
      assert.ok(dl.status === 400 || dl.status === 404, `${raw}: download answered ${dl.status}`);
      assert.ok(!dl.body.toString('latin1').includes('OUTSIDE-THE-SHARE') && !dl.body.toString('latin1').includes(content), raw);
      assert.equal(dl.json?.code, dl.status === 400 ? 40001 : 404, raw);
      const list = await browse(s.id, query);
      assert.ok(list.status === 400 || list.status === 404, `${raw}: list answered ${list.status}`);
    }
    // Still working for the right paths.
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/more/deeper.txt`)).body.toString(), 'deeper');
  });

  it('a trashed item stops its shares (404) until it is restored; deleting it for good deletes them', async () => {
    await upload(ctx, alice, '/trashme/a.txt', 'soon gone');
    const fileShare = await share(ctx, alice, { path: '/trashme/a.txt' });
    const folderShare = await share(ctx, alice, { path: '/trashme' });
    assert.equal((await fetchBytes(ctx, `/s/${fileShare.id}`)).status, 200);

    // Trashing the parent folder stops the share of the file inside it too.
    const del = await ctx.api.delete('/api/v4/file', { paths: ['/trashme'] }, { token: alice.token });
    assert.equal(del.status, 200, del.text);
    for (const id of [fileShare.id, folderShare.id]) {
      const res = await info(id);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 404);
      const dl = await fetchBytes(ctx, `/s/${id}`);
      assert.equal(dl.status, 404);
      assert.ok(!dl.body.toString().includes('soon gone'));
      assert.equal((await browse(id)).status, 404);
      const v = await ownerView(id);
      assert.equal(v.status, 'unavailable');
      assert.equal(v.path, null);
    }

    const trash = await ctx.api.get<{ files: { id: string; name: string }[] }>('/api/v4/file/trash', { token: alice.token });
    const item = trash.body.data.files.find((f) => f.name === 'trashme');
    assert.ok(item, trash.text);
    const restored = await ctx.api.post('/api/v4/file/trash/restore', { ids: [item.id] }, { token: alice.token });
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await fetchBytes(ctx, `/s/${fileShare.id}`)).body.toString(), 'soon gone');

    const purge = await ctx.api.delete('/api/v4/file', { paths: ['/trashme'], permanent: true }, { token: alice.token });
    assert.equal(purge.status, 200, purge.text);
    assert.equal((await ctx.api.get(`/api/v4/share/${fileShare.id}`, { token: alice.token })).status, 404);
    assert.equal((await info(folderShare.id)).status, 404);
  });

  it('deleting a share stops its links at once', async () => {
    const s = await share(ctx, alice, { path: '/single' });
    assert.equal((await browse(s.id)).status, 200);
    assert.equal((await ctx.api.delete(`/api/v4/share/${s.id}`, undefined, { token: alice.token })).status, 200);
    assert.equal((await info(s.id)).status, 404);
    assert.equal((await browse(s.id)).status, 404);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/photo.jpg`)).status, 404);
  });

  it('the shares of a banned owner stop working', async () => {
    const carol = await newUser(ctx);
    await upload(ctx, carol, '/c.txt', 'carol');
    const s = await share(ctx, carol, { path: '/c.txt' });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 200);
    const ban = await ctx.api.put(`/api/v4/admin/user/${carol.id}`, { status: 'banned' }, { token: ctx.admin });
    assert.equal(ban.status, 200, ban.text);
    assert.equal((await info(s.id)).status, 404);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`)).status, 404);
  });

  it('the shares of a deleted owner are gone', async () => {
    const dave = await newUser(ctx);
    await upload(ctx, dave, '/d/d.txt', 'dave');
    const s = await share(ctx, dave, { path: '/d' });
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/d.txt`)).status, 200);
    const del = await ctx.api.delete(`/api/v4/admin/user/${dave.id}`, undefined, { token: ctx.admin });
    assert.equal(del.status, 200, del.text);
    assert.equal((await info(s.id)).status, 404);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/d.txt`)).status, 404);
    const all = await ctx.api.post<{ shares: ShareView[] }>('/api/v4/admin/share', { user_id: dave.id }, { token: ctx.admin });
    assert.deepEqual(all.body.data.shares, []);
  });
});
