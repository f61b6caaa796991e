// "Shared with me" labels cannot be taken over (issue 32, finding 2): someone
// who shared anything with a recipient earlier renames their nickname and a
// folder into the label of another owner's grant. The label stays with the
// grant that held it; the newcomer is told apart by part of its item's id;
// the recipient's writes (API and a WebDAV account rooted in the shared
// folder) still land in the real owner's folder, and the WebDAV account keeps
// following the grant (not the name) through renames and a revocation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, list, names, put, q } from '../files/helpers.js';
import { basicHeader, createAccount, dav, type DavAccount } from '../webdav/helpers.js';
import { davPath, grant, members, sharedWith, type Grant, type Member } from './helpers.js';

describe('"Shared with me" labels are held per grant', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member;
  let mallory: Member;
  let carol: Member;
  let account: DavAccount;
  let basic: string;
  const LABEL = '/Shared with me/Alice – Projects';

  before(async () => {
    server = await startServer();
    api = new Api(server);
    [alice, mallory, carol] = await members(api, 'Alice', 'Mallory', 'Carol');
    // Mallory shares first, with write for Carol, so the grant is the older one.
    await put(api, mallory.token, '/bait/readme.txt', 'hello');
    assert.equal((await grant(api, mallory, { path: '/bait', user: carol.email, permission: 'write' })).status, 200);
    await put(api, alice.token, '/Projects/plan.txt', 'the plan');
    assert.equal((await grant(api, alice, { path: '/Projects', user: carol.email, permission: 'write' })).status, 200);
    assert.deepEqual((await sharedWith(api, carol)).map((i) => i.path), ['/Shared with me/Mallory – bait', LABEL]);
    account = await createAccount(api, carol.token, { name: 'laptop', path: LABEL });
    basic = basicHeader(carol.email, account.password);
  });
  after(() => server.close());

  it('renaming into another grant\'s label gets a label of its own, not the taken one', async () => {
    await new Promise((r) => setTimeout(r, 5));
    assert.equal((await api.patch('/api/v4/user/setting', { nickname: 'Alice' }, { token: mallory.token })).status, 200);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/bait', new_name: 'Projects' }, { token: mallory.token })).status, 200);
    const items = await sharedWith(api, carol);
    const real = items.find((i) => i.owner.id === alice.id)!;
    const fake = items.find((i) => i.owner.id === mallory.id)!;
    assert.equal(real.path, LABEL, 'the real owner keeps the label');
    assert.match(fake.path, /^\/Shared with me\/Alice – Projects \([A-Za-z0-9_-]{6,}\)$/);
    assert.equal((await download(api, carol.token, `${fake.path}/readme.txt`)).body.toString(), 'hello');
    // The same answer every time, and in the listing of the virtual folder.
    assert.deepEqual((await sharedWith(api, carol)).map((i) => i.path), items.map((i) => i.path));
    assert.deepEqual((await list(api, carol.token, '/Shared with me')).body.data.files.map((f) => f.path).sort(), [LABEL, fake.path].sort());
  });

  it('the recipient\'s writes by the label, through the API and the WebDAV account, land in the real owner\'s folder', async () => {
    assert.equal((await put(api, carol.token, `${LABEL}/report.txt`, 'for alice')).status, 200);
    assert.equal((await dav(server, 'PUT', '/dav/notes.txt', basic, { body: 'also for alice' })).status, 201);
    assert.equal((await download(api, alice.token, '/Projects/report.txt')).body.toString(), 'for alice');
    assert.equal((await download(api, alice.token, '/Projects/notes.txt')).body.toString(), 'also for alice');
    // The sync clients' door (api-contract §14) roots the same account at the same grant.
    assert.equal((await dav(server, 'PUT', '/remote.php/webdav/synced.txt', basic, { body: 'by the sync door' })).status, 201);
    assert.equal((await download(api, alice.token, '/Projects/synced.txt')).body.toString(), 'by the sync door');
    assert.deepEqual(await names(api, mallory.token, '/Projects'), ['readme.txt'], 'nothing reached the impostor');
  });

  it('a WebDAV account follows its grant, not the name, through a rename and a revocation', async () => {
    // The real owner renames the folder: the account follows it (its path now shown), Carol's old label is no longer Alice's.
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Projects', new_name: 'Plans' }, { token: alice.token })).status, 200);
    const listed = await api.get<{ accounts: { id: string; path: string }[] }>('/api/v4/devices/dav', { token: carol.token });
    assert.equal(listed.body.data.accounts.find((a) => a.id === account.id)!.path, '/Shared with me/Alice – Plans');
    assert.equal((await dav(server, 'PUT', '/dav/after-rename.txt', basic, { body: 'still alice' })).status, 201);
    assert.equal((await download(api, alice.token, '/Plans/after-rename.txt')).body.toString(), 'still alice');
    assert.deepEqual(await names(api, mallory.token, '/Projects'), ['readme.txt']);
    // Revoked: the account reaches nothing, and certainly not the impostor's folder that now holds the old label.
    const grants = await api.get<Grant[]>(`/api/v4/file/access?path=${q('/Plans')}`, { token: alice.token });
    assert.equal((await api.delete(`/api/v4/file/access/${grants.body.data[0]!.id}`, undefined, { token: alice.token })).status, 200);
    assert.equal((await dav(server, 'PUT', '/dav/stray.txt', basic, { body: 'nowhere' })).status, 404);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', basic, { headers: { depth: '1' } })).status, 404);
    assert.equal((await dav(server, 'PUT', '/remote.php/webdav/stray.txt', basic, { body: 'nowhere' })).status, 404);
    assert.deepEqual(await names(api, mallory.token, '/Projects'), ['readme.txt']);
    // A WebDAV account made by the label's words now would be Mallory's item: only from now on, by its own grant.
    assert.equal((await sharedWith(api, carol))[0]!.path, LABEL);
    assert.equal((await dav(server, 'GET', davPath(`${LABEL}/readme.txt`), `Bearer ${carol.token}`)).status, 200);
  });
});
