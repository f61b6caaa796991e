// Search inside items shared with the searcher (api-contract §13, issue 22):
// matches under a shared item are found at the searcher's "/Shared with me/…"
// paths; the owner's other files never are, nor items after revocation or
// while the shared folder is in the trash.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put, q } from '../files/helpers.js';
import { members, grant, type Member } from './helpers.js';

describe('search in shared items', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member;
  let bob: Member;
  const M = '/Shared with me/Alice – proj';

  before(async () => {
    server = await startServer();
    api = new Api(server);
    [alice, bob] = await members(api, 'Alice', 'Bob');
    await put(api, alice.token, '/proj/budget-2026.xlsx', 'x');
    await put(api, alice.token, '/proj/sub/Budget notes.txt', 'x');
    await put(api, alice.token, '/private/budget-secret.txt', 'x');
    await put(api, alice.token, '/proj-budget/not-shared.txt', 'x');
    await put(api, bob.token, '/mine/budget-bob.txt', 'x');
    assert.equal((await grant(api, alice, { path: '/proj', user: bob.email, permission: 'read' })).status, 200);
  });
  after(() => server.close());

  async function search(p: Member, query: string, pageSize = 100): Promise<string[]> {
    const out: string[] = [];
    let token: string | null = null;
    do {
      const res: { status: number; text: string; body: { data: { files: { path: string }[]; next_page_token: string | null } } } = await api.get<{ files: { path: string }[]; next_page_token: string | null }>(
        `/api/v4/file/search?q=${q(query)}&page_size=${pageSize}${token ? `&next_page_token=${q(token)}` : ''}`,
        { token: p.token },
      );
      assert.equal(res.status, 200, res.text);
      out.push(...res.body.data.files.map((f) => f.path));
      token = res.body.data.next_page_token;
    } while (token);
    return out.sort();
  }

  it('finds the searcher\'s own matches and those inside shared items, at their paths; nothing else of the owner', async () => {
    const expected = ['/mine/budget-bob.txt', `${M}/budget-2026.xlsx`, `${M}/sub/Budget notes.txt`].sort();
    assert.deepEqual(await search(bob, 'budget'), expected);
    // Short queries (no trigram index) and paging one at a time give the same set.
    assert.deepEqual(await search(bob, 'bu', 1), expected);
    // The shared item itself matches by its name, at the mount's path.
    assert.deepEqual(await search(bob, 'proj'), [M]);
    // The owner's search is unchanged.
    assert.deepEqual(await search(alice, 'budget'), ['/private/budget-secret.txt', '/proj-budget', '/proj/budget-2026.xlsx', '/proj/sub/Budget notes.txt'].sort());
  });

  it('nothing is found in a shared folder while it is in the trash, or after revocation', async () => {
    assert.equal((await api.delete('/api/v4/file', { paths: ['/proj'] }, { token: alice.token })).status, 200);
    assert.deepEqual(await search(bob, 'budget'), ['/mine/budget-bob.txt']);
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: alice.token });
    await api.post('/api/v4/file/trash/restore', { ids: [trash.body.data.files.find((f) => f.original_path === '/proj')!.id] }, { token: alice.token });
    assert.equal((await search(bob, 'budget')).length, 3);
    const grants = await api.get<{ id: string }[]>(`/api/v4/file/access?path=${q('/proj')}`, { token: alice.token });
    assert.equal((await api.delete(`/api/v4/file/access/${grants.body.data[0]!.id}`, undefined, { token: alice.token })).status, 200);
    assert.deepEqual(await search(bob, 'budget'), ['/mine/budget-bob.txt']);
  });
});
