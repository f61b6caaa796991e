// Uploads survive a crash (issue 11, defects 3 and 4). A real server process
// is killed with SIGKILL at the worst moments and started again on the same
// data directory and database:
//  - inside the finish window of a tus upload (every byte received and
//    recorded, the file not yet placed): HEAD must never say complete while
//    the file does not exist, the restarted instance completes the upload, and
//    a retried empty PATCH never answers 500. On PostgreSQL the window is held
//    open deterministically by locking the owner's storage_usage row from a
//    second connection (the finishing transaction waits on it, then the
//    process is killed); on SQLite (one writer lock for everything) the kill
//    lands at staggered points around the finish, and the same rules are
//    checked for every upload whatever state it was caught in.
//  - in the middle of a streamed PUT and of a long tus PATCH: the PUT's quota
//    reservation and staging data are reclaimed within seconds by the
//    restarted process; the PATCH's progress was recorded while it ran (a
//    resume loses at most a few MiB), and its write lock is taken over within
//    seconds instead of minutes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { ChildSite, waitFor } from './child-server.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Starts a raw request whose body the test writes (and may never finish). */
function openRequest(url: string, method: string, path: string, headers: Record<string, string>): { req: ClientRequest; done: Promise<number | null> } {
  const req = httpRequest(new URL(path, url), { method, headers, agent: false });
  const done = new Promise<number | null>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
  });
  return { req, done };
}

