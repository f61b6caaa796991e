// WebDAV accounts (api-contract §8): create with a password shown once,
// list, change, regenerate, delete; the folder and read-only options; Basic
// credentials are the e-mail and the account password, never the sign-in
// password; hashed at rest; scopes for OAuth tokens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put } from '../files/helpers.js';
import { approve, createApp, exchange, type OAuthTestContext } from '../oauth/helpers.js';
import { basicHeader, createAccount, dav, emailOf, type DavAccount } from './helpers.js';

describe('WebDAV accounts API', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = await adminToken(api);
  });
  after(() => server.close());

  it('creates an account whose password is shown once and works as Basic with the e-mail; the list never shows it', async () => {
    const person = await newUser(api, admin);
    const email = await emailOf(api, person.token);
    const created = await createAccount(api, person.token, { name: 'Phone' });
    assert.equal(created.name, 'Phone');
    assert.equal(created.path, '/');
    assert.equal(created.readonly, false);
    assert.match(created.password, /^[A-Za-z0-9_-]{32,}$/);
    assert.match(created.created_at, /Z$/);
    const listed = await api.get<{ accounts: DavAccount[] }>('/api/v4/devices/dav', { token: person.token });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data.accounts.map((a) => a.id), [created.id]);
    assert.equal(JSON.stringify(listed.body).includes(created.password), false);
    assert.equal('password' in listed.body.data.accounts[0]!, false);
    // Stored hashed (argon2id), never as given.
    const row = await server.built.services.db.selectFrom('dav_accounts').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$argon2id\$/);
    assert.equal(row.password_hash.includes(created.password), false);
    const ok = await dav(server, 'PROPFIND', '/dav/', basicHeader(email, created.password), { headers: { depth: '0' } });
    assert.equal(ok.status, 207);
    // Upper-case e-mail is the same person.
    assert.equal((await dav(server, 'PROPFIND', '/dav/', basicHeader(email.toUpperCase(), created.password), { headers: { depth: '0' } })).status, 207);
  });

  it('RFC 7617 §2: the sign-in password is never accepted as Basic credentials', async () => {
    const api2 = new Api(server);
    const person = await newUser(api2, admin);
    const email = await emailOf(api2, person.token);
    await createAccount(api2, person.token, { name: 'x' });
    const res = await dav(server, 'PROPFIND', '/dav/', basicHeader(email, 'user-password-123'), { headers: { depth: '0' } });
    assert.equal(res.status, 401);
  });

  it('an account restricted to a folder sees that folder as /dav/; the folder must exist', async () => {
    const person = await newUser(api, admin);
    const email = await emailOf(api, person.token);
    await put(api, person.token, '/Photos/2024/a.jpg', 'jpeg');
    await put(api, person.token, '/secret.txt', 'secret');
    const missing = await api.put('/api/v4/devices/dav', { name: 'cam', path: '/Nope' }, { token: person.token });
    assert.equal(missing.status, 400);
    assert.match(missing.body.msg, /path/);
    const file = await api.put('/api/v4/devices/dav', { name: 'cam', path: '/secret.txt' }, { token: person.token });
    assert.equal(file.status, 400);
    const acc = await createAccount(api, person.token, { name: 'camera', path: '/Photos' });
    assert.equal(acc.path, '/Photos');
    const auth = basicHeader(email, acc.password);
    const list = await dav(server, 'PROPFIND', '/dav/', auth, { headers: { depth: '1' } });
    assert.equal(list.status, 207);
    assert.match(list.text, /<D:href>\/dav\/2024\/<\/D:href>/);
    assert.doesNotMatch(list.text, /secret/);
    assert.equal((await dav(server, 'GET', '/dav/2024/a.jpg', auth)).text, 'jpeg');
    assert.equal((await dav(server, 'GET', '/dav/secret.txt', auth)).status, 404);
  });

  it('a read-only account reads but every write method is 403 and changes nothing', async () => {
    const person = await newUser(api, admin);
    const email = await emailOf(api, person.token);
    await put(api, person.token, '/a.txt', 'A');
    const acc = await createAccount(api, person.token, { name: 'ro', readonly: true });
    assert.equal(acc.readonly, true);
    const auth = basicHeader(email, acc.password);
    assert.equal((await dav(server, 'GET', '/dav/a.txt', auth)).text, 'A');
    const writes: [string, string, Record<string, string>, string?][] = [
      ['PUT', '/dav/a.txt', {}, 'changed'],
      ['PUT', '/dav/new.txt', {}, 'new'],
      ['DELETE', '/dav/a.txt', {}],
      ['MKCOL', '/dav/dir', {}],
      ['COPY', '/dav/a.txt', { destination: '/dav/b.txt' }],
      ['MOVE', '/dav/a.txt', { destination: '/dav/b.txt' }],
      ['PROPPATCH', '/dav/a.txt', { 'content-type': 'application/xml' }, '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>'],
      ['LOCK', '/dav/a.txt', { 'content-type': 'application/xml' }, '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>'],
    ];
    for (const [method, path, headers, body] of writes) {
      const res = await dav(server, method, path, auth, { headers, body });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    const names = (await api.get<{ files: { name: string }[] }>('/api/v4/file?path=/', { token: person.token })).body.data.files.map((f) => f.name);
    assert.deepEqual(names, ['a.txt']);
    assert.equal((await dav(server, 'GET', '/dav/a.txt', auth)).text, 'A');
  });

  it('PATCH changes name, folder and read-only; regenerate_password returns a new password once and the old one stops at once', async () => {
    const person = await newUser(api, admin);
    const email = await emailOf(api, person.token);
    await api.post('/api/v4/file/create', { path: '/Docs', type: 'folder' }, { token: person.token });
    const acc = await createAccount(api, person.token, { name: 'old' });
    const oldAuth = basicHeader(email, acc.password);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', oldAuth, { headers: { depth: '0' } })).status, 207);
    const changed = await api.patch<DavAccount>(`/api/v4/devices/dav/${acc.id}`, { name: 'new', path: '/Docs', readonly: true }, { token: person.token });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.data.name, 'new');
    assert.equal(changed.body.data.path, '/Docs');
    assert.equal(changed.body.data.readonly, true);
    assert.equal('password' in changed.body.data, false);
    assert.equal((await dav(server, 'PUT', '/dav/x.txt', oldAuth, { body: 'x' })).status, 403);
    const regenerated = await api.patch<DavAccount>(`/api/v4/devices/dav/${acc.id}`, { regenerate_password: true }, { token: person.token });
    assert.equal(regenerated.status, 200);
    assert.notEqual(regenerated.body.data.password, acc.password);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', oldAuth, { headers: { depth: '0' } })).status, 401);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', basicHeader(email, regenerated.body.data.password), { headers: { depth: '0' } })).status, 207);
    assert.equal((await api.patch(`/api/v4/devices/dav/${acc.id}`, { path: '/missing' }, { token: person.token })).status, 400);
    assert.equal((await api.patch(`/api/v4/devices/dav/${acc.id}`, { name: '' }, { token: person.token })).status, 400);
  });

  it('DELETE cuts the device off at once, even right after a successful request', async () => {
    const person = await newUser(api, admin);
    const email = await emailOf(api, person.token);
    const acc = await createAccount(api, person.token, { name: 'lost phone' });
    const auth = basicHeader(email, acc.password);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', auth, { headers: { depth: '0' } })).status, 207);
    const del = await api.delete(`/api/v4/devices/dav/${acc.id}`, undefined, { token: person.token });
    assert.equal(del.status, 200);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', auth, { headers: { depth: '0' } })).status, 401);
    assert.equal((await api.delete(`/api/v4/devices/dav/${acc.id}`, undefined, { token: person.token })).status, 404);
    const listed = await api.get<{ accounts: DavAccount[] }>('/api/v4/devices/dav', { token: person.token });
    assert.deepEqual(listed.body.data.accounts, []);
  });

  it("another person's account id is 404 for PATCH and DELETE, and bad bodies are 400 with the field named", async () => {
    const a = await newUser(api, admin);
    const b = await newUser(api, admin);
    const acc = await createAccount(api, a.token, { name: 'mine' });
    assert.equal((await api.patch(`/api/v4/devices/dav/${acc.id}`, { name: 'x' }, { token: b.token })).status, 404);
    assert.equal((await api.delete(`/api/v4/devices/dav/${acc.id}`, undefined, { token: b.token })).status, 404);
    const noName = await api.put('/api/v4/devices/dav', { readonly: true }, { token: a.token });
    assert.equal(noName.status, 400);
    assert.match(noName.body.msg, /name/);
    const badType = await api.put('/api/v4/devices/dav', { name: 'x', readonly: 'yes' }, { token: a.token });
    assert.equal(badType.status, 400);
    assert.equal((await api.get('/api/v4/devices/dav')).status, 401);
  });

  it('RFC 6750 §3.1: an OAuth token needs DavAccount.Read to list and DavAccount.Write to create', async () => {
    const ctx: OAuthTestContext = { server, api, adminToken: admin };
    const person = await newUser(api, admin);
    const app = await createApp(ctx, { scopes: ['Files.Read', 'DavAccount.Read', 'DavAccount.Write'] });
    const token = async (scope: string) => (await exchange(ctx, app, await approve(ctx, person.token, app, { scope }))).body.access_token!;
    const filesOnly = await token('Files.Read');
    assert.equal((await api.get('/api/v4/devices/dav', { token: filesOnly })).status, 403);
    const reader = await token('DavAccount.Read');
    assert.equal((await api.get('/api/v4/devices/dav', { token: reader })).status, 200);
    const denied = await api.put('/api/v4/devices/dav', { name: 'x' }, { token: reader });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 40089);
    const writer = await token('DavAccount.Write');
    assert.equal((await api.put('/api/v4/devices/dav', { name: 'x' }, { token: writer })).status, 200);
  });
});
