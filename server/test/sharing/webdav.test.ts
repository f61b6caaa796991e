// "Shared with me" over WebDAV (issue 22: `/dav/Shared with me/<owner> – <name>/`):
// PROPFIND at the root lists the virtual folder when something is shared
// (RFC 4918 §9.1, Depth 1: the collection and its members), inside it the
// mounts, inside a mount the owner's items at the recipient's hrefs; GET, PUT,
// MOVE, COPY and DELETE work inside a write mount and change the owner's
// tree; a WebDAV account limited to a shared folder (or to "Shared with me")
// sees exactly that.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, names, put } from '../files/helpers.js';
import { basicHeader, createAccount, dav } from '../webdav/helpers.js';
import { members, grant, type Member } from './helpers.js';

const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const hrefs = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!));

describe('"Shared with me" over WebDAV', () => {
  let server: TestServer;
  let api: Api;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  const W = '/Shared with me/Alice – docs';
  const R = '/Shared with me/Alice – pics';

  before(async () => {
    server = await startServer();
    api = new Api(server);
    [alice, bob, carol] = await members(api, 'Alice', 'Bob', 'Carol');
    await put(api, alice.token, '/docs/a.txt', 'aaa');
    await put(api, alice.token, '/docs/sub/b.txt', 'bbb');
    await put(api, alice.token, '/pics/p.jpg', 'jpeg');
    await put(api, bob.token, '/own.txt', 'mine');
    assert.equal((await grant(api, alice, { path: '/docs', user: bob.email, permission: 'write' })).status, 200);
    assert.equal((await grant(api, alice, { path: '/pics', user: bob.email, permission: 'read' })).status, 200);
  });
  after(() => server.close());

  const B = () => `Bearer ${bob.token}`;
  const propfind = (path: string, auth: string) => dav(server, 'PROPFIND', enc(path), auth, { headers: { depth: '1' } });

  it('PROPFIND Depth 1 at the root lists "Shared with me" beside the person\'s own items, only when something is shared', async () => {
    const root = await propfind('/dav/', B());
    assert.equal(root.status, 207, root.text);
    assert.deepEqual(hrefs(root.text).sort(), ['/dav/', '/dav/Shared with me/', '/dav/own.txt'].sort());
    const carolRoot = await propfind('/dav/', `Bearer ${carol.token}`);
    assert.deepEqual(hrefs(carolRoot.text), ['/dav/']);
  });

  it('PROPFIND inside "Shared with me" lists the mounts by label, and inside a mount the owner\'s items at the recipient\'s hrefs', async () => {
    const mounts = await propfind('/dav/Shared with me/', B());
    assert.equal(mounts.status, 207, mounts.text);
    assert.deepEqual(hrefs(mounts.text).sort(), ['/dav/Shared with me/', `/dav${W}/`, `/dav${R}/`].sort());
    assert.match(mounts.text, /<D:displayname>Alice – docs<\/D:displayname>/);
    const inside = await propfind(`/dav${W}/`, B());
    assert.equal(inside.status, 207, inside.text);
    assert.deepEqual(hrefs(inside.text).sort(), [`/dav${W}/`, `/dav${W}/a.txt`, `/dav${W}/sub/`].sort());
  });

  it('GET, PUT, MOVE, COPY and DELETE work inside a write mount and change the owner\'s tree', async () => {
    const get = await dav(server, 'GET', enc(`/dav${W}/a.txt`), B());
    assert.equal(get.status, 200);
    assert.equal(get.text, 'aaa');
    assert.equal((await dav(server, 'PUT', enc(`/dav${W}/new.txt`), B(), { body: 'new' })).status, 201);
    const move = await dav(server, 'MOVE', enc(`/dav${W}/new.txt`), B(), { headers: { destination: `${server.url}${enc(`/dav${W}/sub/moved.txt`)}` } });
    assert.equal(move.status, 201, move.text);
    const copy = await dav(server, 'COPY', enc(`/dav${W}/a.txt`), B(), { headers: { destination: `${server.url}${enc(`/dav${W}/sub/copy.txt`)}` } });
    assert.equal(copy.status, 201, copy.text);
    assert.deepEqual((await names(api, alice.token, '/docs/sub')).sort(), ['b.txt', 'copy.txt', 'moved.txt']);
    assert.equal((await download(api, alice.token, '/docs/sub/moved.txt')).body.toString(), 'new');
    assert.equal((await dav(server, 'DELETE', enc(`/dav${W}/sub/copy.txt`), B())).status, 204);
    assert.deepEqual((await names(api, alice.token, '/docs/sub')).sort(), ['b.txt', 'moved.txt']);
    // Folders too: MKCOL, then MOVE of the folder within the mount.
    assert.equal((await dav(server, 'MKCOL', enc(`/dav${W}/made`), B())).status, 201);
    assert.equal((await dav(server, 'MOVE', enc(`/dav${W}/made/`), B(), { headers: { destination: `${server.url}${enc(`/dav${W}/sub/made/`)}` } })).status, 201);
    assert.deepEqual((await names(api, alice.token, '/docs/sub')).sort(), ['b.txt', 'made', 'moved.txt']);
  });

  it('"Shared with me" and the mounts themselves cannot be changed; a read mount refuses every write', async () => {
    assert.equal((await dav(server, 'PUT', enc('/dav/Shared with me/x.txt'), B(), { body: 'x' })).status, 403);
    assert.equal((await dav(server, 'MKCOL', enc('/dav/Shared with me/new'), B())).status, 403);
    assert.equal((await dav(server, 'DELETE', enc(`/dav${W}`), B())).status, 403);
    const moveMount = await dav(server, 'MOVE', enc(`/dav${W}/`), B(), { headers: { destination: `${server.url}${enc('/dav/stolen/')}` } });
    assert.equal(moveMount.status, 403);
    const lockBody = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const propBody = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:x>1</Z:x></D:prop></D:set></D:propertyupdate>';
    for (const [method, opts] of [
      ['PUT', { body: 'x' }],
      ['DELETE', {}],
      ['PROPPATCH', { body: propBody }],
      ['LOCK', { body: lockBody }],
      ['MOVE', { headers: { destination: `${server.url}${enc(`/dav${R}/q.jpg`)}` } }],
    ] as const) {
      const res = await dav(server, method, enc(`/dav${R}/p.jpg`), B(), opts as { body?: string; headers?: Record<string, string> });
      assert.equal(res.status, 403, `${method} in a read mount: ${res.status} ${res.text}`);
    }
    // COPY into a read mount from a write mount: the destination refuses.
    const copyIn = await dav(server, 'COPY', enc(`/dav${W}/a.txt`), B(), { headers: { destination: `${server.url}${enc(`/dav${R}/a.txt`)}` } });
    assert.equal(copyIn.status, 403, copyIn.text);
    assert.deepEqual(await names(api, alice.token, '/pics'), ['p.jpg']);
  });

  it('a WebDAV account limited to a shared folder sees and changes just that folder', async () => {
    const acc = await createAccount(api, bob.token, { name: 'docs only', path: W });
    const basic = basicHeader(bob.email, acc.password);
    const root = await propfind('/dav/', basic);
    assert.equal(root.status, 207, root.text);
    assert.deepEqual(hrefs(root.text).sort(), ['/dav/', '/dav/a.txt', '/dav/sub/'].sort());
    assert.equal((await dav(server, 'GET', '/dav/a.txt', basic)).text, 'aaa');
    assert.equal((await dav(server, 'PUT', '/dav/from-account.txt', basic, { body: 'acc' })).status, 201);
    assert.equal((await download(api, alice.token, '/docs/from-account.txt')).body.toString(), 'acc');
    // Nothing above the folder: the owner's other items are not in the account's tree, under any spelling.
    assert.equal((await dav(server, 'GET', '/dav/pics/p.jpg', basic)).status, 404);
    for (const p of ['/dav/../pics/p.jpg', '/dav/%2e%2e/pics/p.jpg', `/dav/sub/${encodeURIComponent('..')}/../pics/p.jpg`]) {
      const res = await dav(server, 'GET', p, basic);
      assert.notEqual(res.text, 'jpeg', p);
    }
  });

  it('an account limited to "Shared with me" lists the mounts; revoking a grant ends access through it', async () => {
    const acc = await createAccount(api, bob.token, { name: 'shared', path: '/Shared with me' });
    const basic = basicHeader(bob.email, acc.password);
    const root = await propfind('/dav/', basic);
    assert.equal(root.status, 207, root.text);
    assert.deepEqual(hrefs(root.text).sort(), ['/dav/', '/dav/Alice – docs/', '/dav/Alice – pics/'].sort());
    assert.equal((await dav(server, 'GET', enc('/dav/Alice – pics/p.jpg'), basic)).text, 'jpeg');
    assert.equal((await dav(server, 'PUT', enc('/dav/Alice – pics/x.jpg'), basic, { body: 'x' })).status, 403);
    const grants = await api.get<{ id: string }[]>(`/api/v4/file/access?path=${encodeURIComponent('/pics')}`, { token: alice.token });
    assert.equal((await api.delete(`/api/v4/file/access/${grants.body.data[0]!.id}`, undefined, { token: alice.token })).status, 200);
    assert.equal((await dav(server, 'GET', enc('/dav/Alice – pics/p.jpg'), basic)).status, 404);
  });
});