describe('uploads survive kill -9', () => {
  const site = new ChildSite();
  let api: Api;
  let alice: { id: string; token: string };

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
    fetch(site.url + path, { method, headers: { authorization: `Bearer ${alice.token}`, ...headers }, body: body as BodyInit | undefined });

  async function createTus(path: string, length: number): Promise<string> {
    const res = await call('POST', '/api/v4/file/upload', { ...TUS, 'upload-length': String(length), 'upload-metadata': `path ${b64(path)}` });
    assert.equal(res.status, 201, await res.text());
    return res.headers.get('location')!;
  }

  async function download(path: string): Promise<{ status: number; body: Buffer }> {
    const res = await call('GET', `/api/v4/file/content?path=${encodeURIComponent(path)}`);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  }

  /** HEAD, answered 423 while the dead process's lock is not yet free: retried like tus-js-client does. */
  async function headSettled(location: string): Promise<Response> {
    return waitFor(`HEAD ${location} not locked`, 45_000, async () => {
      const res = await call('HEAD', location, TUS);
      return res.status === 423 ? undefined : res;
    });
  }

  /** The rules after a crash: never "complete" without the file, never 500, and the file ends up whole. */
  async function checkRecovered(location: string, path: string, data: Buffer): Promise<'finished-by-head' | 'finished-before' | 'resumed'> {
    const head = await headSettled(location);
    let outcome: 'finished-by-head' | 'finished-before' | 'resumed';
    if (head.status === 200 && Number(head.headers.get('upload-offset')) === data.length) {
      const file = await download(path);
      assert.equal(file.status, 200, `HEAD says complete, so ${path} must exist`);
      assert.equal(sha(file.body), sha(data), 'and hold every byte');
      outcome = 'finished-by-head';
    } else if (head.status === 404) {
      const file = await download(path);
      assert.equal(file.status, 200, `the upload is gone, so ${path} must have been placed`);
      assert.equal(sha(file.body), sha(data));
      outcome = 'finished-before';
    } else {
      assert.equal(head.status, 200, `HEAD ${head.status}`);
      const offset = Number(head.headers.get('upload-offset'));
      assert.ok(offset < data.length);
      const res = await waitFor('PATCH not locked', 45_000, async () => {
        const r = await call('PATCH', location, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, data.subarray(offset));
        return r.status === 423 ? undefined : r;
      });
      assert.equal(res.status, 204, await res.text());
      outcome = 'resumed';
    }
    // A client that lost the answer retries its last (empty) PATCH: never a 500.
    const retry = await call('PATCH', location, { ...TUS, 'upload-offset': String(data.length), 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(0));
    assert.ok(retry.status === 204 || retry.status === 404, `retried empty PATCH: ${retry.status} ${await retry.text()}`);
    const file = await download(path);
    assert.equal(file.status, 200);
    assert.equal(sha(file.body), sha(data), `${path} is whole`);
    return outcome;
  }

  before(async () => {
    await site.init();
    await site.start();
    api = new Api(site.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const a = await createUser(api, admin, 'crash-alice@example.com');
    alice = { id: a.user.id, token: a.token.access_token };
  });
  after(() => site.close());

  it('tus: a crash inside the finish window never leaves HEAD saying complete for a missing file; the restart completes it', async () => {
    const data = randomBytes(MiB + 123);
    if (site.dialect === 'postgres') {
      const location = await createTus('/crash/window.bin', data.length);
      const uploadId = location.split('/').pop()!;
      // Hold the row every finishing transaction locks first; the PATCH then waits inside the window.
      const holder = await site.pgConnection();
      await holder.query('BEGIN');
      await holder.query('SELECT used FROM storage_usage WHERE user_id = $1 FOR UPDATE', [alice.id]);
      const { req, done } = openRequest(site.url, 'PATCH', location, {
        authorization: `Bearer ${alice.token}`, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length),
      });
      req.end(data);
      await waitFor('the finishing transaction to wait on the lock', 20_000, async () => {
        const rows = await site.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return Number(rows[0]!.n) > 0 ? true : undefined;
      });
      await site.kill9();
      await holder.query('ROLLBACK');
      await holder.end();
      assert.equal(await done, null, 'the PATCH got no answer: the process died');
      // The state the crash left: every byte recorded, no file.
      const [row] = await site.query<{ upload_offset: string; length: string }>('SELECT upload_offset, length FROM uploads WHERE id = ?', [uploadId]);
      assert.ok(row, 'the upload row is still there');
      assert.equal(Number(row.upload_offset), data.length, 'the crash hit the finish window: every byte recorded');
      const files = await site.query<{ n: string }>("SELECT count(*) AS n FROM files WHERE name = 'window.bin'");
      assert.equal(Number(files[0]!.n), 0, 'and the file was not placed');
      await site.start();
      const outcome = await checkRecovered(location, '/crash/window.bin', data);
      console.log(`finish-window crash (postgres): recovered as ${outcome}`);
      return;
    }
    // SQLite has one write lock for everything, taken by the progress record too, so the
    // window is caught instead: watch for the recorded last byte, take the write lock at
    // once (the finishing transaction then waits for it), check the file is not placed, kill.
    const writer = site.sqliteWriter();
    const reader = site.sqliteReader();
    try {
      for (let attempt = 1; attempt <= 10; attempt++) {
        const path = `/crash/window-${attempt}.bin`;
        const location = await createTus(path, data.length);
        const uploadId = location.split('/').pop()!;
        const { req, done } = openRequest(site.url, 'PATCH', location, {
          authorization: `Bearer ${alice.token}`, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length),
        });
        await new Promise<void>((resolve) => req.end(data, resolve));
        const row = reader.prepare('SELECT upload_offset, length FROM uploads WHERE id = ?');
        const deadline = Date.now() + 10_000;
        let locked = false;
        while (Date.now() < deadline) {
          const r = row.get(uploadId) as { upload_offset: number; length: number } | undefined;
          if (!r) break;
          if (r.upload_offset === r.length) {
            try {
              writer.exec('BEGIN IMMEDIATE');
              locked = true;
            } catch {
              /* the server is writing: missed */
            }
            break;
          }
        }
        const placed = Number((writer.prepare('SELECT count(*) AS n FROM files WHERE name = ?').get(path.slice(7)) as { n: number }).n) > 0;
        if (!locked || placed) {
          if (locked) writer.exec('ROLLBACK');
          await done;
          continue;
        }
        await site.kill9();
        writer.exec('ROLLBACK');
        assert.equal(await done, null, 'the PATCH got no answer: the process died');
        await site.start();
        const outcome = await checkRecovered(location, path, data);
        console.log(`finish-window crash (sqlite): caught at attempt ${attempt}, recovered as ${outcome}`);
        return;
      }
      assert.fail('the finish window was never caught in 10 attempts');
    } finally {
      writer.close();
      reader.close();
    }
  });

  it('a dead PUT\'s reservation and staging data, and a dead PATCH\'s lock, are reclaimed within seconds; PATCH progress was recorded as it ran', async () => {
    const reservedOf = async () => Number((await site.query<{ reserved: string }>('SELECT reserved FROM storage_usage WHERE user_id = ?', [alice.id]))[0]!.reserved);
    const baseReserved = await reservedOf();
    const stagingBefore = site.stagingCount();
    // A streamed PUT that declared 8 MiB and sent 1 MiB.
    const put = openRequest(site.url, 'PUT', `/api/v4/file/content?path=${encodeURIComponent('/crash/put.bin')}`, {
      authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream', 'content-length': String(8 * MiB),
    });
    put.req.write(randomBytes(MiB));
    // A tus PATCH of 20 MiB that sent 10 MiB.
    const data = randomBytes(20 * MiB);
    const location = await createTus('/crash/long.bin', data.length);
    const uploadId = location.split('/').pop()!;
    const patch = openRequest(site.url, 'PATCH', location, {
      authorization: `Bearer ${alice.token}`, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length),
    });
    patch.req.write(data.subarray(0, 10 * MiB));
    await waitFor('the PUT to reserve its 8 MiB', 20_000, async () => ((await reservedOf()) === baseReserved + 28 * MiB ? true : undefined));
    // Checked at the end, so that every other rule is still tried when this one fails.
    const recorded = await waitFor('PATCH progress recorded while it runs', 20_000, async () => {
      const [row] = await site.query<{ upload_offset: string }>('SELECT upload_offset FROM uploads WHERE id = ?', [uploadId]);
      return Number(row!.upload_offset) >= 8 * MiB ? Number(row!.upload_offset) : undefined;
    }).catch(() => 0);
    assert.equal(site.stagingCount(), stagingBefore + 2, 'both have staging data');
    await site.kill9();
    await Promise.all([put.done, patch.done]);
    const restarted = Date.now();
    await site.start();

    // The PUT: reservation and staging data given back.
    await waitFor('the dead PUT to be reclaimed', 30_000, async () =>
      (await reservedOf()) === baseReserved + 20 * MiB && site.stagingCount() === stagingBefore + 1 ? true : undefined,
    );
    const reclaimedAfter = (Date.now() - restarted) / 1000;

    // The PATCH: resumes from what was recorded, as soon as the dead lock is free.
    const head = await headSettled(location);
    assert.equal(head.status, 200);
    const offset = Number(head.headers.get('upload-offset'));
    assert.ok(offset >= recorded && offset <= 10 * MiB, `resumes from ${offset} (recorded ${recorded})`);
    assert.ok(recorded >= 8 * MiB, `progress was recorded during the PATCH (${recorded} bytes of 10 MiB sent)`);
    const resumed = await waitFor('the dead PATCH lock to be free', 30_000, async () => {
      const r = await call('PATCH', location, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, data.subarray(offset));
      return r.status === 423 ? undefined : r;
    });
    const lockFreeAfter = (Date.now() - restarted) / 1000;
    assert.equal(resumed.status, 204, await resumed.text());
    const file = await download('/crash/long.bin');
    assert.equal(sha(file.body), sha(data));
    assert.equal(await reservedOf(), baseReserved, 'no reservation left behind');
    console.log(
      `crash mid-transfer (${site.dialect}): PUT reclaimed ${reclaimedAfter.toFixed(1)} s after restart; PATCH resumed at ${(offset / MiB).toFixed(1)} MiB of 10 MiB sent, lock free ${lockFreeAfter.toFixed(1)} s after restart`,
    );
  });
});
