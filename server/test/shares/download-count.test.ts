// What uses up a share's download limit (docs/api.md, "Counting"): finished
// downloads of the item, not previews (inline), HEAD, ranges that stop short
// of the end or probe it (suffix ranges), nor a download cut off midway. A
// limit of 0 is refused, never turned into 1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { fetchBytes, newUser, setUp, share, upload, type Ctx, type Person, type ShareView } from './support.js';

describe('shares: what counts as a download', () => {
  let ctx: Ctx;
  let alice: Person;
  const text = 'hello, this is the shared text file\n'.repeat(20);

  before(async () => {
    ctx = await setUp();
    alice = await newUser(ctx);
    await upload(ctx, alice, '/notes.txt', text);
    await upload(ctx, alice, '/dir/a.txt', 'a');
  });
  after(() => ctx.server.close());

  const ownerView = async (id: string) => (await ctx.api.get<ShareView>(`/api/v4/share/${id}`, { token: alice.token })).body.data;

  it('previews (inline), HEAD, partial and suffix ranges do not use a download; the one full download does', async () => {
    const s = await share(ctx, alice, { path: '/notes.txt', download_limit: 1 });
    for (let i = 0; i < 3; i++) {
      const preview = await fetchBytes(ctx, `/s/${s.id}?inline=1`);
      assert.equal(preview.status, 200);
      assert.equal(preview.body.toString(), text);
    }
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`, { method: 'HEAD' })).status, 200);
    const part = await fetchBytes(ctx, `/s/${s.id}`, { headers: { range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.equal(part.body.toString(), text.slice(0, 10));
    const suffix = await fetchBytes(ctx, `/s/${s.id}`, { headers: { range: 'bytes=-5' } });
    assert.equal(suffix.status, 206);
    assert.equal((await ctx.api.get(`/api/v4/share/info/${s.id}`)).status, 200, 'the share page still opens');
    assert.equal((await ownerView(s.id)).downloads, 0);
    assert.equal((await ownerView(s.id)).status, 'active');

    const full = await fetchBytes(ctx, `/s/${s.id}?download=1`);
    assert.equal(full.status, 200);
    assert.equal(full.body.toString(), text);
    const v = await ownerView(s.id);
    assert.equal(v.downloads, 1);
    assert.equal(v.status, 'exhausted');
    const after = await fetchBytes(ctx, `/s/${s.id}?inline=1`);
    assert.equal(after.status, 404, 'a used-up share previews nothing either');
    assert.equal(after.json?.code, 404);
  });

  it('a range covering the whole item, or running from a start to the end (a resumed download), counts once', async () => {
    const whole = await share(ctx, alice, { path: '/notes.txt', download_limit: 5 });
    const r1 = await fetchBytes(ctx, `/s/${whole.id}`, { headers: { range: `bytes=0-${text.length - 1}` } });
    assert.equal(r1.status, 206);
    assert.equal((await ownerView(whole.id)).downloads, 1);
    const r2 = await fetchBytes(ctx, `/s/${whole.id}`, { headers: { range: 'bytes=100-' } });
    assert.equal(r2.status, 206);
    assert.equal(r2.body.toString(), text.slice(100));
    assert.equal((await ownerView(whole.id)).downloads, 2);
    const r3 = await fetchBytes(ctx, `/s/${whole.id}`, { headers: { range: 'bytes=100-200' } });
    assert.equal(r3.status, 206);
    assert.equal((await ownerView(whole.id)).downloads, 2, 'a range that stops short of the end is not counted');
  });

  it('files inside a folder share: previews are free, downloads count', async () => {
    const s = await share(ctx, alice, { path: '/dir', download_limit: 1 });
    for (let i = 0; i < 2; i++) assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/a.txt&inline=1`)).status, 200);
    assert.equal((await ownerView(s.id)).downloads, 0);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/a.txt&download=1`)).status, 200);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?path=/a.txt&download=1`)).status, 404);
  });

  it('a download limit of 0 is refused with 400/40001 naming the field, on create and on change; nothing is created or changed', async () => {
    const before = (await ctx.api.get<{ shares: ShareView[] }>('/api/v4/share', { token: alice.token })).body.data.shares.length;
    const created = await ctx.api.put('/api/v4/share', { path: '/notes.txt', download_limit: 0 }, { token: alice.token });
    assert.equal(created.status, 400);
    assert.equal(created.body.code, 40001);
    assert.equal(created.body.data, null);
    assert.match(created.body.msg, /download_limit/);
    assert.equal((await ctx.api.get<{ shares: ShareView[] }>('/api/v4/share', { token: alice.token })).body.data.shares.length, before);

    const s = await share(ctx, alice, { path: '/notes.txt', download_limit: 3 });
    const changed = await ctx.api.patch(`/api/v4/share/${s.id}`, { download_limit: 0 }, { token: alice.token });
    assert.equal(changed.status, 400);
    assert.equal(changed.body.code, 40001);
    assert.match(changed.body.msg, /download_limit/);
    assert.equal((await ownerView(s.id)).download_limit, 3);
  });
});

describe('shares: a download cut off midway gives its download back', () => {
  let server: TestServer;
  let api: Api;
  let token: string;
  const size = 24 * 1024 * 1024;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, `cut-${process.pid}@example.com`)).token.access_token;
    const res = await api.call('PUT', '/api/v4/file/content?path=%2Fbig.bin', { token, body: Buffer.alloc(size, 1), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text);
  });
  after(() => server.close());

  it('an aborted download is not counted; a finished one is', async () => {
    const created = await api.put<ShareView>('/api/v4/share', { path: '/big.bin', download_limit: 1 }, { token });
    const id = created.body.data.id;
    // Read the first chunk, then hang up.
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${server.url}/s/${id}?download=1`, (res) => {
        assert.equal(res.statusCode, 200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (err.message.includes('aborted') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    let downloads = 1;
    for (let i = 0; i < 100 && downloads !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      downloads = (await api.get<ShareView>(`/api/v4/share/${id}`, { token })).body.data.downloads;
    }
    assert.equal(downloads, 0, 'the cut-off download was given back');
    const full = await fetch(`${server.url}/s/${id}?download=1`);
    assert.equal(full.status, 200);
    assert.equal((await full.arrayBuffer()).byteLength, size);
    const v = (await api.get<ShareView>(`/api/v4/share/${id}`, { token })).body.data;
    assert.equal(v.downloads, 1);
    assert.equal(v.status, 'exhausted');
    assert.equal((await fetch(`${server.url}/s/${id}?download=1`)).status, 404);
  });
});
