// A file larger than the clients' chunk size (10 MB), api-contract §14: both
// real clients send it in chunks under /remote.php/dav/uploads/ (MKCOL, chunk
// PUTs, MOVE .file), seen through a logging proxy; it comes down to a second
// folder byte for byte, and no chunk is left in the database or the store.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { storageCounts } from '../files/helpers.js';
import { davPerson } from '../webdav/helpers.js';
import { hasTool, loggingProxy, runClient, type ClientKind } from './helpers.js';

const missing = (tool: string): string | false => (hasTool(tool) ? false : `${tool} missing (.ci/run installs it)`);

describe('sync clients: a 25 MB file', { timeout: 600_000 }, () => {
  let server: TestServer;
  let work: string;
  before(async () => {
    server = await startServer();
    work = mkdtempSync(path.join(tmpdir(), 'cirrus-big-'));
  });
  after(async () => {
    const started = Date.now();
    await server?.close();
    // The server closed at once: no connection was left waiting on a body nobody reads.
    assert.ok(Date.now() - started < 10_000, `closing the server took ${Date.now() - started} ms`);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const count = async (table: 'sync_transfers' | 'sync_chunks' | 'blobs') =>
    Number((await server.built.services.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  for (const kind of ['owncloudcmd', 'nextcloudcmd'] as ClientKind[]) {
    it(`${kind}: goes up in chunks and a MOVE, and comes down to a second folder byte for byte`, { skip: missing(kind) }, async () => {
      const p = await davPerson(server);
      const up = path.join(work, `${kind}-up`);
      const down = path.join(work, `${kind}-down`);
      mkdirSync(up);
      mkdirSync(down);
      const bytes = randomBytes(25 * 1024 * 1024);
      writeFileSync(path.join(up, 'big 大.bin'), bytes);
      const proxy = await loggingProxy(server.url);
      try {
        await runClient(kind, up, proxy.url, p.email, p.account.password, path.join(work, `${kind}-home-up`));
        const seen = JSON.stringify(proxy.log.map((r) => `${r.method} ${r.url} ${r.status}`));
        const uploads = proxy.log.filter((r) => r.url.startsWith('/remote.php/dav/uploads/'));
        const chunks = uploads.filter((r) => r.method === 'PUT');
        assert.ok(chunks.length >= 2, `expected chunk PUTs under /remote.php/dav/uploads/, saw ${seen}`);
        assert.deepEqual([...new Set(chunks.map((r) => r.status))], [201], seen);
        const moves = uploads.filter((r) => r.method === 'MOVE');
        assert.equal(moves.length, 1, seen);
        assert.ok(moves[0]!.url.endsWith('/.file') && moves[0]!.status === 201, seen);
        assert.deepEqual(proxy.log.filter((r) => r.method === 'PUT' && decodeURIComponent(r.url).includes('big 大.bin')), [], 'no whole-file PUT');
        assert.deepEqual([await count('sync_transfers'), await count('sync_chunks')], [0, 0], 'no transfer is left');
        assert.equal((await storageCounts(server)).blobs, await count('blobs'), 'no chunk is left in the store');
        await runClient(kind, down, proxy.url, p.email, p.account.password, path.join(work, `${kind}-home-down`));
        assert.ok(readFileSync(path.join(down, 'big 大.bin')).equals(bytes), 'the downloaded file equals the uploaded one');
      } finally {
        await proxy.close();
      }
    });
  }
});
