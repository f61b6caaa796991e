// Issue 19, item 8: whole-subtree deletes and copies run in bounded batches
// (tree-batches.ts), here 40 rows per transaction so a 223-row tree takes
// several. Not timed: these check that the batched operations give exactly
// the results of one big transaction (rows, quota, blob references, trash),
// and that a crash between batches leaves a consistent tree that the
// tree_pending job finishes.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { SimulatedCrash } from '../../src/files/tree-batches.js';
import { adminToken, capacity, download, names, newUser, put, q, storageCounts, type FileView, type Person } from './helpers.js';

type Batch = { results: { path: string; code: number; msg: string; file?: FileView }[] };

describe('tree operations in bounded batches (issue 19 item 8)', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  const clock = new ManualClock();
  /** Bytes of everything under /big. */
  let bigBytes = 0;
  const FOLDERS = 6;
  const SUBS = 6;
  const FILES = 5;
  const BIG_ROWS = 1 + FOLDERS + FOLDERS * SUBS + FOLDERS * SUBS * FILES;

  const batches = () => server.built.services.files.files.tree.batches;
  const db = () => server.built.services.db;

  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    alice = await newUser(api, await adminToken(api));
    for (let a = 0; a < FOLDERS; a++) {
      for (let b = 0; b < SUBS; b++) {
        for (let c = 0; c < FILES; c++) {
          const body = `file ${a}/${b}/${c} `.repeat(1 + c);
          bigBytes += Buffer.byteLength(body);
          assert.equal((await put(api, alice.token, `/big/a${a}/b${b}/f${c}.txt`, body)).status, 200);
        }
      }
    }
    batches().options.rows = 40;
  });
  beforeEach(() => {
    batches().options.afterBatch = undefined;
  });

  after(() => server.close());

  const move = (paths: string[], dst: string, copy = false) => api.post<Batch>('/api/v4/file/move', { paths, dst, copy }, { token: alice.token });
  const remove = (paths: string[], permanent: boolean) => api.call<Batch>('DELETE', '/api/v4/file', { token: alice.token, json: { paths, permanent } });
  const trash = async () => (await api.get<{ files: (FileView & { original_path: string })[] }>('/api/v4/file/trash?page_size=1000', { token: alice.token })).body.data.files;
  const info = (path: string) => api.get<FileView>(`/api/v4/file/info?path=${q(path)}`, { token: alice.token });

  /** Rows, bytes and pending roots of alice's tree, straight from the database. */
  async function rows() {
    const all = await db().selectFrom('files').select(['id', 'kind', 'size', 'pending', 'parent_id']).where('owner_id', '=', alice.id).execute();
    return {
      count: all.length,
      bytes: all.filter((r) => r.kind === 1).reduce((n, r) => n + Number(r.size), 0),
      pending: all.filter((r) => r.pending !== 0).map((r) => r.pending),
    };
  }

  /**
   * What must hold after every commit: `used` is exactly the bytes of the
   * owner's rows (trash and hidden rows included), every blob's ref_count
   * is the number of rows pointing at it, and every parent exists.
   */
  async function assertConsistent(): Promise<void> {
    const r = await rows();
    const usage = await db().selectFrom('storage_usage').select(['used', 'reserved']).where('user_id', '=', alice.id).executeTakeFirstOrThrow();
    assert.equal(Number(usage.used), r.bytes, 'used = bytes of the rows');
    assert.equal(Number(usage.reserved), 0);
    const refs = await db()
      .selectFrom('blobs')
      .leftJoin('files', 'files.blob_id', 'blobs.id')
      .select(['blobs.id', 'blobs.ref_count', (eb) => eb.fn.count<number>('files.id').as('n')])
      .groupBy(['blobs.id', 'blobs.ref_count'])
      .execute();
    for (const b of refs) assert.equal(Number(b.ref_count), Number(b.n), `ref_count of blob ${b.id}`);
    const orphans = await db()
      .selectFrom('files as f')
      .leftJoin('files as p', 'p.id', 'f.parent_id')
      .select('f.id')
      .where('f.parent_id', 'is not', null)
      .where('p.id', 'is', null)
      .execute();
    assert.deepEqual(orphans, []);
  }

  it('a batched copy has every row, byte and reference of the source; quota charged exactly; nothing pending', async () => {
    const before = await rows();
    const used = (await capacity(api, alice.token)).used;
    const res = await move(['/big'], '/copies', true).catch(() => null);
    // /copies does not exist yet: 404, nothing built.
    assert.equal(res?.status, 404);
    assert.equal((await api.post('/api/v4/file/create', { path: '/copies', type: 'folder' }, { token: alice.token })).status, 200);
    const ok = await move(['/big'], '/copies', true);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.data.results[0]!.file!.path, '/copies/big');
    const after = await rows();
    assert.equal(after.count, before.count + 1 + BIG_ROWS);
    assert.deepEqual(after.pending, []);
    assert.equal((await capacity(api, alice.token)).used, used + bigBytes);
    assert.deepEqual(await names(api, alice.token, '/copies/big'), Array.from({ length: FOLDERS }, (_, i) => `a${i}`));
    assert.deepEqual(await names(api, alice.token, '/copies/big/a5/b5'), Array.from({ length: FILES }, (_, i) => `f${i}.txt`));
    assert.equal((await download(api, alice.token, '/copies/big/a5/b5/f4.txt')).body.toString(), 'file 5/5/4 '.repeat(5));
    await assertConsistent();
  });

  it('a batched permanent delete removes every row and byte; shared blobs keep their other references', async () => {
    const before = await rows();
    const used = (await capacity(api, alice.token)).used;
    const res = await remove(['/copies/big'], true);
    assert.equal(res.status, 200, res.text);
    assert.equal((await info('/copies/big')).status, 404);
    const after = await rows();
    assert.equal(after.count, before.count - BIG_ROWS);
    assert.deepEqual(after.pending, []);
    assert.equal((await capacity(api, alice.token)).used, used - bigBytes);
    // The source's bytes are still there (the blobs were shared).
    assert.equal((await download(api, alice.token, '/big/a0/b0/f0.txt')).body.toString(), 'file 0/0/0 ');
    assert.equal((await trash()).length, 0);
    await assertConsistent();
  });

  it('trash, then empty the trash: batched; the quota drops exactly and the blobs are collected', async () => {
    assert.equal((await move(['/big'], '/copies', true)).status, 200);
    assert.equal((await remove(['/copies/big'], false)).status, 200);
    const listed = await trash();
    assert.deepEqual(listed.map((f) => f.original_path), ['/copies/big']);
    const used = (await capacity(api, alice.token)).used;
    const blobsBefore = (await storageCounts(server)).blobs;
    const emptied = await api.call<{ deleted: number }>('DELETE', '/api/v4/file/trash', { token: alice.token });
    assert.equal(emptied.status, 200, emptied.text);
    assert.equal(emptied.body.data.deleted, 1);
    assert.equal((await capacity(api, alice.token)).used, used - bigBytes);
    assert.deepEqual(await trash(), []);
    // Shared with /big: no blob lost its last reference.
    assert.equal((await storageCounts(server)).blobs, blobsBefore);
    await assertConsistent();
    // Deleting /big itself for good from the trash frees its blobs.
    assert.equal((await remove(['/big'], false)).status, 200);
    const id = (await trash())[0]!.id;
    assert.equal((await api.post('/api/v4/file/trash/delete', { ids: [id] }, { token: alice.token })).status, 200);
    assert.equal((await capacity(api, alice.token)).used, used - 2 * bigBytes);
    assert.equal((await storageCounts(server)).blobs, blobsBefore - FOLDERS * SUBS * FILES);
    await assertConsistent();
  });

  it('a crash between delete batches: the item is gone from its path and the trash, the counters match the rows left, and the job finishes it', async () => {
    for (let c = 0; c < 60; c++) assert.equal((await put(api, alice.token, `/doomed/d${c % 3}/f${c}.txt`, `doomed ${c}`)).status, 200);
    const baseline = await rows();
    const doomedBytes = Array.from({ length: 60 }, (_, c) => Buffer.byteLength(`doomed ${c}`)).reduce((a, b) => a + b, 0);
    const blobsBefore = (await storageCounts(server)).blobs;
    batches().options.afterBatch = (op, n) => {
      if (op === 'purge' && n === 0) throw new SimulatedCrash('crash after the first batch');
    };
    const res = await remove(['/doomed'], true);
    assert.equal(res.status, 500);
    batches().options.afterBatch = undefined;
    // Mid-way: unreachable, not in the trash, 40 rows gone, the rest pending under the marked root.
    assert.equal((await info('/doomed')).status, 404);
    assert.deepEqual(await trash(), []);
    const mid = await rows();
    assert.equal(mid.count, baseline.count - 40);
    assert.deepEqual(mid.pending, [1]);
    await assertConsistent();
    // The job leaves a deletion that may still be running alone; one untouched for five minutes it finishes.
    await server.built.services.jobs.run('tree_pending');
    assert.equal((await rows()).count, baseline.count - 40);
    clock.advance(6 * 60_000);
    await server.built.services.jobs.run('tree_pending');
    const done = await rows();
    assert.equal(done.count, baseline.count - 64);
    assert.equal(done.bytes, baseline.bytes - doomedBytes);
    assert.deepEqual(done.pending, []);
    assert.equal((await storageCounts(server)).blobs, blobsBefore - 60);
    assert.equal(server.built.services.jobs.states().find((j) => j.name === 'tree_pending')?.failing_for, 0);
    await assertConsistent();
  });

  it('a crash between copy batches: nothing appears at the destination, the counters match, and the job removes the abandoned copy once stale (5 minutes untouched)', async () => {
    for (let c = 0; c < 60; c++) assert.equal((await put(api, alice.token, `/src/s${c % 4}/f${c}.txt`, `source ${c}`)).status, 200);
    const baseline = await rows();
    const used = (await capacity(api, alice.token)).used;
    batches().options.afterBatch = (op, n) => {
      if (op === 'copy' && n === 0) throw new SimulatedCrash('crash after the first batch');
    };
    const res = await move(['/src'], '/copies', true);
    assert.equal(res.status, 500);
    batches().options.afterBatch = undefined;
    assert.deepEqual(await names(api, alice.token, '/copies'), []);
    assert.deepEqual(await trash(), []);
    const mid = await rows();
    assert.equal(mid.count, baseline.count + 40);
    assert.deepEqual(mid.pending, [2]);
    // The hidden rows are charged like any rows (exact), and show nowhere.
    assert.equal((await capacity(api, alice.token)).used, mid.bytes);
    await assertConsistent();
    // A builder may still be at work: the job leaves a fresh copy alone...
    await server.built.services.jobs.run('tree_pending');
    assert.equal((await rows()).count, baseline.count + 40);
    // ...and removes one untouched for five minutes.
    clock.advance(6 * 60_000);
    await server.built.services.jobs.run('tree_pending');
    const done = await rows();
    assert.equal(done.count, baseline.count);
    assert.deepEqual(done.pending, []);
    assert.equal((await capacity(api, alice.token)).used, used);
    await assertConsistent();
  });

  it('a copy whose destination is removed while it is built fails with 409 and leaves nothing behind', async () => {
    assert.equal((await api.post('/api/v4/file/create', { path: '/gone-soon', type: 'folder' }, { token: alice.token })).status, 200);
    const baseline = await rows();
    const used = (await capacity(api, alice.token)).used;
    batches().options.afterBatch = async (op, n) => {
      if (op === 'copy' && n === 0) assert.equal((await remove(['/gone-soon'], true)).status, 200);
    };
    const res = await move(['/src'], '/gone-soon', true);
    batches().options.afterBatch = undefined;
    assert.equal(res.status, 409, res.text);
    assert.match(res.body.msg, /destination folder was removed/);
    const after = await rows();
    assert.equal(after.count, baseline.count - 1);
    assert.deepEqual(after.pending, []);
    assert.equal((await capacity(api, alice.token)).used, used);
    await assertConsistent();
  });
});
