// Hostile files (issue 35): a zip bomb, corrupted office files, a broken and
// a looping PDF, binary noise named .txt, and a 40 MB log (indexed from its
// start, not failed). Each is bounded, recorded as a
// failed extraction with its reason (once, not retried), and the server keeps
// answering; the admin's status and reindex (api-contract §16).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, put } from '../files/helpers.js';
import { members, type Member } from '../sharing/helpers.js';
import { makeDocx, makeLoopingPdf, makePdf, makeZipBomb } from './documents.js';

type Status = { indexed: number; pending: number; failed: number; skipped: number; recent_failures: { name: string | null; reason: string; at: string }[] };

describe('content search: hostile files and administration', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let alice: Member;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = await adminToken(api);
    [alice] = await members(api, 'Alice');
  });
  after(() => server.close());

  const status = async () => {
    const res = await api.get<Status>('/api/v4/admin/search/status', { token: admin });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  /** Nothing pending, and at least `known` documents done (the indexer discovers an upload moments after it). */
  async function settled(ms = 60_000, known = 0): Promise<Status> {
    const until = Date.now() + ms;
    for (;;) {
      const s = await status();
      if (s.pending === 0 && s.indexed + s.failed + s.skipped >= known) return s;
      assert.ok(Date.now() < until, `still pending after ${ms} ms: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('bounds every hostile file, records it as failed with a reason, and keeps serving', async () => {
    const word = `ok${randomBytes(4).toString('hex').replace(/\d/g, 'x')}`;
    const good = makeDocx([`a good ${word} document`]);
    const corrupt = Buffer.from(good);
    corrupt.fill(0x41, 30, corrupt.length - 30); // the zip's directory survives, its data does not
    const files: [string, Buffer][] = [
      ['/bad/bomb.docx', makeZipBomb(100)],
      ['/bad/corrupt.docx', corrupt],
      ['/bad/not-a-zip.xlsx', randomBytes(4096)],
      ['/bad/truncated.pdf', makePdf(['cut short']).subarray(0, 60)],
      ['/bad/loop.pdf', makeLoopingPdf()],
      ['/bad/noise.bin.txt', Buffer.concat([Buffer.from('before\u0000'), randomBytes(2048)])],
      ['/bad/good.docx', good],
    ];
    for (const [path, body] of files) assert.equal((await put(api, alice.token, path, body)).status, 200);
    // The server answers while the worker chews.
    for (let i = 0; i < 5; i++) assert.equal((await api.get('/api/v4/site/ping')).status, 200);
    const s = await settled(60_000, files.length);
    const reasons = new Map(s.recent_failures.map((f) => [f.name, f.reason]));
    assert.match(reasons.get('bomb.docx') ?? '', /unzips to more than/);
    assert.ok(reasons.get('corrupt.docx'), 'the corrupted docx failed with a reason');
    assert.match(reasons.get('not-a-zip.xlsx') ?? '', /zip/);
    assert.match(reasons.get('truncated.pdf') ?? '', /PDF/);
    assert.ok(!reasons.has('good.docx'));
    assert.ok(s.failed >= 4, JSON.stringify(s));
    // The good one among them is found; NUL-laden text is searchable without breaking PostgreSQL.
    const found = await api.get<{ files: { path: string }[] }>(`/api/v4/file/search?scope=content&q=${word}`, { token: alice.token });
    assert.deepEqual(found.body.data.files.map((f) => f.path), ['/bad/good.docx']);
    const before = await api.get<{ files: { path: string }[] }>(`/api/v4/file/search?scope=content&q=before`, { token: alice.token });
    assert.equal(before.status, 200);
    // Failed once, not retried: the count stays put.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await status()).failed, s.failed);
  });

  it('a 40 MB log is indexed from its start within the worker\'s memory, not failed', async () => {
    const word = `log${randomBytes(4).toString('hex').replace(/\d/g, 'y')}`;
    const line = 'INFO 2026-12-06 request served in 12 ms by 中文 worker\n';
    const log = Buffer.from(`first line names ${word}\n${line.repeat(Math.ceil((40 * 1024 * 1024) / Buffer.byteLength(line)))}`, 'utf8');
    assert.equal((await put(api, alice.token, '/logs/big.log.txt', log)).status, 200);
    // Until it is found (nothing pending is not enough: the indexer may not have discovered the upload yet).
    const until = Date.now() + 120_000;
    for (;;) {
      const found = await api.get<{ files: { path: string }[] }>(`/api/v4/file/search?scope=content&q=${word}`, { token: alice.token });
      const paths = found.body.data.files.map((f) => f.path);
      if (paths.length > 0) {
        assert.deepEqual(paths, ['/logs/big.log.txt']);
        break;
      }
      const s = await status();
      assert.ok(!s.recent_failures.some((f) => f.name === 'big.log.txt'), JSON.stringify(s.recent_failures));
      assert.ok(Date.now() < until, `not found after 120 s: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(!(await settled()).recent_failures.some((f) => f.name === 'big.log.txt'));
  });

  it('status and reindex are for administrators; reindex queues the documents again', async () => {
    assert.equal((await api.get('/api/v4/admin/search/status', { token: alice.token })).status, 403);
    assert.equal((await api.post('/api/v4/admin/search/reindex', {}, { token: alice.token })).status, 403);
    assert.equal((await api.post('/api/v4/admin/search/reindex', { bogus: 1 }, { token: admin })).status, 400);
    const word = `re${randomBytes(4).toString('hex').replace(/\d/g, 'y')}`;
    await put(api, alice.token, '/re/x.txt', `reindexed ${word}`);
    await settled();
    const one = await api.post<{ queued: number }>('/api/v4/admin/search/reindex', { user_id: alice.id }, { token: admin });
    assert.equal(one.status, 200, one.text);
    assert.ok(one.body.data.queued >= 1);
    const all = await api.post<{ queued: number }>('/api/v4/admin/search/reindex', {}, { token: admin });
    assert.ok(all.body.data.queued >= one.body.data.queued);
    const s = await settled();
    assert.ok(s.indexed >= 1);
    const found = await api.get<{ files: { path: string }[] }>(`/api/v4/file/search?scope=content&q=${word}`, { token: alice.token });
    assert.deepEqual(found.body.data.files.map((f) => f.path), ['/re/x.txt']);
  });
});
