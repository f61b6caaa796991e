// Chunked uploads as the sync clients send them (api-contract §14, issue 33),
// at the HTTP level: /remote.php/dav/uploads/<uid>/<transfer>/ with MKCOL
// (OC-Total-Length), chunk PUTs by index or byte offset, chunking v2 (a
// Destination on every request, chunks 1–10000), PROPFIND to resume, MOVE
// .file to assemble (OC-Total-Length, X-OC-Mtime, OC-Checksum), DELETE to
// abort, expiry after 24 idle hours, one person's transfers invisible to
// another, and hostile names refused with 400/404, never 500. Chunks sent in
// order are written once: the transfer's spool becomes the file by a rename
// (the blob is the spool's inode). The real clients use this in big-file.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { adminToken, capacity, download, names, rawRequest, storageCounts } from '../files/helpers.js';
import { dav, davPerson, type DavPerson } from '../webdav/helpers.js';
import { grant, sharedWith } from '../sharing/helpers.js';
import { startS3, type TestS3 } from '../helpers/s3.js';

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
const HOUR = 3600_000;

describe('sync chunked uploads (/remote.php/dav/uploads/)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  /** One person for the tests that need no other (making people is the slow part). */
  let p: DavPerson;
  const clock = new ManualClock();
  before(async () => {
    server = await startServer({}, { clock });
    api = new Api(server.url);
    admin = await adminToken(api);
    p = await davPerson(server);
  });
  after(async () => server?.close());

  const uploads = (p: DavPerson, rest = '') => `/remote.php/dav/uploads/${p.id}/${rest}`;
  const files = (p: DavPerson, rest: string) => `/remote.php/dav/files/${p.id}/${rest}`;
  const req = (p: DavPerson, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) => dav(server, method, path, p.basic, { headers, body });
  /** Objects in storage that no blob row accounts for: chunks left behind. */
  const strayObjects = async () => (await storageCounts(server)).blobs - Number((await server.built.services.db.selectFrom('blobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const chunksOf = (xml: string) =>
    [...xml.matchAll(/<D:href>[^<]*\/([^/<]+)<\/D:href><D:propstat><D:prop><D:resourcetype\/><D:getcontentlength>(\d+)</g)].map((m) => `${m[1]}:${m[2]}`);

  it('v1: chunks by index, a PROPFIND to resume after an interrupted chunk, then MOVE .file with checksum and mtime; the transfer and its chunks are gone', async () => {
    const parts = [randomBytes(70_000), randomBytes(70_000), randomBytes(12_345)];
    const whole = Buffer.concat(parts);
    assert.equal((await req(p, 'MKCOL', uploads(p, 'abc123'), { 'OC-Total-Length': String(whole.length) })).status, 201);
    assert.equal((await req(p, 'MKCOL', uploads(p, 'abc123'))).status, 405, 'the transfer exists already');
    assert.equal((await req(p, 'PUT', uploads(p, 'abc123/00000'), {}, parts[0])).status, 201);
    // The second chunk is cut midway: nothing of it is kept.
    const cut = await rawRequest(server, { method: 'PUT', path: uploads(p, 'abc123/00001'), headers: { authorization: p.basic, 'content-length': String(parts[1]!.length) }, agent: false }, (r) => {
      r.write(parts[1]!.subarray(0, 30_000));
      setTimeout(() => r.destroy(), 200);
    });
    assert.equal(cut.status, null);
    // The server notices the cut on its own time: until then the cut chunk holds its reservation.
    for (let i = 0; i < 100 && (await capacity(api, p.token)).reserved !== parts[0]!.length; i++) await new Promise((r) => setTimeout(r, 20));
    const listed = await req(p, 'PROPFIND', uploads(p, 'abc123/'), { Depth: '1' });
    assert.equal(listed.status, 207);
    assert.deepEqual(chunksOf(listed.text), [`00000:${parts[0]!.length}`]);
    assert.equal((await capacity(api, p.token)).reserved, parts[0]!.length, "the stored chunk holds its size of the person's quota");
    assert.equal((await req(p, 'PUT', uploads(p, 'abc123/00001'), {}, parts[1])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'abc123/00002'), {}, parts[2])).status, 201);

    const usedBefore = (await capacity(api, p.token)).used;
    const moved = await req(p, 'MOVE', uploads(p, 'abc123/.file'), {
      Destination: `${server.url}${files(p, encodeURIComponent('big 大.bin'))}`,
      'OC-Total-Length': String(whole.length),
      'X-OC-Mtime': '1600000000',
      'OC-Checksum': `SHA1:${sha1(whole)}`,
    });
    assert.equal(moved.status, 201, moved.text);
    assert.ok(moved.headers.get('oc-fileid'));
    assert.ok(moved.headers.get('oc-etag'));
    assert.equal(moved.headers.get('etag'), moved.headers.get('oc-etag'));
    assert.equal(moved.headers.get('x-oc-mtime'), 'accepted');
    assert.ok((await download(api, p.token, '/big 大.bin')).body.equals(whole));
    const props = await req(p, 'PROPFIND', files(p, encodeURIComponent('big 大.bin')), { Depth: '0' }, '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><d:getlastmodified/><oc:checksums/></d:prop></d:propfind>');
    assert.match(props.text, /Sun, 13 Sep 2020 12:26:40 GMT/);
    assert.match(props.text, new RegExp(`SHA1:${sha1(whole)}`));
    assert.equal((await req(p, 'PROPFIND', uploads(p, 'abc123/'), { Depth: '1' })).status, 404, 'the transfer is gone');
    const c = await capacity(api, p.token);
    assert.equal(c.reserved, 0);
    assert.equal(c.used, usedBefore + whole.length);
  });

  it('v1: chunks named by byte offset, sent out of order, make a new version of an existing file (204)', async () => {
    assert.equal((await req(p, 'PUT', files(p, 'doc.bin'), {}, 'old content')).status, 201);
    const parts = [randomBytes(1000), randomBytes(2000), randomBytes(500)];
    const whole = Buffer.concat(parts);
    assert.equal((await req(p, 'MKCOL', uploads(p, '77'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, '77/0000000000003000'), {}, parts[2])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, '77/0000000000000000'), {}, parts[0])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, '77/0000000000001000'), {}, randomBytes(2000))).status, 201);
    // Sent again: the chunk is replaced.
    assert.equal((await req(p, 'PUT', uploads(p, '77/0000000000001000'), {}, parts[1])).status, 204);
    const moved = await req(p, 'MOVE', uploads(p, '77/.file'), { Destination: files(p, 'doc.bin'), 'OC-Total-Length': String(whole.length) });
    assert.equal(moved.status, 204, moved.text);
    assert.ok((await download(api, p.token, '/doc.bin')).body.equals(whole));
    const versions = await api.get<{ current: boolean; size: number }[]>(`/api/v4/file/versions?path=${encodeURIComponent('/doc.bin')}`, { token: p.token });
    assert.equal(versions.status, 200, versions.text);
    assert.deepEqual(versions.body.data.map((v) => [v.current, v.size]), [[true, whole.length], [false, 'old content'.length]], 'the old content is a version');
    assert.equal((await capacity(api, p.token)).reserved, 0);
  });

  it('v2: a Destination on MKCOL and on every chunk, chunks numbered 1–10000', async () => {
    const dest = { Destination: files(p, 'v2.bin') };
    const parts = [randomBytes(3000), randomBytes(10)];
    assert.equal((await req(p, 'MKCOL', uploads(p, 'nextcloud-client-v2'), dest)).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'nextcloud-client-v2/0'), dest, 'x')).status, 400, 'chunk 0 is not a v2 number');
    assert.equal((await req(p, 'PUT', uploads(p, 'nextcloud-client-v2/10001'), dest, 'x')).status, 400);
    assert.equal((await req(p, 'PUT', uploads(p, 'nextcloud-client-v2/00001'), dest, parts[0])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'nextcloud-client-v2/00002'), dest, parts[1])).status, 201);
    const moved = await req(p, 'MOVE', uploads(p, 'nextcloud-client-v2/.file'), dest);
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, p.token, '/v2.bin')).body.equals(Buffer.concat(parts)));
  });

  it('v2: a MOVE to another Destination than the MKCOL named is 400 and assembles nothing; the same place as a full URL or through /remote.php/webdav/ is the same', async () => {
    const dest = { Destination: files(p, 'named.bin') };
    const parts = [randomBytes(2000), randomBytes(500)];
    assert.equal((await req(p, 'MKCOL', uploads(p, 'v2-elsewhere'), dest)).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'v2-elsewhere/1'), dest, parts[0])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'v2-elsewhere/2'), dest, parts[1])).status, 201);
    const elsewhere = await req(p, 'MOVE', uploads(p, 'v2-elsewhere/.file'), { Destination: files(p, 'other.bin') });
    assert.equal(elsewhere.status, 400, elsewhere.text);
    assert.equal((await download(api, p.token, '/other.bin')).status, 404, 'nothing was assembled there');
    assert.equal((await download(api, p.token, '/named.bin')).status, 404, 'nor at the named place');
    // The transfer is as it was: its chunks are listed and the right MOVE still works.
    assert.deepEqual(chunksOf((await req(p, 'PROPFIND', uploads(p, 'v2-elsewhere/'), { Depth: '1' })).text), [`1:${parts[0]!.length}`, `2:${parts[1]!.length}`]);
    const moved = await req(p, 'MOVE', uploads(p, 'v2-elsewhere/.file'), { Destination: `${server.url}/remote.php/webdav/named.bin` });
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, p.token, '/named.bin')).body.equals(Buffer.concat(parts)));
    // v1 (no Destination at MKCOL) takes the MOVE's Destination as it comes.
    assert.equal((await req(p, 'MKCOL', uploads(p, 'v1-free'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'v1-free/00000'), {}, 'abc')).status, 201);
    assert.equal((await req(p, 'MOVE', uploads(p, 'v1-free/.file'), { Destination: files(p, 'free.bin') })).status, 201);
  });

  it('a wrong checksum, a wrong total length and a missing chunk are 400 and store nothing; DELETE aborts and frees the chunks', async () => {
    const parts = [randomBytes(4000), randomBytes(4000)];
    const whole = Buffer.concat(parts);
    assert.equal((await req(p, 'MKCOL', uploads(p, 't1'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 't1/00000'), {}, parts[0])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 't1/00002'), {}, parts[1])).status, 201);
    const dest = { Destination: files(p, 'x.bin') };
    assert.equal((await req(p, 'MOVE', uploads(p, 't1/.file'), dest)).status, 400, 'chunk 00001 is missing');
    assert.equal((await req(p, 'DELETE', uploads(p, 't1/00002'))).status, 204);
    assert.equal((await req(p, 'PUT', uploads(p, 't1/00001'), {}, parts[1])).status, 201);
    assert.equal((await req(p, 'MOVE', uploads(p, 't1/.file'), { ...dest, 'OC-Total-Length': String(whole.length + 1) })).status, 400, 'the total length differs');
    assert.equal((await req(p, 'MOVE', uploads(p, 't1/.file'), { ...dest, 'OC-Checksum': `SHA1:${sha1(Buffer.from('other'))}` })).status, 400, 'the checksum differs');
    assert.equal((await req(p, 'MOVE', uploads(p, 't1/.file'), { ...dest, 'OC-Checksum': 'SHA1:zz' })).status, 400, 'a malformed checksum');
    assert.ok(!(await names(api, p.token, '/')).includes('x.bin'));
    // Still there to retry: both chunks and their reservation.
    assert.deepEqual(chunksOf((await req(p, 'PROPFIND', uploads(p, 't1'), { Depth: '1' })).text), ['00000:4000', '00001:4000']);
    assert.equal((await capacity(api, p.token)).reserved, 8000);
    assert.equal((await req(p, 'DELETE', uploads(p, 't1'))).status, 204);
    assert.equal((await req(p, 'PROPFIND', uploads(p, 't1'), { Depth: '1' })).status, 404);
    assert.equal((await capacity(api, p.token)).reserved, 0);
    assert.equal(await strayObjects(), 0, 'no chunk bytes are left in storage');

    // With OC-Total-Length on MKCOL, chunks may not go past it.
    assert.equal((await req(p, 'MKCOL', uploads(p, 't2'), { 'OC-Total-Length': '100' })).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 't2/00000'), {}, randomBytes(60))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 't2/00001'), {}, randomBytes(60))).status, 400);
    assert.equal((await req(p, 'DELETE', uploads(p, 't2/'))).status, 204);
    assert.equal((await capacity(api, p.token)).reserved, 0);
  });

  it('quota: a total over the free space is 507 at MKCOL (nothing created), a chunk over it is 507, and so is a MOVE when the quota shrank', async () => {
    const p = await davPerson(server);
    assert.equal((await api.put(`/api/v4/admin/user/${p.id}`, { storage_quota: 10_000 }, { token: admin })).status, 200);
    assert.equal((await req(p, 'MKCOL', uploads(p, 'q1'), { 'OC-Total-Length': '20000' })).status, 507);
    assert.equal((await req(p, 'PROPFIND', uploads(p, 'q1'), { Depth: '0' })).status, 404, 'nothing was created');
    assert.equal((await req(p, 'MKCOL', uploads(p, 'q2'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'q2/00000'), {}, randomBytes(6000))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'q2/00001'), {}, randomBytes(6000))).status, 507, 'the chunks together are over the quota');
    assert.equal((await capacity(api, p.token)).reserved, 6000);
    assert.equal((await api.put(`/api/v4/admin/user/${p.id}`, { storage_quota: 5000 }, { token: admin })).status, 200);
    assert.equal((await req(p, 'MOVE', uploads(p, 'q2/.file'), { Destination: files(p, 'q.bin') })).status, 507);
    assert.deepEqual(await names(api, p.token, '/'), []);
    assert.equal((await capacity(api, p.token)).reserved, 6000, 'the chunks keep their reservation for a retry');
    assert.equal((await req(p, 'DELETE', uploads(p, 'q2'))).status, 204);
    const c = await capacity(api, p.token);
    assert.deepEqual([c.used, c.reserved], [0, 0]);
  });

  it("another person's transfers do not exist for one (404), nor may a MOVE name another's files; hostile names are 400/404, never 500", async () => {
    const a = p;
    const b = await davPerson(server);
    assert.equal((await req(a, 'MKCOL', uploads(a, 'mine'))).status, 201);
    assert.equal((await req(a, 'PUT', uploads(a, 'mine/00000'), {}, 'secret')).status, 201);
    for (const [method, path] of [
      ['PROPFIND', uploads(a, 'mine')],
      ['PUT', uploads(a, 'mine/00001')],
      ['DELETE', uploads(a, 'mine')],
      ['MOVE', uploads(a, 'mine/.file')],
      ['PROPFIND', uploads(b, 'mine')],
      ['MOVE', uploads(b, 'mine/.file')],
      ['DELETE', uploads(b, 'mine')],
    ] as const) {
      const res = await req(b, method, path, { Destination: files(b, 'stolen.bin'), Depth: '1' }, method === 'PUT' ? 'x' : undefined);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await req(b, 'MKCOL', uploads(b, 'theirs'))).status, 201);
    assert.equal((await req(b, 'PUT', uploads(b, 'theirs/00000'), {}, 'x')).status, 201);
    assert.equal((await req(b, 'MOVE', uploads(b, 'theirs/.file'), { Destination: files(a, 'planted.bin') })).status, 403);
    assert.equal((await req(b, 'MOVE', uploads(b, 'theirs/.file'), { Destination: '/dav/planted.bin' })).status, 400);
    assert.equal((await req(b, 'MOVE', uploads(b, 'theirs/.file'), { Destination: 'http://elsewhere.example/remote.php/dav/files/x/y' })).status, 502);
    assert.ok(!(await names(api, a.token, '/')).includes('planted.bin'));
    assert.ok(!(await names(api, b.token, '/')).includes('stolen.bin'));
    assert.deepEqual(chunksOf((await req(a, 'PROPFIND', uploads(a, 'mine'), { Depth: '1' })).text), ['00000:6']);

    for (const [method, path] of [
      ['MKCOL', uploads(a, '%2e%2e')],
      ['MKCOL', uploads(a, '.hidden')],
      ['MKCOL', uploads(a, 'a%2Fb')],
      ['MKCOL', uploads(a, 'a%5Cb')],
      ['MKCOL', uploads(a, '%E0%A4%A')],
      ['MKCOL', uploads(a, 'x'.repeat(300))],
      ['PUT', uploads(a, 'mine/..%2F..%2Fescape')],
      ['PUT', uploads(a, 'mine/%2e%2e')],
      ['PUT', uploads(a, 'mine/abc')],
      ['PUT', uploads(a, 'mine/-1')],
      ['PUT', uploads(a, 'mine/00000/deeper')],
      ['PUT', uploads(a, 'mine//00000')],
      ['PUT', uploads(a, 'mine/.file')],
      ['MOVE', uploads(a, 'mine/00000')],
      ['MKCOL', uploads(a, '')],
      ['PUT', `/remote.php/dav/uploads/${encodeURIComponent('../files')}/x/00000`],
    ] as const) {
      const res = await req(a, method, path, { Destination: files(a, 'x.bin') }, method === 'PUT' ? 'x' : undefined);
      assert.ok([400, 403, 404, 405].includes(res.status), `${method} ${path}: ${res.status}`);
    }
    assert.deepEqual(chunksOf((await req(a, 'PROPFIND', uploads(a, 'mine'), { Depth: '1' })).text), ['00000:6']);
    assert.ok(!(await names(api, a.token, '/')).includes('x.bin'));
    assert.equal((await req(a, 'DELETE', uploads(a, 'mine'))).status, 204);
    assert.equal((await req(b, 'DELETE', uploads(b, 'theirs'))).status, 204);
  });

  /** The data directory's staging areas and blob files, each with its inode. */
  const onDisk = () => {
    const root = path.join(server.config.dataDir, 'files');
    const inodes = (dir: string) => readdirSync(dir).map((n) => statSync(path.join(dir, n)).ino);
    return { staging: inodes(path.join(root, 'staging')), blobs: readdirSync(path.join(root, 'blobs')).flatMap((d) => inodes(path.join(root, 'blobs', d))) };
  };
  const blobOf = async (who: DavPerson, file: string) => {
    const row = await server.built.services.db.selectFrom('files').select('blob_id').where('owner_id', '=', who.id).where('name', '=', file).executeTakeFirstOrThrow();
    return statSync(path.join(server.config.dataDir, 'files', 'blobs', row.blob_id!.slice(0, 2), row.blob_id!)).ino;
  };

  it('chunks sent in order, by byte offset or by index, are written once: no object per chunk, and the file is the spool renamed (same inode)', async () => {
    for (const [transfer, named] of [['inplace-offsets', (_i: number, offset: number) => String(offset).padStart(16, '0')], ['inplace-index', (i: number) => String(i).padStart(5, '0')]] as const) {
      const parts = [randomBytes(300_000), randomBytes(300_000), randomBytes(1234)];
      const whole = Buffer.concat(parts);
      const before = onDisk();
      assert.equal((await req(p, 'MKCOL', uploads(p, transfer), { 'OC-Total-Length': String(whole.length) })).status, 201);
      let offset = 0;
      for (const [i, part] of parts.entries()) {
        assert.equal((await req(p, 'PUT', uploads(p, `${transfer}/${named(i, offset)}`), {}, part)).status, 201);
        offset += part.length;
      }
      const during = onDisk();
      assert.equal(during.blobs.length, before.blobs.length, `${transfer}: no chunk became an object of its own`);
      const spool = during.staging.filter((ino) => !before.staging.includes(ino));
      assert.equal(spool.length, 1, `${transfer}: one staging area holds every chunk`);
      assert.equal((await capacity(api, p.token)).reserved, whole.length, 'the chunks hold their reservation');
      // SHA-1 was computed as the chunks arrived; MD5 is checked by reading the spool back.
      const checksum = transfer === 'inplace-offsets' ? `SHA1:${sha1(whole)}` : `MD5:${createHash('md5').update(whole).digest('hex')}`;
      const moved = await req(p, 'MOVE', uploads(p, `${transfer}/.file`), { Destination: files(p, `${transfer}.bin`), 'OC-Checksum': checksum });
      assert.equal(moved.status, 201, moved.text);
      assert.ok((await download(api, p.token, `/${transfer}.bin`)).body.equals(whole));
      assert.equal(await blobOf(p, `${transfer}.bin`), spool[0], `${transfer}: the file's blob is the spool, renamed, not a copy`);
      assert.deepEqual(onDisk().staging, before.staging, 'nothing is left in staging');
      assert.equal((await capacity(api, p.token)).reserved, 0);
      assert.equal(await strayObjects(), 0);
    }
  });

  it('a chunk sent again and a chunk of unknown length are kept apart from the spool, and so is every chunk after them; a chunk cut midway leaves nothing; the file is exact and nothing is left', async () => {
    const parts = [randomBytes(50_000), randomBytes(50_000), randomBytes(50_000), randomBytes(777)];
    const whole = Buffer.concat(parts);
    const before = onDisk();
    assert.equal((await req(p, 'MKCOL', uploads(p, 'mixed'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'mixed/00000'), {}, parts[0])).status, 201);
    // Chunk 1 first with the wrong bytes, then again: the second goes to an object of its own.
    assert.equal((await req(p, 'PUT', uploads(p, 'mixed/00001'), {}, randomBytes(50_000))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'mixed/00001'), {}, parts[1])).status, 204);
    // Chunk 2 of unknown length (chunked transfer coding).
    const streamed = await rawRequest(server, { method: 'PUT', path: uploads(p, 'mixed/00002'), headers: { authorization: p.basic, 'transfer-encoding': 'chunked' } }, (r) => {
      r.write(parts[2]!.subarray(0, 20_000));
      r.end(parts[2]!.subarray(20_000));
    });
    assert.equal(streamed.status, 201, streamed.body);
    // Chunk 3 is cut midway, then sent whole.
    await rawRequest(server, { method: 'PUT', path: uploads(p, 'mixed/00003'), headers: { authorization: p.basic, 'content-length': '777' }, agent: false }, (r) => {
      r.write(parts[3]!.subarray(0, 300));
      setTimeout(() => r.destroy(), 100);
    });
    for (let i = 0; i < 100 && (await capacity(api, p.token)).reserved !== 150_000; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await req(p, 'PUT', uploads(p, 'mixed/00003'), {}, parts[3])).status, 201);
    assert.equal((await capacity(api, p.token)).reserved, whole.length, 'only the chunks kept hold a reservation');
    // Once the spool holds bytes no chunk owns (the first chunk 1), nothing more is appended to it: it never outgrows the reservations.
    assert.equal(onDisk().blobs.length, before.blobs.length + 3, 'the chunk sent again, the one of unknown length and the one after them are objects');
    const moved = await req(p, 'MOVE', uploads(p, 'mixed/.file'), { Destination: files(p, 'mixed.bin'), 'OC-Checksum': `SHA1:${sha1(whole)}` });
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, p.token, '/mixed.bin')).body.equals(whole));
    assert.deepEqual(onDisk().staging, before.staging, 'the spool was read, then deleted');
    assert.equal((await capacity(api, p.token)).reserved, 0);
    assert.equal(await strayObjects(), 0);
  });

  it('two chunks sent at once: one goes to the spool, the other waits for nothing and is kept on its own; the file is exact', async () => {
    const parts = [randomBytes(200_000), randomBytes(200_000)];
    const whole = Buffer.concat(parts);
    assert.equal((await req(p, 'MKCOL', uploads(p, 'parallel'))).status, 201);
    // The first chunk's body arrives slowly, so the second one's request runs while it is being appended.
    const slow = rawRequest(server, { method: 'PUT', path: uploads(p, 'parallel/0000000000000000'), headers: { authorization: p.basic, 'content-length': String(parts[0]!.length) } }, (r) => {
      r.write(parts[0]!.subarray(0, 1000));
      setTimeout(() => r.end(parts[0]!.subarray(1000)), 400);
    });
    await new Promise((r) => setTimeout(r, 150));
    assert.equal((await req(p, 'PUT', uploads(p, `parallel/${String(parts[0]!.length).padStart(16, '0')}`), {}, parts[1])).status, 201);
    assert.equal((await slow).status, 201);
    const moved = await req(p, 'MOVE', uploads(p, 'parallel/.file'), { Destination: files(p, 'parallel.bin'), 'OC-Total-Length': String(whole.length) });
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, p.token, '/parallel.bin')).body.equals(whole));
    assert.equal(await strayObjects(), 0);
  });

  it("a wrong checksum on chunks in the spool is 400 and keeps them; a folder shared by another person receives them by a copy charged to its owner", async () => {
    const parts = [randomBytes(40_000), randomBytes(9_000)];
    const whole = Buffer.concat(parts);
    const owner = await davPerson(server);
    assert.equal((await req(owner, 'MKCOL', files(owner, 'drop'))).status, 201);
    assert.equal((await grant(api, owner, { path: '/drop', user: p.email, permission: 'write' })).status, 200);
    const ownerUsed = (await capacity(api, owner.token)).used;
    const before = onDisk();
    assert.equal((await req(p, 'MKCOL', uploads(p, 'to-shared'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'to-shared/00000'), {}, parts[0])).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'to-shared/00001'), {}, parts[1])).status, 201);
    const shared = (await sharedWith(api, p)).find((i) => i.path.endsWith(' – drop'))!.path;
    const target = files(p, `${shared.slice(1).split('/').map(encodeURIComponent).join('/')}/in.bin`);
    const wrong = await req(p, 'MOVE', uploads(p, 'to-shared/.file'), { Destination: files(p, 'own.bin'), 'OC-Checksum': `SHA1:${sha1(Buffer.from('other'))}` });
    assert.equal(wrong.status, 400, wrong.text);
    assert.ok(!(await names(api, p.token, '/')).includes('own.bin'));
    assert.deepEqual(chunksOf((await req(p, 'PROPFIND', uploads(p, 'to-shared'), { Depth: '1' })).text), ['00000:40000', '00001:9000'], 'the chunks are kept for a retry');
    const myUsed = (await capacity(api, p.token)).used;
    const moved = await req(p, 'MOVE', uploads(p, 'to-shared/.file'), { Destination: target, 'OC-Checksum': `SHA1:${sha1(whole)}` });
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, owner.token, '/drop/in.bin')).body.equals(whole));
    assert.equal((await capacity(api, owner.token)).used, ownerUsed + whole.length, "charged to the folder's owner");
    const mine = await capacity(api, p.token);
    assert.deepEqual([mine.used, mine.reserved], [myUsed, 0], 'nothing is charged to the writer');
    assert.deepEqual(onDisk().staging, before.staging, 'the spool is gone');
    assert.equal(await strayObjects(), 0);
  });

  it('the old OC-Chunked chunking is still 501 and stores nothing; the connection is closed, not left waiting for the body', async () => {
    const res = await rawRequest(server, { method: 'PUT', path: files(p, 'f.bin-chunking-42-2-0'), headers: { authorization: p.basic, 'OC-Chunked': '1', 'content-length': String(1024 * 1024) }, agent: false }, (r) => {
      // Only part of the body: the answer must come anyway, and the server close the connection.
      r.write(Buffer.alloc(64 * 1024));
    });
    assert.equal(res.status, 501);
    assert.equal(res.headers.connection, 'close');
    assert.ok(!(await names(api, p.token, '/')).some((n) => n.includes('chunking')));
  });

  it('an idle transfer expires after 24 hours with its chunks (the sweep job); one written to recently stays', async () => {
    const email = p.email;
    assert.equal((await req(p, 'MKCOL', uploads(p, 'old'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'old/00000'), {}, randomBytes(5000))).status, 201);
    clock.advance(20 * HOUR);
    assert.equal((await req(p, 'MKCOL', uploads(p, 'recent'))).status, 201);
    assert.equal((await req(p, 'PUT', uploads(p, 'recent/00000'), {}, randomBytes(700))).status, 201);
    clock.advance(5 * HOUR);
    await server.built.services.jobs.run('sync_transfer_sweep');
    assert.equal((await req(p, 'PROPFIND', uploads(p, 'old'), { Depth: '1' })).status, 404);
    assert.equal((await req(p, 'PROPFIND', uploads(p, 'recent'), { Depth: '1' })).status, 207);
    // The access token expired with the day that passed: sign in again.
    const token = (await signIn(api, email, 'user-password-123')).token.access_token;
    assert.equal((await capacity(api, token)).reserved, 700);
    assert.equal((await req(p, 'DELETE', uploads(p, 'recent'))).status, 204);
    assert.equal(await strayObjects(), 0, 'no chunk bytes are left in storage');
    assert.deepEqual(onDisk().staging, [], 'nor any spool');
  });
});

