// The devices behind WebDAV accounts (issue 33): GET /api/v4/devices/dav says
// when each account was last used and by which client, over /remote.php/ (the
// sync clients, whose Login Flow app passwords are accounts too) and /dav/; a
// use is written at most once a minute per account; deleting an account cuts
// its device off at once.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { basicHeader, createAccount, dav, davPerson } from '../webdav/helpers.js';

interface Listed {
  id: string;
  name: string;
  last_seen_at: string | null;
  client: string | null;
}

describe('sync: devices, last seen', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => server?.close());

  const accounts = async (token: string): Promise<Map<string, Listed>> => {
    const res = await api.get<{ accounts: Listed[] }>('/api/v4/devices/dav', { token });
    assert.equal(res.status, 200);
    return new Map(res.body.data.accounts.map((a) => [a.name, a]));
  };

  it('lists when and by which client each account was last used; at most one write a minute; delete cuts off', async () => {
    const p = await davPerson(server);
    const mount = await createAccount(api, p.token, { name: 'mount' });
    await createAccount(api, p.token, { name: 'unused' });
    let listed = await accounts(p.token);
    assert.equal(listed.get('laptop')!.last_seen_at, null);
    assert.equal(listed.get('laptop')!.client, null);

    const before = Date.now();
    const desktop = 'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian)';
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, p.basic, { headers: { depth: '0', 'user-agent': desktop } })).status, 207);
    const mountAuth = basicHeader(p.email, mount.password);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', mountAuth, { headers: { depth: '0', 'user-agent': 'gvfs/1.50' } })).status, 207);
    // The write is not awaited by the request: wait until it shows.
    for (let i = 0; i < 50; i++) {
      listed = await accounts(p.token);
      if (listed.get('laptop')!.last_seen_at && listed.get('mount')!.last_seen_at) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const laptop = listed.get('laptop')!;
    assert.equal(laptop.client, desktop);
    assert.ok(Math.abs(Date.parse(laptop.last_seen_at!) - before) < 60_000);
    assert.equal(listed.get('mount')!.client, 'gvfs/1.50');
    assert.equal(listed.get('unused')!.last_seen_at, null);

    // Within the minute another use writes nothing (the client named stays the first).
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, p.basic, { headers: { depth: '0', 'user-agent': 'other/1.0' } })).status, 207);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual((await accounts(p.token)).get('laptop'), laptop);

    // Another person sees none of these; deleting the account cuts the client off at once.
    const other = await davPerson(server);
    assert.deepEqual([...(await accounts(other.token)).keys()], ['laptop']);
    assert.equal((await api.call('DELETE', `/api/v4/devices/dav/${laptop.id}`, { token: p.token })).status, 200);
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, p.basic, { headers: { depth: '0' } })).status, 401);
    assert.equal((await accounts(p.token)).has('laptop'), false);
  });
});
