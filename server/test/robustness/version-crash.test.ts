// Versions survive kill -9 (issue 21). A real server process is killed with
// SIGKILL while a PUT overwrites a file, at staggered moments: midway through
// the body, right after its last byte (the blob being committed, the
// transaction that swaps the content and makes the version), and a little
// later. After a restart on the same data directory and database, exactly one
// of two states holds, never a mix: the old content is current and there is
// no new version, or the new content is current and the old content is a
// version with its exact bytes. The quota counts exactly what exists.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { ChildSite, sleep, waitFor } from './child-server.js';

const MiB = 1024 * 1024;
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
    const req = httpRequest(new URL(`/api/v4/file/content?path=${encodeURIComponent(path)}`, site.url), {
      method: 'PUT',
      agent: false,
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream', 'content-length': String(data.length) },
    });
    const done = new Promise<void>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
    });
    for (let at = 0; at < sent; at += 256 * 1024) {
      if (!req.write(data.subarray(at, Math.min(sent, at + 256 * 1024)))) await new Promise((r) => req.once('drain', r));
    }
    if (sent === data.length) req.end();
    await sleep(delayMs);
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
    const moments: [number, number][] = [[0.5, 50], [1, 0], [1, 5], [1, 15], [1, 40], [1, 100], [1, 300]];
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
        outcomes.push(`${fraction}/${delay}ms: new current, old a version`);
        previous = next;
      } else {
        assert.equal(sha(current), sha(previous), 'otherwise the old content is still current, whole');
        assert.deepEqual(list.map((v) => v.id), versionsBefore.data.map((v) => v.id), 'and no version was added');
        outcomes.push(`${fraction}/${delay}ms: old current, nothing new`);
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
    assert.ok(outcomes.some((o) => o.includes('old current')), 'a kill midway keeps the old content');
  });
});