describe('sync chunked uploads on S3: one object per file, no chunk left', () => {
  let s3: TestS3;
  let server: TestServer;
  before(async () => {
    s3 = await startS3();
    server = await startServer(s3.env);
  });
  after(async () => {
    await server?.close();
    await s3?.close();
  });

  it('chunks of 9 MiB, 9 MiB and 1 KiB (over the 8 MiB part size) become one object; the chunk objects are deleted', async () => {
    const p = await davPerson(server);
    const api = new Api(server.url);
    const parts = [randomBytes(9 * 1024 * 1024), randomBytes(9 * 1024 * 1024), randomBytes(1024)];
    const whole = Buffer.concat(parts);
    const up = (method: string, rest: string, headers: Record<string, string> = {}, body?: Buffer) => dav(server, method, `/remote.php/dav/uploads/${p.id}/${rest}`, p.basic, { headers, body });
    assert.equal((await up('MKCOL', 's3t', { 'OC-Total-Length': String(whole.length) })).status, 201);
    for (const [i, part] of parts.entries()) assert.equal((await up('PUT', `s3t/${String(i).padStart(5, '0')}`, {}, part)).status, 201);
    const moved = await up('MOVE', 's3t/.file', { Destination: `/remote.php/dav/files/${p.id}/s3.bin`, 'OC-Total-Length': String(whole.length), 'OC-Checksum': `SHA1:${sha1(whole)}` });
    assert.equal(moved.status, 201, moved.text);
    assert.ok((await download(api, p.token, '/s3.bin')).body.equals(whole));
    const rows = await server.built.services.db.selectFrom('blobs').select('id').execute();
    assert.deepEqual((await s3.keys('blobs/')).sort(), rows.map((r) => `blobs/${r.id}`).sort(), 'only the files\' own objects are left');
    assert.deepEqual(await s3.keys('staging/'), []);
  });
});
