// Downloads: byte ranges (RFC 9110 §14), conditional requests (§13),
// Content-Disposition (RFC 6266, RFC 8187), signed URLs, folders as ZIP,
// and a file larger than 4 GiB (a sparse file imported through the service).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { ManualClock } from '../../src/core/clock.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, download, entryData, newUser, put, q, readCentralDirectory, type FileView, type Person } from './helpers.js';

const BODY = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

describe('downloads', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let file: FileView;
  // Runs with real time; a signed URL's expiry is reached by moving it forward.
  const clock = new ManualClock();

  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    file = (await put(api, alice.token, '/dl/data.txt', BODY)).body.data;
  });
  after(() => server.close());

  const get = (headers: Record<string, string>, p = '/dl/data.txt') => download(api, alice.token, p, headers);

  it('sends the bytes with ETag, Last-Modified, Accept-Ranges and safe headers', async () => {
    const res = await get({});
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(BODY));
    assert.match(res.headers.get('etag') ?? '', /^"[^"]+"$/);
    assert.equal(new Date(res.headers.get('last-modified')!).getTime(), Math.floor(Date.parse(file.updated_at) / 1000) * 1000);
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(res.headers.get('content-length'), String(BODY.length));
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/);
  });

  it('RFC 9110 §14.1.2: single, open-ended and suffix ranges are 206 with Content-Range', async () => {
    const cases: [string, number, number][] = [['bytes=0-9', 0, 9], ['bytes=10-', 10, 35], ['bytes=-5', 31, 35], ['bytes=30-1000', 30, 35], ['bytes=-1000', 0, 35]];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/36`, range);
      assert.ok(res.body.equals(BODY.subarray(start, end + 1)), range);
      assert.equal(res.headers.get('content-length'), String(end - start + 1));
    }
  });

  it('RFC 9110 §15.5.17: an unsatisfiable range is 416 with Content-Range: bytes */size', async () => {
    for (const range of ['bytes=36-', 'bytes=100-200', 'bytes=-0']) {
      const res = await get({ range });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers.get('content-range'), 'bytes */36');
    }
  });

  it('RFC 9110 §14.2: several ranges, invalid syntax or another unit are answered with the full body (200)', async () => {
    for (const range of ['bytes=0-1,5-6', 'bytes=5-2', 'bytes=abc', 'items=0-1', 'bytes=', 'bytes=--1']) {
      const res = await get({ range });
      assert.equal(res.status, 200, range);
      assert.ok(res.body.equals(BODY), range);
    }
  });

  it('RFC 9110 §13.1.2: If-None-Match with the ETag (or a weak form of it) is 304', async () => {
    const etag = (await get({})).headers.get('etag')!;
    assert.equal((await get({ 'if-none-match': etag })).status, 304);
    assert.equal((await get({ 'if-none-match': `"other", W/${etag}` })).status, 304);
    assert.equal((await get({ 'if-none-match': '"other"' })).status, 200);
  });

  it('RFC 9110 §13.1.3: If-Modified-Since is 304 when not modified, ignored when If-None-Match is present', async () => {
    const lm = (await get({})).headers.get('last-modified')!;
    assert.equal((await get({ 'if-modified-since': lm })).status, 304);
    assert.equal((await get({ 'if-modified-since': new Date(Date.parse(lm) - 10_000).toUTCString() })).status, 200);
    assert.equal((await get({ 'if-modified-since': lm, 'if-none-match': '"other"' })).status, 200);
  });

  it('RFC 9110 §13.1.1: If-Match with another ETag is 412', async () => {
    const etag = (await get({})).headers.get('etag')!;
    assert.equal((await get({ 'if-match': '"nope"' })).status, 412);
    assert.equal((await get({ 'if-match': etag })).status, 200);
  });

  it('RFC 9110 §13.1.5: If-Range applies the range only while the ETag or date still matches', async () => {
    const first = await get({});
    const etag = first.headers.get('etag')!;
    const lm = first.headers.get('last-modified')!;
    assert.equal((await get({ range: 'bytes=0-3', 'if-range': etag })).status, 206);
    assert.equal((await get({ range: 'bytes=0-3', 'if-range': lm })).status, 206);
    const stale = await get({ range: 'bytes=0-3', 'if-range': '"old-version"' });
    assert.equal(stale.status, 200);
    assert.ok(stale.body.equals(BODY));
    // A new version changes the ETag: a resumed download restarts from zero.
    await put(api, alice.token, '/dl/changing.txt', 'version one');
    const v1 = await get({}, '/dl/changing.txt');
    await put(api, alice.token, '/dl/changing.txt', 'version two!');
    const resumed = await get({ range: 'bytes=8-', 'if-range': v1.headers.get('etag')! }, '/dl/changing.txt');
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.toString(), 'version two!');
  });

  it('HEAD sends the headers (Content-Length included) and no body', async () => {
    const res = await server.fetch(`/api/v4/file/content?path=${q('/dl/data.txt')}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice.token}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), '36');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  it('zero-byte files: 200 empty; a range of positions is unsatisfiable (416), a suffix range is the whole empty body (RFC 9110 §14.1.1, §14.2)', async () => {
    await put(api, alice.token, '/dl/empty.txt', '');
    const res = await get({}, '/dl/empty.txt');
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 0);
    assert.equal((await get({ range: 'bytes=0-' }, '/dl/empty.txt')).status, 416);
    const suffix = await get({ range: 'bytes=-1' }, '/dl/empty.txt');
    assert.equal(suffix.status, 200);
    assert.equal(suffix.body.length, 0);
  });

  it('RFC 6266 §4.3 / RFC 8187: unicode names get filename* and an ASCII fallback', async () => {
    const name = 'Résumé "final" 100% 日本語 😀.pdf';
    // `"` is no longer accepted in new names (issue 23); a file named before that rule still downloads.
    const made = await put(api, alice.token, '/dl/resume-upload.pdf', 'pdf');
    await server.built.services.db.updateTable('files').set({ name }).where('id', '=', made.body.data.id).execute();
    const res = await get({}, `/dl/${name}`);
    assert.equal(res.status, 200);
    const cd = res.headers.get('content-disposition')!;
    const fallback = /filename="([^"]*)"/.exec(cd)![1]!;
    assert.match(fallback, /^[\x20-\x7e]+$/);
    assert.ok(!/["\\%]/.test(fallback));
    const star = /filename\*=UTF-8''([^;]+)$/.exec(cd)![1]!;
    assert.match(star, /^[A-Za-z0-9!#$&+\-.^_`|~%]+$/, 'only attr-chars and percent escapes');
    assert.equal(decodeURIComponent(star), name);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
  });

  it('inline display is honoured only for types that cannot run script', async () => {
    await put(api, alice.token, '/dl/page.html', '<script>alert(1)</script>');
    await put(api, alice.token, '/dl/pic.png', 'png');
    const html = await server.fetch(`/api/v4/file/content?path=${q('/dl/page.html')}&inline=1`, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.match(html.headers.get('content-disposition')!, /^attachment;/);
    const png = await server.fetch(`/api/v4/file/content?path=${q('/dl/pic.png')}&inline=1`, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.match(png.headers.get('content-disposition')!, /^inline;/);
  });

  it('a folder cannot be downloaded as content (400), nor a missing path (404)', async () => {
    assert.equal((await get({}, '/dl')).status, 400);
    assert.equal((await get({}, '/dl/nope')).status, 404);
  });

  describe('signed URLs', () => {
    const sign = (body: Record<string, unknown>) => api.post<{ url: string; expires_at: string }>('/api/v4/file/url', body, { token: alice.token });

    it('work without an Authorization header, with ranges, until they expire', async () => {
      const res = await sign({ path: '/dl/data.txt', expires_in: 60 });
      assert.equal(res.status, 200, res.text);
      const { url, expires_at } = res.body.data;
      assert.ok(url.startsWith(server.url));
      assert.ok(url.includes('/data.txt?'), 'the last path segment is the file name');
      assert.ok(Math.abs(Date.parse(expires_at) - (clock.now() + 60_000)) < 5000);
      const dl = await server.fetch(url);
      assert.equal(dl.status, 200);
      assert.ok(Buffer.from(await dl.arrayBuffer()).equals(BODY));
      const part = await server.fetch(url, { headers: { range: 'bytes=-3' } });
      assert.equal(part.status, 206);
      assert.equal(await part.text(), 'xyz');
      clock.advance(61_000);
      const late = await server.fetch(url);
      assert.equal(late.status, 403, 'a minute later the link has expired');
      assert.match(((await late.json()) as { msg: string }).msg, /expired/);
    });

    it('a tampered signature, id or expiry is 403; an expired link is 403', async () => {
      const { url } = (await sign({ path: '/dl/data.txt' })).body.data;
      const u = new URL(url);
      const tampered = [
        (x: URL) => x.searchParams.set('sig', x.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))),
        (x: URL) => x.searchParams.set('expires', String(Number(x.searchParams.get('expires')) + 1000)),
        (x: URL) => x.searchParams.set('inline', '1'),
        (x: URL) => (x.pathname = x.pathname.replace(file.id, 'AAAAAAAAAAAAAAAA')),
      ];
      for (const change of tampered) {
        const copy = new URL(u);
        change(copy);
        const res = await server.fetch(copy);
        assert.equal(res.status, 403, copy.toString());
      }
      const expired = new URL(u);
      const signer = server.built.services.files.signer;
      const past = Math.floor(clock.now() / 1000) - 10;
      expired.searchParams.set('expires', String(past));
      expired.searchParams.set('sig', signer.sign({ fileId: file.id, expires: past, inline: false }));
      const res = await server.fetch(expired);
      assert.equal(res.status, 403);
      assert.match(((await res.json()) as { msg: string }).msg, /expired/);
    });

    it('issue 11: a link stops once its owner is banned (404, as share links), works again after unbanning, and is gone with a deleted owner', async () => {
      const admin = await adminToken(api);
      const bob = await newUser(api, admin);
      await put(api, bob.token, '/b.txt', 'bob');
      const signed = await api.post<{ url: string }>('/api/v4/file/url', { path: '/b.txt', expires_in: 7 * 24 * 3600 }, { token: bob.token });
      const url = signed.body.data.url;
      assert.equal((await server.fetch(url)).status, 200);
      const ban = await api.put(`/api/v4/admin/user/${bob.id}`, { status: 'banned' }, { token: admin });
      assert.equal(ban.status, 200, ban.text);
      assert.equal((await server.fetch(url)).status, 404, 'banned owner');
      assert.equal((await server.fetch(url, { method: 'HEAD' })).status, 404, 'banned owner (HEAD)');
      await api.put(`/api/v4/admin/user/${bob.id}`, { status: 'active' }, { token: admin });
      assert.equal((await server.fetch(url)).status, 200, 'unbanned owner');
      const del = await api.delete(`/api/v4/admin/user/${bob.id}`, undefined, { token: admin });
      assert.equal(del.status, 200, del.text);
      assert.equal((await server.fetch(url)).status, 404, 'deleted owner');
    });

    it('a link to a file that was deleted is 404; folders cannot be signed', async () => {
      const f = await put(api, alice.token, '/dl/gone.txt', 'bye');
      const { url } = (await sign({ path: '/dl/gone.txt' })).body.data;
      await api.delete('/api/v4/file', { paths: ['/dl/gone.txt'] }, { token: alice.token });
      assert.equal((await server.fetch(url)).status, 404);
      assert.ok(f.body.data.id);
      assert.equal((await sign({ path: '/dl' })).status, 400);
      assert.equal((await sign({ path: '/dl/data.txt', expires_in: 8 * 24 * 3600 })).status, 400);
    });
  });

  describe('folders as ZIP', () => {
    it('streams a folder with its subfolders, names in UTF-8, exact Content-Length and a strong ETag', async () => {
      await put(api, alice.token, '/zipme/a.txt', 'alpha');
      await put(api, alice.token, '/zipme/sub/ü 日本.txt', 'unicode');
      await api.post('/api/v4/file/create', { path: '/zipme/empty-folder', type: 'folder' }, { token: alice.token });
      await put(api, alice.token, '/zipme/sub/zero', '');
      const res = await server.fetch(`/api/v4/file/archive?path=${q('/zipme')}`, { headers: { authorization: `Bearer ${alice.token}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.match(res.headers.get('content-disposition')!, /filename="zipme\.zip"/);
      const zip = Buffer.from(await res.arrayBuffer());
      assert.equal(res.headers.get('content-length'), String(zip.length));
      const { entries } = readCentralDirectory(zip, zip.length);
      assert.deepEqual(entries.map((e) => e.name), ['zipme/', 'zipme/empty-folder/', 'zipme/sub/', 'zipme/sub/zero', 'zipme/sub/ü 日本.txt', 'zipme/a.txt']);
      const byName = new Map(entries.map((e) => [e.name, e]));
      for (const [name, text] of [['zipme/a.txt', 'alpha'], ['zipme/sub/ü 日本.txt', 'unicode'], ['zipme/sub/zero', '']] as const) {
        const rec = byName.get(name)!;
        const data = entryData(zip, rec);
        assert.equal(data.toString(), text);
        assert.equal(rec.crc32, crc32(data), `${name}: CRC-32 matches the bytes`);
      }
      // Same tree, same ETag; a change gives a new one.
      const etag = res.headers.get('etag')!;
      const again = await server.fetch(`/api/v4/file/archive?path=${q('/zipme')}`, { headers: { authorization: `Bearer ${alice.token}`, 'if-none-match': etag } });
      assert.equal(again.status, 304);
      await put(api, alice.token, '/zipme/a.txt', 'alpha2');
      const changed = await server.fetch(`/api/v4/file/archive?path=${q('/zipme')}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice.token}` } });
      assert.notEqual(changed.headers.get('etag'), etag);
    });

    it('a zip download resumes with a Range', async () => {
      const url = `${server.url}/api/v4/file/archive?path=${q('/zipme')}`;
      const full = Buffer.from(await (await server.fetch(url, { headers: { authorization: `Bearer ${alice.token}` } })).arrayBuffer());
      const part = await server.fetch(url, { headers: { authorization: `Bearer ${alice.token}`, range: 'bytes=40-' } });
      assert.equal(part.status, 206);
      assert.ok(Buffer.from(await part.arrayBuffer()).equals(full.subarray(40)));
    });
  });

  describe('a file larger than 4 GiB (sparse, imported through the service)', () => {
    const SIZE = 4 * 1024 ** 3 + 4096 + 5;
    let big: FileView;

    before(async () => {
      const local = path.join(server.config.dataDir, 'sparse-import.bin');
      writeFileSync(local, '');
      truncateSync(local, SIZE);
      const entry = await server.built.services.files.uploads.importLocalFile(alice.id, '/huge/disk.img', local);
      big = (await api.get<FileView>(`/api/v4/file/info?id=${entry.row.id}`, { token: alice.token })).body.data;
      await put(api, alice.token, '/huge/tail.txt', 'after the big one');
    });

    it('reports its size and serves ranges past 4 GiB', async () => {
      assert.equal(big.size, SIZE);
      const head = await server.fetch(`/api/v4/file/content?path=${q('/huge/disk.img')}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice.token}` } });
      assert.equal(head.headers.get('content-length'), String(SIZE));
      const start = 4 * 1024 ** 3 + 10;
      const res = await download(api, alice.token, '/huge/disk.img', { range: `bytes=${start}-${start + 99}` });
      assert.equal(res.status, 206);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${start + 99}/${SIZE}`);
      assert.ok(res.body.equals(Buffer.alloc(100)));
      const tail = await download(api, alice.token, '/huge/disk.img', { range: 'bytes=-7' });
      assert.equal(tail.headers.get('content-range'), `bytes ${SIZE - 7}-${SIZE - 1}/${SIZE}`);
    });

    it('zips it with ZIP64 records (checked through a Range on the archive tail)', async () => {
      const url = `${server.url}/api/v4/file/archive?path=${q('/huge')}`;
      const head = await server.fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${alice.token}` } });
      const size = Number(head.headers.get('content-length'));
      assert.ok(size > SIZE);
      const tailRes = await server.fetch(url, { headers: { authorization: `Bearer ${alice.token}`, range: 'bytes=-4096' } });
      assert.equal(tailRes.status, 206);
      const tail = Buffer.from(await tailRes.arrayBuffer());
      const { entries, zip64End } = readCentralDirectory(tail, size);
      assert.ok(zip64End, 'ZIP64 end of central directory');
      const img = entries.find((e) => e.name === 'huge/disk.img')!;
      assert.equal(img.size, SIZE);
      assert.ok(img.zip64);
      const after = entries.find((e) => e.name === 'huge/tail.txt')!;
      assert.ok(after.offset > 0xffffffff && after.zip64, 'an offset past 4 GiB is a ZIP64 field');
      // The small file's bytes sit right after its local header, past 4 GiB.
      const local = await server.fetch(url, { headers: { authorization: `Bearer ${alice.token}`, range: `bytes=${after.offset}-${after.offset + 29 + 'huge/tail.txt'.length + after.size}` } });
      const buf = Buffer.from(await local.arrayBuffer());
      assert.equal(buf.readUInt32LE(0), 0x04034b50);
      assert.equal(buf.subarray(30 + 'huge/tail.txt'.length).toString(), 'after the big one');
    });
  });
});
