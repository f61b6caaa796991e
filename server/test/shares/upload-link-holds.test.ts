// What a stranger's upload through an upload-request link may hold of the
// owner's quota (issue 32, finding 5): a tus creation reserves its
// Upload-Length at once, so one that then sends nothing must not keep the
// owner's space for long. It expires after CIRRUS_LINK_UPLOAD_IDLE_MINUTES
// without bytes (the upload sweeper reclaims it), and deleting the link gives
// every reservation made through it back at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { startServer, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';

const TUS = { 'tus-resumable': '1.0.0' };
const meta = (filename: string) => `filename ${Buffer.from(filename).toString('base64')}`;

describe('upload-request links cannot hold the owner\'s quota (issue 32, finding 5)', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let api: Api;
  let admin: string;
  let n = 0;

  before(async () => {
    server = await startServer({ CIRRUS_LINK_UPLOAD_IDLE_MINUTES: '10' }, { clock });
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  /** An owner with a 10,000-byte quota and an upload-request link on their folder. */
  async function ownerWithLink(): Promise<{ token: string; shareId: string }> {
    n++;
    const { user, token } = await createUser(api, admin, `link-holds-${process.pid}-${n}@example.com`);
    assert.equal((await api.put(`/api/v4/admin/user/${user.id}`, { storage_quota: 10_000 }, { token: admin })).status, 200);
    assert.equal((await api.raw('POST', '/api/v4/file/create', { token: token.access_token, json: { path: '/inbox', type: 'folder' } })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/inbox', upload_only: true }, { token: token.access_token });
    assert.equal(share.status, 200, share.text);
    return { token: token.access_token, shareId: share.body.data.id };
  }

  const create = (shareId: string, length: number) =>
    fetch(`${server.url}/api/v4/share/upload/${shareId}`, { method: 'POST', headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': meta('big.bin') } });
  const patch = (location: string, offset: number, body: Buffer) =>
    fetch(server.url + location, { method: 'PATCH', headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: body as unknown as BodyInit });
  /** The owner stores 5,000 bytes of their own: refused while a stranger holds 9,000 of their 10,000. */
  const ownPut = async (token: string) =>
    (await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(`/own-${Date.now()}-${Math.random()}.bin`)}`, { token, body: Buffer.alloc(5000, 1), headers: { 'content-type': 'application/octet-stream' } })).status;
  const sweep = () => server.built.services.files.uploads.sweep(clock.now());

  it('a link upload that receives no bytes expires within the idle minutes and gives the owner\'s quota back', async () => {
    const { token, shareId } = await ownerWithLink();
    const held = await create(shareId, 9000);
    assert.equal(held.status, 201, await held.text());
    assert.notEqual(await ownPut(token), 200, 'the reservation holds the owner\'s space');
    clock.advance(11 * 60_000);
    await sweep();
    assert.equal(await ownPut(token), 200, 'after 10 idle minutes the reservation is gone');
    assert.equal((await fetch(server.url + held.headers.get('location')!, { method: 'HEAD', headers: TUS })).status, 404);
  });

  it('bytes keep a link upload alive: the idle minutes count from the last bytes received', async () => {
    const { shareId } = await ownerWithLink();
    const res = await create(shareId, 3000);
    const location = res.headers.get('location')!;
    clock.advance(6 * 60_000);
    assert.equal((await patch(location, 0, Buffer.alloc(1000, 2))).status, 204);
    clock.advance(6 * 60_000);
    await sweep();
    assert.equal((await patch(location, 1000, Buffer.alloc(2000, 3))).status, 204, 'still there 12 minutes after creation, 6 after its last bytes');
  });

  it('deleting the link ends its uploads in flight and gives their reservations back at once', async () => {
    const { token, shareId } = await ownerWithLink();
    const held = await create(shareId, 9000);
    assert.equal(held.status, 201);
    assert.notEqual(await ownPut(token), 200);
    assert.equal((await api.delete(`/api/v4/share/${shareId}`, undefined, { token })).status, 200);
    assert.equal(await ownPut(token), 200, 'the link\'s reservation went with it');
  });
});
