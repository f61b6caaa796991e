// What the web file manager needs from the API (issue 23): a name check that
// answers 200 for missing names (POST /file/exists), copies into the source's
// own folder as "name (copy).ext", moves that keep the modified time (API and
// WebDAV MOVE), and restores from the trash that ask before clashing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, names, newUser, put, q, type FileView, type Person } from './helpers.js';

interface ExistsResult {
  path: string;
  exists: boolean;
  type: 'file' | 'folder' | null;
  code: number;
  msg: string;
}

describe('file manager operations', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let bob: Person;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    bob = await newUser(api, admin);
  });
  after(() => server.close());

  const exists = (p: Person, paths: string[]) => api.post<{ results: ExistsResult[] }>('/api/v4/file/exists', { paths }, { token: p.token });

  it('POST /file/exists answers 200 for taken, missing and invalid paths, each with its own result', async () => {
    assert.equal((await put(api, alice.token, '/ex/report.txt', 'r')).status, 200);
    const res = await exists(alice, ['/ex/report.txt', '/ex', '/ex/missing.txt', '/nowhere/deep/x.txt', '/ex/back\\slash.txt', '/ex/report.txt/under']);
    assert.equal(res.status, 200, res.text);
    const r = res.body.data.results;
    assert.deepEqual(
      r.map((x) => [x.path, x.exists, x.type, x.code]),
      [
        ['/ex/report.txt', true, 'file', 0],
        ['/ex', true, 'folder', 0],
        ['/ex/missing.txt', false, null, 0],
        ['/nowhere/deep/x.txt', false, null, 0],
        ['/ex/back\\slash.txt', false, null, 40001],
        ['/ex/report.txt/under', false, null, 0],
      ],
    );
    assert.match(r[4]!.msg, /\\/, 'the reason names the backslash');
  });

  it('POST /file/exists sees only the caller\'s own tree, and needs a token and a body', async () => {
    const res = await exists(bob, ['/ex/report.txt']);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.results[0]!.exists, false);
    assert.equal((await api.post('/api/v4/file/exists', { paths: ['/ex'] })).status, 401);
    const empty = await api.post('/api/v4/file/exists', { paths: [] }, { token: alice.token });
    assert.equal(empty.status, 400);
    assert.equal((empty.body as unknown as { code: number }).code, 40001);
    assert.equal((await exists(alice, ['relative'])).body.data.results[0]!.code, 40001);
  });

  void q;
  void names;
  void ({} as FileView);
});
