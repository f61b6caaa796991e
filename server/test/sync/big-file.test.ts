// Files larger than the clients' chunk size (10 MB), api-contract §14: both
// real clients send them in chunks under /remote.php/dav/uploads/ (MKCOL,
// chunk PUTs, MOVE .file), seen through a logging proxy. A 25 MB file comes
// down to a second folder byte for byte, goes up again edited as a new
// version (MOVE 204), and no chunk is left in the database or the store; a
// client killed midway through a 100 MiB file (the network stalled after one
// chunk) resumes the same transfer when restarted, without sending the stored
// chunk again, and the server has the file byte for byte.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { download, storageCounts } from '../files/helpers.js';
import { Api } from '../helpers/client.js';
import { davPerson } from '../webdav/helpers.js';
import { hasTool, loggingProxy, runClient, type ClientKind } from './helpers.js';

const missing = (tool: string): string | false => (hasTool(tool) ? false : `${tool} missing (.ci/run installs it)`);

describe('sync clients: large files in chunks', { timeout: 600_000 }, () => {
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

        // Edited on the second device: it goes up in chunks again, as a new version of the file.
        const edited = Buffer.concat([bytes.subarray(0, 12 * 1024 * 1024), randomBytes(14 * 1024 * 1024)]);
        writeFileSync(path.join(down, 'big 大.bin'), edited);
        const before = proxy.log.length;
        await runClient(kind, down, proxy.url, p.email, p.account.password, path.join(work, `${kind}-home-down`));
        const again = proxy.log.slice(before);
        const seenAgain = JSON.stringify(again.map((r) => `${r.method} ${r.url} ${r.status}`));
        assert.ok(again.some((r) => r.method === 'MOVE' && r.url.endsWith('/.file') && r.status === 204), `expected a MOVE answered 204 (a new version), saw ${seenAgain}`);
        assert.ok((await download(new Api(server.url), p.token, '/big 大.bin')).body.equals(edited), 'the server has the edited content');
        const versions = await new Api(server.url).get<{ size: number }[]>(`/api/v4/file/versions?path=${encodeURIComponent('/big 大.bin')}`, { token: p.token });
        assert.deepEqual(versions.body.data.map((v) => v.size), [edited.length, bytes.length]);
      } finally {
        await proxy.close();
      }
    });

    it(`${kind}: killed midway through a chunked upload and restarted, resumes without sending the stored chunks again`, { skip: missing(kind) }, async () => {
      const p = await davPerson(server);
      const up = path.join(work, `${kind}-resume`);
      mkdirSync(up);
      const bytes = randomBytes(100 * 1024 * 1024);
      writeFileSync(path.join(up, 'resume.bin'), bytes);
      const proxy = await loggingProxy(server.url);
      const chunkPuts = (from = 0) => proxy.log.slice(from).filter((r) => r.method === 'PUT' && r.url.startsWith('/remote.php/dav/uploads/'));
      // After the first chunk is stored the network stalls; then the client is killed.
      proxy.hold = (method, url) => method === 'PUT' && url.startsWith('/remote.php/dav/uploads/') && chunkPuts().some((r) => r.status === 201);
      const home = path.join(work, `${kind}-home-resume`);
      try {
        const killer = new AbortController();
        const first = runClient(kind, up, proxy.url, p.email, p.account.password, home, [], killer.signal).catch(() => 'killed');
        for (let i = 0; i < 600 && !chunkPuts().some((r) => r.status === 0); i++) await new Promise((r) => setTimeout(r, 50));
        killer.abort();
        assert.equal(await first, 'killed');
        const stored = chunkPuts().filter((r) => r.status === 201).map((r) => r.url);
        assert.equal(stored.length, 1, JSON.stringify(proxy.log.map((r) => `${r.method} ${r.url} ${r.status}`)));
        proxy.hold = undefined;
        const from = proxy.log.length;
        await runClient(kind, up, proxy.url, p.email, p.account.password, home);
        const seen = JSON.stringify(proxy.log.slice(from).map((r) => `${r.method} ${r.url} ${r.status}`));
        const again = chunkPuts(from).map((r) => r.url);
        assert.ok(again.length >= 1 && !again.includes(stored[0]!), `the stored chunk ${stored[0]} was sent again: ${seen}`);
        // The same transfer, continued: found again by listing its folder.
        const folder = stored[0]!.slice(0, stored[0]!.lastIndexOf('/'));
        assert.ok(again.every((u) => u.startsWith(`${folder}/`)), `a new transfer instead of ${folder}: ${seen}`);
        assert.ok(proxy.log.slice(from).some((r) => r.method === 'PROPFIND' && r.url.replace(/\/$/, '') === folder), seen);
        assert.ok(proxy.log.slice(from).some((r) => r.method === 'MOVE' && r.url.endsWith('/.file') && r.status === 201), seen);
        assert.ok((await download(new Api(server.url), p.token, '/resume.bin')).body.equals(bytes), 'the server has the file byte for byte');
        assert.deepEqual([await count('sync_transfers'), await count('sync_chunks')], [0, 0], 'no transfer is left');
      } finally {
        await proxy.close();
      }
    });
  }
});
