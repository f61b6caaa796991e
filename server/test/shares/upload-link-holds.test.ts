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

// The second half of finding 5: what a link's uploads (and one address's,
// through any of the owner's links) may have reserved and not sent is
// bounded, the owner sees what is held, and can cancel it.
describe('upload-request links: bytes reserved and not sent are bounded, shown and cancellable (issue 32, finding 5)', () => {
  const MiB = 2 ** 20;
  let server: TestServer;
  let api: Api;
  let admin: string;

  before(async () => {
    // One address may hold 1 MiB unsent, one link 2 MiB; X-Forwarded-For names the address.
    server = await startServer({ CIRRUS_LINK_UPLOAD_PENDING_MB_PER_ADDRESS: '1', CIRRUS_LINK_UPLOAD_PENDING_MB_PER_LINK: '2', CIRRUS_TRUST_PROXY: 'true' });
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  async function owner(name: string): Promise<{ token: string; shareId: string }> {
    const { user, token } = await createUser(api, admin, `${name}-${process.pid}@example.com`);
    assert.equal((await api.put(`/api/v4/admin/user/${user.id}`, { storage_quota: 64 * MiB }, { token: admin })).status, 200);
    assert.equal((await api.raw('POST', '/api/v4/file/create', { token: token.access_token, json: { path: '/inbox', type: 'folder' } })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/inbox', upload_only: true }, { token: token.access_token });
    assert.equal(share.status, 200, share.text);
    return { token: token.access_token, shareId: share.body.data.id };
  }
  const createFrom = (shareId: string, address: string, length: number, name = 'big.bin') =>
    fetch(`${server.url}/api/v4/share/upload/${shareId}`, {
      method: 'POST',
      headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': meta(name), 'x-forwarded-for': address },
    });
  const reserved = async (token: string) => (await api.get<{ reserved: number }>('/api/v4/user/capacity', { token })).body.data.reserved;
  interface Pending { id: string; name: string; reserved: number; received: number; expires_at: string }
  const pending = async (token: string, shareId: string) => (await api.get<{ uploads: Pending[] }>(`/api/v4/share/${shareId}/uploads/pending`, { token })).body.data.uploads;

  it('one address holds at most its bound unsent; past it the creation is 429 busy with Retry-After and reserves nothing', async () => {
    const { token, shareId } = await owner('pending-address');
    assert.equal((await createFrom(shareId, '203.0.113.1', MiB)).status, 201);
    const refused = await createFrom(shareId, '203.0.113.1', 1);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    const body = (await refused.json()) as { code: number; data: { reason: string; pending_limit: number } };
    assert.equal(body.data.reason, 'busy');
    assert.equal(body.data.pending_limit, MiB);
    assert.equal(await reserved(token), MiB, 'the refused creation holds nothing');
    assert.equal((await pending(token, shareId)).length, 1);
    // Another address is not held back by the first one's uploads.
    assert.equal((await createFrom(shareId, '203.0.113.2', MiB)).status, 201);
  });

  it('a link holds at most its bound unsent over every address; bytes received make room again', async () => {
    const { token, shareId } = await owner('pending-link');
    const a = await createFrom(shareId, '198.51.100.1', MiB);
    assert.equal((await createFrom(shareId, '198.51.100.2', MiB)).status, 201);
    const third = await createFrom(shareId, '198.51.100.3', 1);
    assert.equal(third.status, 429, 'the link already waits for 2 MiB');
    assert.equal(((await third.json()) as { data: { pending_limit: number } }).data.pending_limit, 2 * MiB);
    // Half of the first upload arrives: half a MiB of room for anyone.
    const sent = await fetch(server.url + a.headers.get('location')!, {
      method: 'PATCH',
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'x-forwarded-for': '198.51.100.1' },
      body: Buffer.alloc(MiB / 2, 7) as unknown as BodyInit,
    });
    assert.equal(sent.status, 204);
    assert.equal((await createFrom(shareId, '198.51.100.3', MiB / 2)).status, 201);
    assert.equal((await createFrom(shareId, '198.51.100.4', 1)).status, 429);
    assert.equal(await reserved(token), 2.5 * MiB, 'what is held: 1 + 1 + 0.5 MiB reserved, of which 0.5 received');
  });

  it('the owner lists the uploads in flight through a link with what each holds, and cancels one: its reservation goes at once', async () => {
    const { token, shareId } = await owner('pending-owner');
    const one = await createFrom(shareId, '192.0.2.1', 300_000, 'one.bin');
    const two = await createFrom(shareId, '192.0.2.2', 200_000, 'two.bin');
    assert.equal(one.status, 201);
    assert.equal(two.status, 201);
    const list = await pending(token, shareId);
    assert.deepEqual(list.map((u) => [u.name, u.reserved, u.received]), [['one.bin', 300_000, 0], ['two.bin', 200_000, 0]]);
    assert.ok(list.every((u) => Date.parse(u.expires_at) > Date.now()));
    assert.equal(await reserved(token), 500_000);

    // Nobody else sees or cancels them: another person gets 404, as for a link that is not theirs.
    const stranger = await owner('pending-stranger');
    assert.equal((await api.get(`/api/v4/share/${shareId}/uploads/pending`, { token: stranger.token })).status, 404);
    assert.equal((await api.delete(`/api/v4/share/${shareId}/uploads/pending/${list[0]!.id}`, undefined, { token: stranger.token })).status, 404);
    assert.equal((await api.delete(`/api/v4/share/${stranger.shareId}/uploads/pending/${list[0]!.id}`, undefined, { token: stranger.token })).status, 404, "an upload of another person's link through one's own");

    const cancelled = await api.delete(`/api/v4/share/${shareId}/uploads/pending/${list[0]!.id}`, undefined, { token });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(await reserved(token), 200_000, 'the cancelled reservation is back at once');
    assert.deepEqual((await pending(token, shareId)).map((u) => u.name), ['two.bin']);
    assert.equal((await fetch(server.url + one.headers.get('location')!, { method: 'HEAD', headers: TUS })).status, 404, 'the uploader finds it gone');
    assert.equal((await api.delete(`/api/v4/share/${shareId}/uploads/pending/${list[0]!.id}`, undefined, { token })).status, 404, 'cancelled once');
  });

  it('a link that is not an upload request has no uploads in flight to show (403), and bad ids are 400', async () => {
    const { token } = await owner('pending-plain');
    assert.equal((await api.raw('PUT', '/api/v4/file/content?path=%2Fnote.txt', { token, body: Buffer.from('hi'), headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    const link = await api.put<{ id: string }>('/api/v4/share', { path: '/note.txt' }, { token });
    assert.equal((await api.get(`/api/v4/share/${link.body.data.id}/uploads/pending`, { token })).status, 403);
    assert.equal((await api.delete(`/api/v4/share/${link.body.data.id}/uploads/pending/..%2F..`, undefined, { token })).status, 400);
  });
});
