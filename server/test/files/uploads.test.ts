// Streamed PUT uploads: overwrite, zero bytes, wrong lengths, disconnects,
// stalls, quota (declared and chunked bodies), concurrent writers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, capacity, download, names, newUser, put, q, rawRequest, storageCounts, type FileView, type Person } from './helpers.js';

describe('streamed uploads (PUT /api/v4/file/content)', () => {
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

  const setQuota = (p: Person, bytes: number | null) => api.put(`/api/v4/admin/user/${p.id}`, { storage_quota: bytes }, { token: admin });
  const clean = async () => {
    // The upload row goes first and its staging data right after (in the same request's cleanup), so give that a moment.
    await waitFor(async () => {
      const c = await storageCounts(server);
      return c.staging === 0 && c.uploads === 0;
    }).catch(() => undefined);
    const counts = await storageCounts(server);
    assert.equal(counts.staging, 0, 'no staging data left');
    assert.equal(counts.uploads, 0, 'no upload rows left');
  };

  it('creates, then overwrites in place: same id, new bytes, parents created', async () => {
    const first = await put(api, alice.token, '/up/a/b/c.bin', Buffer.from([1, 2, 3]));
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.size, 3);
    const second = await put(api, alice.token, '/up/a/b/c.bin', 'replaced!');
    assert.equal(second.body.data.id, first.body.data.id);
    assert.equal(second.body.data.size, 9);
    assert.equal((await download(api, alice.token, '/up/a/b/c.bin')).body.toString(), 'replaced!');
    await clean();
  });

  it('accepts any media type, and a body without one, as raw bytes beyond the 1 MiB JSON limit', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const json = await put(api, alice.token, '/up/big.json', big, { 'content-type': 'application/json' });
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.data.size, big.length);
    assert.ok((await download(api, alice.token, '/up/big.json')).body.equals(big));
    const res = await rawRequest(server, { method: 'PUT', path: `/api/v4/file/content?path=${q('/up/untyped')}`, headers: { authorization: `Bearer ${alice.token}`, 'content-length': '5' } }, (req) => req.end('hello'));
    assert.equal(res.status, 200, res.body);
    assert.equal((await download(api, alice.token, '/up/untyped')).body.toString(), 'hello');
  });

  it('zero-byte files upload and download', async () => {
    const res = await put(api, alice.token, '/up/empty', '');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.size, 0);
    const dl = await download(api, alice.token, '/up/empty');
    assert.equal(dl.status, 200);
    assert.equal(dl.body.length, 0);
    assert.equal(dl.headers.get('content-length'), '0');
  });

  it('a chunked body of unknown length streams through', async () => {
    const parts = Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const res = await fetch(`${server.url}/api/v4/file/content?path=${q('/up/chunked.bin')}`, {
      method: 'PUT', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(Readable.from(parts)) as ReadableStream, duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 200, await res.clone().text());
    assert.ok((await download(api, alice.token, '/up/chunked.bin')).body.equals(Buffer.concat(parts)));
    await clean();
  });

  it('overwriting a folder with a file is 409, checked before the body is read', async () => {
    await put(api, alice.token, '/up/dir/inner.txt', 'x');
    const res = await put(api, alice.token, '/up/dir', 'not a folder');
    assert.equal(res.status, 409);
    const through = await put(api, alice.token, '/up/dir/inner.txt/child', 'x');
    assert.equal(through.status, 409, 'a file cannot be a parent');
    assert.equal((await put(api, alice.token, '/', 'x')).status, 409);
    assert.deepEqual(await names(api, alice.token, '/up/dir'), ['inner.txt']);
    await clean();
  });

  it('a body shorter than its Content-Length (then the client disconnects) leaves no file', async () => {
    const before = await capacity(api, alice.token);
    const res = await rawRequest(
      server,
      { method: 'PUT', path: `/api/v4/file/content?path=${q('/up/short.bin')}`, headers: { authorization: `Bearer ${alice.token}`, 'content-length': '1000' } },
      (req) => {
        req.write(Buffer.alloc(400, 1));
        setTimeout(() => req.destroy(), 150);
      },
    );
    assert.equal(res.status, null, 'the client hung up');
    await waitFor(async () => (await storageCounts(server)).uploads === 0);
    assert.equal((await api.get(`/api/v4/file/info?path=${q('/up/short.bin')}`, { token: alice.token })).status, 404);
    assert.deepEqual(await capacity(api, alice.token), before, 'the reservation was released');
    await clean();
  });

  it('a client that disconnects mid-upload of a large chunked body leaves nothing', async () => {
    const res = await rawRequest(
      server,
      { method: 'PUT', path: `/api/v4/file/content?path=${q('/up/cut.bin')}`, headers: { authorization: `Bearer ${alice.token}`, 'transfer-encoding': 'chunked' } },
      (req) => {
        for (let i = 0; i < 40; i++) req.write(Buffer.alloc(256 * 1024, i));
        setTimeout(() => req.destroy(), 300);
      },
    );
    assert.equal(res.status, null);
    await waitFor(async () => (await storageCounts(server)).uploads === 0);
    assert.equal((await api.get(`/api/v4/file/info?path=${q('/up/cut.bin')}`, { token: alice.token })).status, 404);
    await clean();
  });

  it('a stalled client is cut off after the idle timeout, and nothing is left', async () => {
    const uploads = server.built.services.files.uploads;
    const saved = uploads.options.idleTimeoutMs;
    uploads.options.idleTimeoutMs = 300;
    try {
      const res = await rawRequest(
        server,
        { method: 'PUT', path: `/api/v4/file/content?path=${q('/up/stalled.bin')}`, headers: { authorization: `Bearer ${alice.token}`, 'content-length': '100' } },
        (req) => req.write(Buffer.alloc(10)),
      );
      assert.ok(res.status === 408 || res.status === null, `cut off, got ${res.status}`);
    } finally {
      uploads.options.idleTimeoutMs = saved;
    }
    await waitFor(async () => (await storageCounts(server)).uploads === 0);
    assert.equal((await api.get(`/api/v4/file/info?path=${q('/up/stalled.bin')}`, { token: alice.token })).status, 404);
    await clean();
  });

  it('over quota: a declared length is refused up front with 413/40049; a chunked body is stopped', async () => {
    const bob = await newUser(api, admin);
    await setQuota(bob, 1000);
    const declared = await put(api, bob.token, '/too-big.bin', Buffer.alloc(1001));
    assert.equal(declared.status, 413);
    assert.equal(declared.body.code, 40049);
    assert.equal((await put(api, bob.token, '/fits.bin', Buffer.alloc(600))).status, 200);
    const chunked = await fetch(`${server.url}/api/v4/file/content?path=${q('/chunked-too-big.bin')}`, {
      method: 'PUT', headers: { authorization: `Bearer ${bob.token}` },
      body: Readable.toWeb(Readable.from([Buffer.alloc(300), Buffer.alloc(300)])) as ReadableStream, duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.equal(((await chunked.json()) as { code: number }).code, 40049);
    await waitFor(async () => (await storageCounts(server)).uploads === 0);
    assert.deepEqual(await names(api, bob.token, '/'), ['fits.bin']);
    assert.deepEqual(await capacity(api, bob.token), { used: 600, total: 1000, versions: 0, reserved: 0 });
    await clean();
  });

  it('concurrent uploads can never push a user over the quota', async () => {
    const carol = await newUser(api, admin);
    await setQuota(carol, 10_000);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => put(api, carol.token, `/c${i}.bin`, Buffer.alloc(3000, i))));
    const ok = results.filter((r) => r.status === 200).length;
    assert.equal(ok, 3, results.map((r) => r.status).join(','));
    assert.ok(results.every((r) => r.status === 200 || r.body.code === 40049));
    assert.deepEqual(await capacity(api, carol.token), { used: 9000, total: 10_000, versions: 0, reserved: 0 });
    await clean();
  });

  it('concurrent uploads to one path end with one complete winner, never a mix', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => Buffer.alloc(512 * 1024 + i, 65 + i));
    const results = await Promise.all(bodies.map((b) => put(api, alice.token, '/race/target.bin', b)));
    assert.ok(results.every((r) => r.status === 200), results.map((r) => r.text).join('\n'));
    assert.equal(new Set(results.map((r) => r.body.data.id)).size, 1, 'one file row');
    const final = (await download(api, alice.token, '/race/target.bin')).body;
    assert.ok(bodies.some((b) => b.equals(final)), 'the content is exactly one of the uploads');
    assert.deepEqual(await names(api, alice.token, '/race'), ['target.bin']);
    // Only the winner's blob remains among this folder's versions.
    await clean();
  });

  it('quota reflects overwrites and the capacity route reports used and total', async () => {
    const dave = await newUser(api, admin);
    await put(api, dave.token, '/x', Buffer.alloc(100));
    await put(api, dave.token, '/x', Buffer.alloc(40));
    const cap = await capacity(api, dave.token);
    // The replaced 100 bytes are kept as a version (issue 21) and still count; capacity says how much are versions.
    assert.equal(cap.used, 140);
    assert.equal(cap.versions, 100);
    assert.equal(cap.total, 10 * 1024 ** 3, 'the group quota of Users');
    await setQuota(dave, 5000);
    assert.equal((await capacity(api, dave.token)).total, 5000, 'a per-user override wins');
  });

  it("deleting a user removes their files and their blobs", async () => {
    const erin = await newUser(api, admin);
    const before = (await storageCounts(server)).blobs;
    await put(api, erin.token, '/a.bin', Buffer.alloc(10, 1));
    await put(api, erin.token, '/b/c.bin', Buffer.alloc(10, 2));
    assert.equal((await storageCounts(server)).blobs, before + 2);
    const del = await api.delete(`/api/v4/admin/user/${erin.id}`, undefined, { token: admin });
    assert.equal(del.status, 200, del.text);
    assert.equal((await storageCounts(server)).blobs, before);
    const rows = await server.built.services.db.selectFrom('files').select('id').where('owner_id', '=', erin.id).execute();
    assert.equal(rows.length, 0);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type { FileView };
