// The tus 1.0 resumable upload protocol: the raw protocol rules, then a real
// client (tus-js-client) uploading in chunks and resuming after a broken
// connection.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as tus from 'tus-js-client';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, capacity, download, names, newUser, rawRequest, storageCounts, type FileView, type Person } from './helpers.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('tus 1.0 resumable uploads', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let alice: Person;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    admin = await adminToken(api);
    alice = await newUser(api, admin);
  });
  after(() => server.close());

  const call = (method: string, path: string, headers: Record<string, string>, body?: Buffer | string, token = alice.token) =>
    fetch(server.url + path, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body: body as BodyInit | undefined });

  async function create(length: number, meta: string, token = alice.token): Promise<Response> {
    return call('POST', '/api/v4/file/upload', { ...TUS, 'upload-length': String(length), 'upload-metadata': meta }, undefined, token);
  }

  const patch = (location: string, offset: number, body: Buffer, extra: Record<string, string> = {}) =>
    call('PATCH', location, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...extra }, body);

  it('tus §OPTIONS: advertises the version and extensions without authentication', async () => {
    const res = await fetch(`${server.url}/api/v4/file/upload`, { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('tus-resumable'), '1.0.0');
    assert.equal(res.headers.get('tus-version'), '1.0.0');
    assert.deepEqual(res.headers.get('tus-extension')!.split(','), ['creation', 'termination', 'expiration']);
  });

  it('tus §Tus-Resumable: a request without the supported version is 412 with Tus-Version', async () => {
    const res = await call('POST', '/api/v4/file/upload', { 'upload-length': '3', 'upload-metadata': `path ${b64('/t/x')}` });
    assert.equal(res.status, 412);
    assert.equal(res.headers.get('tus-version'), '1.0.0');
    const wrong = await call('POST', '/api/v4/file/upload', { 'tus-resumable': '0.2.2', 'upload-length': '3' });
    assert.equal(wrong.status, 412);
    assert.equal((await call('POST', '/api/v4/file/upload', TUS, undefined, 'not-a-token')).status, 401);
  });

  it('tus §Creation + core: POST, HEAD, PATCH in pieces; the file appears only when complete', async () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    const res = await create(data.length, `path ${b64('/tus/fox.txt')},other ${b64('ignored')}`);
    assert.equal(res.status, 201);
    const location = res.headers.get('location')!;
    assert.match(location, /^\/api\/v4\/file\/upload\/[A-Za-z0-9]+$/);
    assert.ok(res.headers.get('upload-expires'));
    const head = await call('HEAD', location, TUS);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('upload-offset'), '0');
    assert.equal(head.headers.get('upload-length'), String(data.length));
    assert.equal(head.headers.get('cache-control'), 'no-store');
    const p1 = await patch(location, 0, data.subarray(0, 10));
    assert.equal(p1.status, 204);
    assert.equal(p1.headers.get('upload-offset'), '10');
    assert.equal(p1.headers.get('tus-resumable'), '1.0.0');
    assert.equal((await api.get(`/api/v4/file/info?path=/tus/fox.txt`, { token: alice.token })).status, 404, 'not visible before the last byte');
    const p2 = await patch(location, 10, data.subarray(10));
    assert.equal(p2.status, 204);
    assert.equal(p2.headers.get('upload-offset'), String(data.length));
    assert.ok((await download(api, alice.token, '/tus/fox.txt')).body.equals(data));
    assert.equal((await call('HEAD', location, TUS)).status, 404, 'a finished upload is gone');
  });

  it('Upload-Metadata: filename and folder work too; malformed metadata is 400', async () => {
    const res = await create(2, `filename ${b64('ü.txt')},folder ${b64('/tus/named')}`);
    assert.equal(res.status, 201);
    assert.equal((await patch(res.headers.get('location')!, 0, Buffer.from('hi'))).status, 204);
    assert.deepEqual(await names(api, alice.token, '/tus/named'), ['ü.txt']);
    for (const meta of ['', 'path', `path ${b64('/a')},path ${b64('/b')}`, 'path not*base64', `path ${b64('/../etc')}`, `filename ${b64('a/b')}`]) {
      const bad = await create(1, meta);
      assert.equal(bad.status, 400, JSON.stringify(meta));
    }
    const noLength = await call('POST', '/api/v4/file/upload', { ...TUS, 'upload-metadata': `path ${b64('/x')}` });
    assert.equal(noLength.status, 400);
    const negative = await call('POST', '/api/v4/file/upload', { ...TUS, 'upload-length': '-1', 'upload-metadata': `path ${b64('/x')}` });
    assert.equal(negative.status, 400);
    const deferred = await call('POST', '/api/v4/file/upload', { ...TUS, 'upload-defer-length': '1', 'upload-metadata': `path ${b64('/x')}` });
    assert.equal(deferred.status, 400);
  });

  it('tus §PATCH: a wrong Upload-Offset is 409 and a wrong Content-Type 415; nothing is written', async () => {
    const res = await create(6, `path ${b64('/tus/offsets.bin')}`);
    const location = res.headers.get('location')!;
    assert.equal((await patch(location, 0, Buffer.from('abc'))).status, 204);
    const mismatch = await patch(location, 1, Buffer.from('XYZ'));
    assert.equal(mismatch.status, 409);
    assert.equal((await patch(location, 0, Buffer.from('XYZ'))).status, 409, 'rewinding is refused');
    const type = await call('PATCH', location, { ...TUS, 'upload-offset': '3', 'content-type': 'application/octet-stream' }, Buffer.from('def'));
    assert.equal(type.status, 415);
    assert.equal((await call('PATCH', location, { ...TUS, 'content-type': 'application/offset+octet-stream' }, Buffer.from('def'))).status, 400, 'no Upload-Offset');
    assert.equal((await call('HEAD', location, TUS)).headers.get('upload-offset'), '3');
    assert.equal((await patch(location, 3, Buffer.from('def'))).status, 204);
    assert.equal((await download(api, alice.token, '/tus/offsets.bin')).body.toString(), 'abcdef');
  });

  it('a PATCH past Upload-Length (a wrong declared length) is 400 and leaves the offset where it was', async () => {
    const res = await create(4, `path ${b64('/tus/long.bin')}`);
    const location = res.headers.get('location')!;
    assert.equal((await patch(location, 0, Buffer.from('123456'))).status, 400, 'Content-Length says too much');
    // A chunked body that turns out longer than declared.
    const chunked = await rawRequest(
      server,
      { method: 'PATCH', path: location, headers: { authorization: `Bearer ${alice.token}`, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'transfer-encoding': 'chunked' } },
      (req) => req.end(Buffer.from('1234567')),
    );
    assert.equal(chunked.status, 400);
    assert.equal((await call('HEAD', location, TUS)).headers.get('upload-offset'), '0');
    assert.equal((await patch(location, 0, Buffer.from('1234'))).status, 204);
    assert.equal((await download(api, alice.token, '/tus/long.bin')).body.toString(), '1234');
  });

  it('a broken connection keeps the bytes received; the upload resumes from the reported offset', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024, 0x5a);
    data.write('start', 0);
    data.write('end', data.length - 3);
    const res = await create(data.length, `path ${b64('/tus/resumed.bin')}`);
    const location = res.headers.get('location')!;
    const cut = await rawRequest(
      server,
      { method: 'PATCH', path: location, headers: { authorization: `Bearer ${alice.token}`, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length) } },
      (req) => {
        req.write(data.subarray(0, 1024 * 1024));
        setTimeout(() => req.destroy(), 300);
      },
    );
    assert.equal(cut.status, null);
    let offset = 0;
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      offset = Number((await call('HEAD', location, TUS)).headers.get('upload-offset'));
      if (offset > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(offset > 0 && offset <= 1024 * 1024, `durable offset ${offset}`);
    const rest = await patch(location, offset, data.subarray(offset));
    assert.equal(rest.status, 204);
    assert.ok((await download(api, alice.token, '/tus/resumed.bin')).body.equals(data));
  });

  it('tus §Termination: DELETE removes the upload and its data; others get 404 for it', async () => {
    const res = await create(10, `path ${b64('/tus/terminated.bin')}`);
    const location = res.headers.get('location')!;
    await patch(location, 0, Buffer.from('12345'));
    const bob = await newUser(api, admin);
    assert.equal((await call('HEAD', location, TUS, undefined, bob.token)).status, 404);
    assert.equal((await call('PATCH', location, { ...TUS, 'upload-offset': '5', 'content-type': 'application/offset+octet-stream' }, Buffer.from('x'), bob.token)).status, 404);
    assert.equal((await call('DELETE', location, TUS, undefined, bob.token)).status, 404);
    assert.equal((await call('DELETE', location, TUS)).status, 204);
    assert.equal((await call('HEAD', location, TUS)).status, 404);
    assert.equal((await patch(location, 5, Buffer.from('67890'))).status, 404);
    assert.equal((await api.get('/api/v4/file/info?path=/tus/terminated.bin', { token: alice.token })).status, 404);
  });

  it('quota: the declared length is reserved at creation; over quota is 413/40049', async () => {
    const carol = await newUser(api, admin);
    await api.put(`/api/v4/admin/user/${carol.id}`, { storage_quota: 1000 }, { token: admin });
    const big = await create(1001, `path ${b64('/big.bin')}`, carol.token);
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as { code: number }).code, 40049);
    const first = await create(700, `path ${b64('/a.bin')}`, carol.token);
    assert.equal(first.status, 201);
    assert.equal((await create(400, `path ${b64('/b.bin')}`, carol.token)).status, 413, 'the first upload holds 700 bytes');
    await call('DELETE', first.headers.get('location')!, TUS, undefined, carol.token);
    assert.equal((await create(400, `path ${b64('/b.bin')}`, carol.token)).status, 201, 'termination released the reservation');
  });

  it('tus §Expiration: expired uploads are swept with their data and their reservation', async () => {
    const dave = await newUser(api, admin);
    const res = await create(100, `path ${b64('/expiring.bin')}`, dave.token);
    const location = res.headers.get('location')!;
    await call('PATCH', location, { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(40), dave.token);
    const before = await storageCounts(server);
    const swept = (await server.built.services.files.uploads.sweep(server.clock.now() + 25 * 3600_000)) as { uploads: number };
    assert.ok(swept.uploads >= 1);
    const afterCounts = await storageCounts(server);
    assert.ok(afterCounts.staging < before.staging);
    assert.equal((await call('HEAD', location, TUS, undefined, dave.token)).status, 404);
    assert.deepEqual(await capacity(api, dave.token), { used: 0, total: 10 * 1024 ** 3, versions: 0, reserved: 0 });
  });

  it('an empty upload is complete at creation; an Upload-Length past 4 GiB is accepted', async () => {
    const empty = await create(0, `path ${b64('/tus/empty.txt')}`);
    assert.equal(empty.status, 201);
    assert.equal((await api.get<FileView>('/api/v4/file/info?path=/tus/empty.txt', { token: alice.token })).body.data.size, 0);
    const huge = 5 * 1024 ** 3;
    const res = await create(huge, `path ${b64('/tus/huge.bin')}`);
    assert.equal(res.status, 201);
    const location = res.headers.get('location')!;
    assert.equal((await call('HEAD', location, TUS)).headers.get('upload-length'), String(huge));
    assert.equal((await patch(location, 0, Buffer.alloc(1000))).headers.get('upload-offset'), '1000');
    assert.equal((await call('DELETE', location, TUS)).status, 204);
  });

  it('uploading to a folder path, or through a file, is 409 at creation', async () => {
    await api.post('/api/v4/file/create', { path: '/tus/a-folder', type: 'folder' }, { token: alice.token });
    await api.post('/api/v4/file/create', { path: '/tus/a-file', type: 'file' }, { token: alice.token });
    assert.equal((await create(1, `path ${b64('/tus/a-folder')}`)).status, 409);
    assert.equal((await create(1, `path ${b64('/tus/a-file/x')}`)).status, 409);
  });

  describe('with a real client (tus-js-client)', () => {
    function upload(data: Buffer, path: string, opts: Partial<tus.UploadOptions> = {}): Promise<tus.Upload> {
      return new Promise((resolve, reject) => {
        const u: tus.Upload = new tus.Upload(data, {
          endpoint: `${server.url}/api/v4/file/upload`,
          headers: { authorization: `Bearer ${alice.token}` },
          metadata: { path },
          chunkSize: 256 * 1024,
          retryDelays: [0, 100, 200, 400],
          onSuccess: () => resolve(u),
          onError: reject,
          ...opts,
        });
        u.start();
      });
    }

    it('uploads in chunks', async () => {
      const data = Buffer.alloc(1024 * 1024 + 123, 3);
      await upload(data, '/tus/client.bin');
      assert.ok((await download(api, alice.token, '/tus/client.bin')).body.equals(data));
    });

    it('resumes after the connection breaks mid-upload', async () => {
      const data = Buffer.alloc(2 * 1024 * 1024, 9);
      data.write('resume me', 1500 * 1024);
      let broken = false;
      // Break one chunk's connection once the client is under way.
      const hook = server.built.app.server;
      const onRequest = (req: import('node:http').IncomingMessage) => {
        if (!broken && req.method === 'PATCH' && req.headers['upload-offset'] === String(512 * 1024)) {
          broken = true;
          req.socket.destroy();
        }
      };
      hook.prependListener('request', onRequest);
      try {
        await upload(data, '/tus/client-resumed.bin');
      } finally {
        hook.removeListener('request', onRequest);
      }
      assert.ok(broken, 'a connection was cut');
      assert.ok((await download(api, alice.token, '/tus/client-resumed.bin')).body.equals(data));
    });
  });
});
