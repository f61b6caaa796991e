// The file API on S3 storage (CIRRUS_STORAGE=s3, a real s3rver): streamed
// PUTs, ranged downloads, tus in several PATCHes, ZIP archives, share links,
// deletion, presigned downloads, and that nothing is left in the bucket by
// finished, abandoned or broken uploads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { adminToken, capacity, download, newUser, put, q, rawRequest, readCentralDirectory, entryData, type Person } from '../files/helpers.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const MiB = 1024 * 1024;

describe('files on S3 storage', () => {
  let s3: TestS3;
  let server: TestServer;
  let api: Api;
  let alice: Person;

  before(async () => {
    s3 = await startS3();
    server = await startServer(s3.env);
    api = new Api(server.url);
    alice = await newUser(api, await adminToken(api));
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  const blobKeys = async () => (await s3.keys('blobs/')).length;
  const staged = async () => s3.keys('staging/');

  it('a streamed PUT of 20 MiB lands as one object; full and ranged GETs return its bytes', async () => {
    const data = randomBytes(20 * MiB + 3);
    const before = await blobKeys();
    const res = await put(api, alice.token, '/s3/big.bin', data);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.size, data.length);
    assert.equal(await blobKeys(), before + 1);
    assert.deepEqual(await staged(), []);
    const full = await download(api, alice.token, '/s3/big.bin');
    assert.ok(full.body.equals(data));
    const part = await download(api, alice.token, '/s3/big.bin', { range: 'bytes=8388600-8388700' });
    assert.equal(part.status, 206);
    assert.ok(part.body.equals(data.subarray(8388600, 8388701)));
    const first = await download(api, alice.token, '/s3/big.bin', { range: 'bytes=0-0' });
    assert.equal(first.status, 206);
    assert.ok(first.body.equals(data.subarray(0, 1)));
  });

  it('tus §Core: PATCHes of odd sizes assemble into the file; the bucket holds no staging object afterwards', async () => {
    const data = randomBytes(11 * MiB + 77);
    const created = await fetch(`${server.url}/api/v4/file/upload`, {
      method: 'POST',
      headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-length': String(data.length), 'upload-metadata': `path ${b64('/s3/tus.bin')}` },
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    let offset = 0;
    for (const size of [3 * MiB + 1, 5 * MiB, data.length - (8 * MiB + 1)]) {
      const res = await fetch(server.url + location, {
        method: 'PATCH',
        headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: data.subarray(offset, offset + size),
      });
      assert.equal(res.status, 204, await res.text());
      offset += size;
      assert.equal(res.headers.get('upload-offset'), String(offset));
    }
    assert.ok((await download(api, alice.token, '/s3/tus.bin')).body.equals(data));
    assert.deepEqual(await staged(), []);
  });

  it('a PUT cut off midway leaves no file, no object and no reservation', async () => {
    const before = await blobKeys();
    const used = (await capacity(api, alice.token)).used;
    const res = await rawRequest(
      server,
      { method: 'PUT', path: `/api/v4/file/content?path=${q('/s3/cut.bin')}`, headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream', 'content-length': String(12 * MiB) } },
      (req) => {
        req.write(randomBytes(6 * MiB));
        setTimeout(() => req.destroy(), 200);
      },
    );
    assert.equal(res.status, null);
    // The server notices the closed connection and cleans up.
    for (let i = 0; i < 100 && ((await staged()).length > 0 || (await server.built.services.db.selectFrom('uploads').selectAll().execute()).length > 0); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await staged(), []);
    assert.equal(await blobKeys(), before);
    assert.equal((await capacity(api, alice.token)).used, used);
    assert.equal((await download(api, alice.token, '/s3/cut.bin')).status, 404);
  });

  it('ZIP archives and share links read their bytes from the bucket', async () => {
    await put(api, alice.token, '/zipme/a.txt', 'alpha');
    await put(api, alice.token, '/zipme/b.bin', randomBytes(6 * MiB));
    const res = await fetch(`${server.url}/api/v4/file/archive?path=${q('/zipme')}`, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.equal(res.status, 200);
    const archive = Buffer.from(await res.arrayBuffer());
    const { entries } = readCentralDirectory(archive, archive.length);
    const a = entries.find((e) => e.name.endsWith('a.txt'))!;
    assert.equal(entryData(archive, a).toString(), 'alpha');

    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/zipme/a.txt' }, { token: alice.token });
    assert.equal(share.status, 200, share.text);
    const dl = await fetch(`${server.url}/s/${share.body.data.id}`);
    assert.equal(dl.status, 200);
    assert.equal(await dl.text(), 'alpha');
  });

  it('deleting a file permanently removes its object', async () => {
    await put(api, alice.token, '/s3/gone.bin', randomBytes(1000));
    const before = await blobKeys();
    const res = await api.call('DELETE', '/api/v4/file', { token: alice.token, json: { paths: ['/s3/gone.bin'], permanent: true } });
    assert.equal(res.status, 200, res.text);
    assert.equal(await blobKeys(), before - 1);
  });

  it('an upload cancelled with DELETE (tus §Termination) leaves nothing in the bucket', async () => {
    const created = await fetch(`${server.url}/api/v4/file/upload`, {
      method: 'POST',
      headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-length': String(9 * MiB), 'upload-metadata': `path ${b64('/s3/cancel.bin')}` },
    });
    const location = created.headers.get('location')!;
    const patched = await fetch(server.url + location, {
      method: 'PATCH',
      headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: randomBytes(6 * MiB),
    });
    assert.equal(patched.status, 204);
    assert.ok((await staged()).length > 0);
    const del = await fetch(server.url + location, { method: 'DELETE', headers: { ...TUS, authorization: `Bearer ${alice.token}` } });
    assert.equal(del.status, 204);
    assert.deepEqual(await staged(), []);
  });
});

describe('presigned downloads (CIRRUS_S3_PRESIGNED_DOWNLOADS=true)', () => {
  let s3: TestS3;
  let server: TestServer;
  let api: Api;
  let alice: Person;
  let bob: Person;

  before(async () => {
    s3 = await startS3('cirrus-presigned');
    server = await startServer({ ...s3.env, CIRRUS_S3_PRESIGNED_DOWNLOADS: 'true' });
    api = new Api(server.url);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    bob = await newUser(api, admin);
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  it('an authorized GET is redirected to the store, which serves the bytes and the file name; others still get 401/404', async () => {
    const data = randomBytes(2 * MiB);
    const created = await put(api, alice.token, '/p/photo.bin', data);
    assert.equal(created.status, 200);
    const res = await fetch(`${server.url}/api/v4/file/content?path=${q('/p/photo.bin')}`, { headers: { authorization: `Bearer ${alice.token}` }, redirect: 'manual' });
    assert.equal(res.status, 302);
    const location = res.headers.get('location')!;
    assert.ok(location.startsWith(s3.endpoint), location);
    assert.ok(!location.includes(alice.token));
    const direct = await fetch(location);
    assert.equal(direct.status, 200);
    assert.ok(Buffer.from(await direct.arrayBuffer()).equals(data));
    assert.match(direct.headers.get('content-disposition') ?? '', /attachment; filename="photo.bin"/);
    const ranged = await fetch(location, { headers: { range: 'bytes=10-19' } });
    assert.equal(ranged.status, 206);
    assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(10, 20)));

    assert.equal((await fetch(`${server.url}/api/v4/file/content?path=${q('/p/photo.bin')}`, { redirect: 'manual' })).status, 401);
    assert.equal((await fetch(`${server.url}/api/v4/file/content?path=${q('/p/photo.bin')}`, { headers: { authorization: `Bearer ${bob.token}` }, redirect: 'manual' })).status, 404);
    // HEAD is answered by Cirrus itself.
    const head = await fetch(`${server.url}/api/v4/file/content?path=${q('/p/photo.bin')}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice.token}` }, redirect: 'manual' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(data.length));
  });
});
