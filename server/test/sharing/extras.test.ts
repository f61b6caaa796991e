// The rest of a recipient's experience of a shared folder (issue 22: "shared
// items open, preview, download and zip as if they were the recipient's
// own"): thumbnails, a signed archive of the shared folder, one zip of a mix
// of own and shared items, and a signed link of a shared file; nothing of the
// owner's other files through any of them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put, q, readCentralDirectory } from '../files/helpers.js';
import { members, grant, type Member } from './helpers.js';

describe('a recipient\'s previews, zips and links of shared items', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member;
  let bob: Member;
  const M = '/Shared with me/Alice – photos';

  before(async () => {
    server = await startServer();
    api = new Api(server);
    [alice, bob] = await members(api, 'Alice', 'Bob');
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 20, g: 140, b: 90 } } }).jpeg().toBuffer();
    assert.equal((await put(api, alice.token, '/photos/beach.jpg', photo)).status, 200);
    assert.equal((await put(api, alice.token, '/photos/list.txt', 'sunscreen')).status, 200);
    assert.equal((await put(api, alice.token, '/private/diary.jpg', photo)).status, 200);
    assert.equal((await put(api, bob.token, '/mine.txt', 'bob\'s')).status, 200);
    assert.equal((await grant(api, alice, { path: '/photos', user: bob.email, permission: 'read' })).status, 200);
  });
  after(() => server.close());

  it('a thumbnail of a shared image; none of the owner\'s other images', async () => {
    const res = await api.fetch(`/api/v4/file/thumb?path=${q(`${M}/beach.jpg`)}&size=128`, { headers: { authorization: `Bearer ${bob.token}` } });
    assert.equal(res.status, 200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(meta.width, 128);
    const other = await api.fetch(`/api/v4/file/thumb?path=${q(`${M}/../private/diary.jpg`)}`, { headers: { authorization: `Bearer ${bob.token}` } });
    assert.notEqual(other.status, 200);
  });

  it('a signed archive of the shared folder downloads without a token, with just its items', async () => {
    const signed = await api.post<{ url: string }>('/api/v4/file/archive/url', { paths: [M] }, { token: bob.token });
    assert.equal(signed.status, 200, signed.text);
    const res = await fetch(signed.body.data.url);
    assert.equal(res.status, 200);
    const zip = Buffer.from(await res.arrayBuffer());
    const names = readCentralDirectory(zip, zip.length).entries.map((e) => e.name).sort();
    assert.deepEqual(names, ['photos/', 'photos/beach.jpg', 'photos/list.txt']);
  });

  it('one zip of the recipient\'s own file and a shared folder', async () => {
    const res = await api.fetch('/api/v4/file/archive', {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/mine.txt', M] }),
    });
    assert.equal(res.status, 200);
    const zip = Buffer.from(await res.arrayBuffer());
    assert.deepEqual(readCentralDirectory(zip, zip.length).entries.map((e) => e.name).sort(), ['mine.txt', 'photos/', 'photos/beach.jpg', 'photos/list.txt']);
    // A signed archive holds items of one owner: the mix is refused with a reason.
    const mixed = await api.post('/api/v4/file/archive/url', { paths: ['/mine.txt', M] }, { token: bob.token });
    assert.equal(mixed.status, 400);
  });
});
