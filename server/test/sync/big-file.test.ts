// A file larger than the clients' chunk size (10 MB), api-contract §14.
// Cirrus does not advertise chunked uploads yet (no /remote.php/dav/uploads/):
// owncloudcmd then sends the file as one streamed PUT and it syncs up and down
// byte for byte. nextcloudcmd falls back to the old OC-Chunked chunking, which
// is refused with 501, so its sync fails and no fragment is stored (a known
// limitation until chunked uploads are built, issue 33).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { names } from '../files/helpers.js';
import { davPerson } from '../webdav/helpers.js';
import { hasTool, loggingProxy, runClient } from './helpers.js';

const missing = (tool: string): string | false => (hasTool(tool) ? false : `${tool} missing (.ci/run installs it)`);

describe('sync clients: a 25 MB file', { timeout: 600_000 }, () => {
  let server: TestServer;
  let work: string;
  before(async () => {
    server = await startServer();
    work = mkdtempSync(path.join(tmpdir(), 'cirrus-big-'));
  });
  after(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('owncloudcmd: goes up as one PUT and comes down to a second folder byte for byte', { skip: missing('owncloudcmd') }, async () => {
    const p = await davPerson(server);
    const up = path.join(work, 'oc-up');
    const down = path.join(work, 'oc-down');
    mkdirSync(up);
    mkdirSync(down);
    const bytes = randomBytes(25 * 1024 * 1024);
    writeFileSync(path.join(up, 'big 大.bin'), bytes);
    const proxy = await loggingProxy(server.url);
    try {
      await runClient('owncloudcmd', up, proxy.url, p.email, p.account.password, path.join(work, 'oc-home-up'));
      const puts = proxy.log.filter((r) => r.method === 'PUT' && decodeURIComponent(r.url).includes('big 大.bin'));
      assert.equal(puts.length, 1, `expected one PUT of the file, saw ${JSON.stringify(proxy.log.map((r) => `${r.method} ${r.url}`))}`);
      assert.deepEqual(proxy.log.filter((r) => r.url.includes('/remote.php/dav/uploads/')), []);
      await runClient('owncloudcmd', down, proxy.url, p.email, p.account.password, path.join(work, 'oc-home-down'));
      assert.ok(readFileSync(path.join(down, 'big 大.bin')).equals(bytes), 'the downloaded file equals the uploaded one');
    } finally {
      await proxy.close();
    }
  });

  it('nextcloudcmd: its OC-Chunked chunks are refused with 501 and nothing of the file is stored', { skip: missing('nextcloudcmd') }, async () => {
    const p = await davPerson(server);
    const up = path.join(work, 'nc-up');
    mkdirSync(up);
    writeFileSync(path.join(up, 'big.bin'), randomBytes(25 * 1024 * 1024));
    const proxy = await loggingProxy(server.url);
    try {
      await runClient('nextcloudcmd', up, proxy.url, p.email, p.account.password, path.join(work, 'nc-home')).catch(() => undefined);
      const chunks = proxy.log.filter((r) => r.method === 'PUT' && r.url.includes('big.bin-chunking-'));
      assert.ok(chunks.length > 0, `nextcloudcmd sent no OC-Chunked chunk: ${JSON.stringify(proxy.log.map((r) => `${r.method} ${r.url}`))}`);
      assert.deepEqual([...new Set(chunks.map((r) => r.status))], [501]);
      assert.deepEqual((await names(new Api(server.url), p.token, '/')).filter((n) => n.startsWith('big.bin')), []);
    } finally {
      await proxy.close();
    }
  });
});
