// GET /api/v4/file/thumb: WebP thumbnails of images made with sharp, cached,
// refused for folders, non-images, corrupt images and decompression bombs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put, q, type Person } from './helpers.js';

describe('file thumbnails', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let bob: Person;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    bob = await newUser(api, admin);
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 40, b: 90 } } }).jpeg().toBuffer();
    assert.equal((await put(api, alice.token, '/photo.jpg', photo)).status, 200);
    assert.equal((await put(api, alice.token, '/notes.txt', 'not a picture')).status, 200);
    assert.equal((await put(api, alice.token, '/broken.png', Buffer.from('\x89PNG\r\n\x1a\n but not really'))).status, 200);
    // A decompression bomb: a small PNG whose header claims 30,000 × 30,000 pixels (900 Mpx).
    const bomb = await sharp({ create: { width: 10, height: 10, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
    bomb.writeUInt32BE(30_000, 16);
    bomb.writeUInt32BE(30_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29); // the IHDR chunk's CRC over type + data
    assert.equal((await put(api, alice.token, '/bomb.png', bomb)).status, 200);
    assert.equal((await api.post('/api/v4/file/create', { path: '/album', type: 'folder' }, { token: alice.token })).status, 200);
  });
  after(() => server.close());

  const thumb = (path: string, extra = '', who = alice, headers: Record<string, string> = {}) =>
    server.fetch(`/api/v4/file/thumb?path=${q(path)}${extra}`, { headers: { authorization: `Bearer ${who.token}`, ...headers } });

  it('many requests at once for the same uncached thumbnail (copies of one picture in a grid) all answer 200', async () => {
    const tiny = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 160, b: 60 } } }).jpeg().toBuffer();
    assert.equal((await put(api, alice.token, '/same/a.jpg', tiny)).status, 200);
    const paths = ['/same/a.jpg'];
    for (let i = 0; i < 7; i++) {
      assert.equal((await api.post('/api/v4/file/create', { path: `/same/c${i}`, type: 'folder' }, { token: alice.token })).status, 200);
      assert.equal((await api.post('/api/v4/file/move', { paths: ['/same/a.jpg'], dst: `/same/c${i}`, copy: true }, { token: alice.token })).status, 200);
      paths.push(`/same/c${i}/a.jpg`);
    }
    for (const size of [64, 128, 512]) {
      const answers = await Promise.all([...paths, ...paths, ...paths].map((p) => thumb(p, `&size=${size}`)));
      assert.deepEqual(answers.map((r) => r.status), answers.map(() => 200), `size ${size}`);
    }
  });

  it('a WebP no larger than the size asked (rounded up to a served size), aspect kept; cached with an ETag', async () => {
    const res = await thumb('/photo.jpg', '&size=200');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/webp');
    const body = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(body).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(meta.width, 256);
    assert.equal(meta.height, 171);
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    const again = await thumb('/photo.jpg', '&size=256');
    assert.ok(Buffer.from(await again.arrayBuffer()).equals(body), 'the cached thumbnail');
    const notModified = await thumb('/photo.jpg', '&size=256', alice, { 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    // A new version of the file is a new picture.
    const blue = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
    await put(api, alice.token, '/photo.jpg', blue);
    const fresh = await thumb('/photo.jpg', '&size=256');
    assert.notEqual(fresh.headers.get('etag'), etag);
    assert.equal((await sharp(Buffer.from(await fresh.arrayBuffer())).metadata()).width, 256);
  });

  it('refuses folders, non-images and corrupt images with 400/40001; bombs with 413/40049; never a 500', async () => {
    for (const path of ['/album', '/notes.txt', '/broken.png']) {
      const res = await thumb(path);
      assert.equal(res.status, 400, path);
      assert.equal(((await res.json()) as { code: number }).code, 40001);
    }
    const bomb = await thumb('/bomb.png');
    assert.equal(bomb.status, 413);
    assert.equal(((await bomb.json()) as { code: number }).code, 40049);
  });

  it('bad sizes are 400; another person\'s image is 404; no token is 401', async () => {
    for (const extra of ['&size=0', '&size=5000', '&size=abc']) assert.equal((await thumb('/photo.jpg', extra)).status, 400, extra);
    assert.equal((await thumb('/photo.jpg', '', bob)).status, 404);
    assert.equal((await server.fetch(`/api/v4/file/thumb?path=${q('/photo.jpg')}`)).status, 401);
  });
});
