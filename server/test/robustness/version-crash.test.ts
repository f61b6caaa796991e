// Versions survive kill -9 (issue 21). A real server process is killed with
// SIGKILL while a PUT overwrites a file, at staggered moments: midway through
// the body, right after its last byte (the blob being committed, the
// transaction that swaps the content and makes the version), a little later,
// and after the answer; on PostgreSQL also deterministically inside the swap's
// transaction (held on a row lock from a second connection). After a restart on the same data directory and database, exactly one
// of two states holds, never a mix: the old content is current and there is
// no new version, or the new content is current and the old content is a
// version with its exact bytes. The quota counts exactly what exists.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Api, createUser, signIn } from '../helpers/client.js';
import { openPut } from '../files/helpers.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { ChildSite, sleep, waitFor } from './child-server.js';

const MiB = 1024 * 1024;
/** Kill once the PUT was answered (the swap committed). */
const AFTER_ANSWER = -1;
/** Kill while the swap's transaction waits on a held row lock (PostgreSQL only). */
const HOLD = -2;
const label = (delay: number) => (delay === AFTER_ANSWER ? 'after the answer' : delay === HOLD ? 'inside the swap' : `${delay} ms`);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Version {
  id: string;
  size: number;
  current: boolean;
}

describe('versions survive kill -9 during an overwrite', () => {
  const site = new ChildSite();
  let alice: { id: string; token: string };

  const call = (path: string, init: RequestInit = {}) => fetch(site.url + path, { ...init, headers: { authorization: `Bearer ${alice.token}`, ...(init.headers ?? {}) } });
  const bytesOf = async (path: string) => Buffer.from(await (await call(path)).arrayBuffer());

  before(async () => {
    await site.init();
    await site.start();
    const api = new Api(site.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const a = await createUser(api, admin, 'version-crash@example.com');
    alice = { id: a.user.id, token: a.token.access_token };
  });
  after(() => site.close());

  /** Starts a PUT of `data` (sent in 256 KiB pieces) and kills the server once `sent` bytes are out plus `delayMs`. */
  async function putAndKill(path: string, data: Buffer, sent: number, delayMs: number): Promise<void> {
    const { req, status: done } = openPut(site.url, alice.token, path, data.length, Buffer.alloc(0));
    const write = async (from: number, to: number) => {
      for (let at = from; at < to; at += 256 * 1024) {
        if (!req.write(data.subarray(at, Math.min(to, at + 256 * 1024)))) await new Promise((r) => req.once('drain', r));
      }
    };
    if (delayMs === HOLD) {
      // PostgreSQL: the finishing transaction's first step locks the owner's storage_usage row; hold it from
      // a second connection once the upload has begun, so the kill lands exactly inside the swap's window.
      await write(0, data.length >> 1);
      // The half may still sit in socket buffers: wait for the upload's reservation (its row), else the
      // server would reserve after the lock below is taken and wait on it while the test waits on it to read.
      await waitFor('the upload to begin', 30_000, async () => {
        const rows = await site.query<{ n: string }>('SELECT count(*) AS n FROM uploads WHERE owner_id = ?', [alice.id]);
        return Number(rows[0]!.n) > 0 ? true : undefined;
      });
      const holder = await site.pgConnection();
      await holder.query('BEGIN');
      await holder.query('SELECT used FROM storage_usage WHERE user_id = $1 FOR UPDATE', [alice.id]);
      await write(data.length >> 1, data.length);
      req.end();
      await waitFor('the swap to wait on the lock', 30_000, async () => {
        const rows = await site.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        return Number(rows[0]!.n) > 0 ? true : undefined;
      });
      await site.kill9();
      await holder.query('ROLLBACK');
      await holder.end();
      req.destroy();
      await done;
      return;
    }
    await write(0, sent);
    if (sent === data.length) req.end();
    if (delayMs === AFTER_ANSWER) await done;
    else await sleep(delayMs);
    await site.kill9();
    req.destroy();
    await done;
  }

  it('at every moment of an overwrite: old current and no new version, or new current and the old one a version', async () => {
    const outcomes: string[] = [];
    let previous = randomBytes(MiB + 17);
    const path = '/crash/doc.bin';
    assert.equal((await call(`/api/v4/file/content?path=${encodeURIComponent(path)}`, { method: 'PUT', body: previous })).status, 200);
    // Midway through the body, then at and after its last byte (on SQLite the finish takes a few ms on a quiet machine).
    const moments: [number, number][] = [[0.5, 50], [1, 0], [1, 5], [1, 15], [1, 40], [1, 100], [1, 300], [1, AFTER_ANSWER]];
    if (site.dialect === 'postgres') moments.push([1, HOLD]);
    for (const [fraction, delay] of moments) {
      const next = randomBytes(4 * MiB + Math.floor(Math.random() * 1000));
      const versionsBefore = await (await call(`/api/v4/file/versions?path=${encodeURIComponent(path)}`)).json() as { data: Version[] };
      await putAndKill(path, next, Math.floor(next.length * fraction), delay);
      await site.start();
      // The dead process's PUT lease is reclaimed by the restarted one within seconds (its reservation released).
      await waitFor('the lease of the killed PUT to be reclaimed', 30_000, async () => {
        const rows = await site.query<{ n: string }>('SELECT count(*) AS n FROM uploads WHERE owner_id = ?', [alice.id]);
        return Number(rows[0]!.n) === 0 ? true : undefined;
      });
      const current = await bytesOf(`/api/v4/file/content?path=${encodeURIComponent(path)}`);
      const list = ((await (await call(`/api/v4/file/versions?path=${encodeURIComponent(path)}`)).json()) as { data: Version[] }).data;
      if (sha(current) === sha(next)) {
        // The new content is current: the old one must be the newest version, byte for byte.
        assert.equal(list.length, versionsBefore.data.length + 1, 'one new version');
        const old = await bytesOf(`/api/v4/file/versions/${list[1]!.id}/content`);
        assert.equal(sha(old), sha(previous), 'the old content is a version with its exact bytes');
        outcomes.push(`${fraction}/${label(delay)}: new current, old a version`);
        previous = next;
      } else {
        assert.equal(sha(current), sha(previous), 'otherwise the old content is still current, whole');
        assert.deepEqual(list.map((v) => v.id), versionsBefore.data.map((v) => v.id), 'and no version was added');
        outcomes.push(`${fraction}/${label(delay)}: old current, nothing new`);
      }
      // The quota counts exactly the current content and the versions; nothing is left reserved.
      const sizes = list.reduce((n, v) => n + v.size, 0);
      const [usage] = await site.query<{ used: string; reserved: string }>('SELECT used, reserved FROM storage_usage WHERE user_id = ?', [alice.id]);
      assert.equal(Number(usage!.used), sizes, 'used = current + versions');
      assert.equal(Number(usage!.reserved), 0, 'no reservation left');
      const cap = ((await (await call('/api/v4/user/capacity')).json()) as { data: { used: number; versions: number } }).data;
      assert.equal(cap.versions, sizes - current.length);
    }
    console.log(`kill -9 during overwrites (${site.dialect}): ${outcomes.join('; ')}`);
    assert.ok(outcomes[0]!.includes('old current'), 'a kill midway through the body keeps the old content');
    assert.ok(outcomes[7]!.includes('new current'), 'a kill after the answer keeps the new content and the old one as a version');
    if (site.dialect === 'postgres') assert.ok(outcomes[8]!.includes('old current'), 'a kill inside the swap (never committed) keeps the old content');
  });
});
