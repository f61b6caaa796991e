// `npm run cirrus -- search status|reindex` (api-contract §16, issue 35) run
// as the operator runs them: the built CLI in a child process, against the
// data directory and database of a running server. Reindexing one person by
// e-mail or by id queues only their documents; an unknown person is one line
// on stderr and exit 1; --wait extracts in the CLI process and returns (its
// extraction worker does not keep it alive).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '../../src/paths.js';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser } from '../helpers/client.js';
import { adminToken, put } from '../files/helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

type Status = { indexed: number; pending: number; failed: number; skipped: number };

describe('command line: search status and reindex', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let env: Record<string, string>;
  let alice: { id: string; token: string };

  function cirrus(...args: string[]): Promise<Run> {
    const full: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CIRRUS_LOG_LEVEL: 'silent', ...env };
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), ...args], { cwd: ROOT_DIR, env: full, timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, ms: Date.now() - started });
      });
    });
  }

  const status = async () => (await api.get<Status>('/api/v4/admin/search/status', { token: admin })).body.data;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    admin = await adminToken(api);
    env = { CIRRUS_DATA_DIR: server.config.dataDir, ...(server.config.database.kind === 'postgres' ? { CIRRUS_DATABASE_URL: server.config.database.url } : {}) };
    const a = await createUser(api, admin, 'alice-cli@example.com');
    alice = { id: a.user.id, token: a.token.access_token };
    const bob = (await createUser(api, admin, 'bob-cli@example.com')).token.access_token;
    await put(api, alice.token, '/a.txt', 'alpha notes');
    await put(api, alice.token, '/b.md', '# beta notes');
    await put(api, bob, '/c.txt', 'gamma notes');
    // Indexed (found by their text), not merely not pending yet.
    for (let i = 0; ; i++) {
      const found = await api.get<{ files: unknown[] }>('/api/v4/file/search?scope=content&q=notes', { token: alice.token });
      if (found.body.data.files.length === 2 && (await status()).indexed >= 3) break;
      assert.ok(i < 300, 'the three files are indexed');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(() => server?.close());

  it('search status prints the counts the API gives', async () => {
    const s = await status();
    const run = await cirrus('search', 'status');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^indexed ${s.indexed}, pending 0, failed ${s.failed}, skipped ${s.skipped}$`, 'm'));
  });

  it('search reindex --user takes an e-mail or an id and queues only that person\'s documents', async () => {
    const byEmail = await cirrus('search', 'reindex', '--user', 'alice-cli@example.com');
    assert.equal(byEmail.code, 0, byEmail.stderr);
    assert.match(byEmail.stdout, /^Queued 2 documents for extraction\.$/m);
    const byId = await cirrus('search', 'reindex', '--user', alice.id);
    assert.equal(byId.code, 0, byId.stderr);
    assert.match(byId.stdout, /^Queued 2 documents for extraction\.$/m);
    // Everything, extracted by the CLI itself (a running server would take it up at its next pass, within 30 s).
    const everything = await cirrus('search', 'reindex', '--wait');
    assert.equal(everything.code, 0, everything.stderr);
    assert.match(everything.stdout, /^Queued 3 documents for extraction\.$/m);
    assert.match(everything.stdout, /^indexed 3, pending 0, failed 0, skipped 0$/m);
    const found = await api.get<{ files: { path: string }[] }>('/api/v4/file/search?scope=content&q=notes', { token: alice.token });
    assert.deepEqual(found.body.data.files.map((f) => f.path).sort(), ['/a.txt', '/b.md']);
  });

  it('an unknown person is one line on stderr and exit 1; --wait extracts in the CLI and exits', async () => {
    const unknown = await cirrus('search', 'reindex', '--user', 'nobody@example.com');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
    assert.match(unknown.stderr, /no user nobody@example\.com/);
    const waited = await cirrus('search', 'reindex', '--user', 'alice-cli@example.com', '--wait');
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^Queued 2 documents for extraction\.$/m);
    assert.match(waited.stdout, /^indexed \d+, pending 0, failed 0, skipped 0$/m);
    assert.ok(waited.ms < 30_000, `returned in ${waited.ms} ms`);
  });
});
