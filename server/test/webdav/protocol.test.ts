// /dav/ over HTTP (RFC 4918 class 1 and 2, RFC 4331, RFC 9110 ranges and
// conditionals), and one tree with the file API: what WebDAV writes the API
// sees, DELETE goes to the trash, the quota holds, Bearer tokens work.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { FILE, newFileRow } from '../../src/files/repository.js';
import { adminToken, download, names, put } from '../files/helpers.js';
import { davPerson, dav, type DavPerson } from './helpers.js';

const xml = (body: string) => `<?xml version="1.0" encoding="utf-8"?>${body}`;
const LOCKINFO = (scope: 'exclusive' | 'shared') =>
  xml(`<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:me@example.com</D:href></D:owner></D:lockinfo>`);

describe('WebDAV protocol', () => {
  let server: TestServer;
  let api: Api;
  let p: DavPerson;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    p = await davPerson(server);
  });
  after(() => server.close());

  it('RFC 4918 §10.1, §18: OPTIONS announces DAV: 1, 2, the methods and MS-Author-Via without credentials', async () => {
    const res = await dav(server, 'OPTIONS', '/dav/', null);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('dav'), '1, 2');
    assert.equal(res.headers.get('ms-author-via'), 'DAV');
    for (const m of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'PUT', 'DELETE']) assert.match(res.headers.get('allow') ?? '', new RegExp(m));
  });

  it('RFC 4918 §9.7 and §9.3: PUT creates (201) and replaces (204); MKCOL 201, on an existing URL 405, without a parent 409; the API sees it all', async () => {
    assert.equal((await dav(server, 'MKCOL', '/dav/docs', p.basic)).status, 201);
    assert.equal((await dav(server, 'MKCOL', '/dav/docs', p.basic)).status, 405);
    assert.equal((await dav(server, 'MKCOL', '/dav/no/such', p.basic)).status, 409);
    assert.equal((await dav(server, 'PUT', '/dav/docs/a.txt', p.basic, { body: 'first' })).status, 201);
    assert.equal((await dav(server, 'PUT', '/dav/docs/a.txt', p.basic, { body: 'second' })).status, 204);
    assert.equal((await dav(server, 'PUT', '/dav/missing/a.txt', p.basic, { body: 'x' })).status, 409);
    assert.equal((await dav(server, 'PUT', '/dav/docs', p.basic, { body: 'x' })).status, 405);
    assert.deepEqual(await names(api, p.token, '/docs'), ['a.txt']);
    assert.equal((await download(api, p.token, '/docs/a.txt')).body.toString(), 'second');
    // And what the API writes, WebDAV reads.
    await put(api, p.token, '/docs/from-api.txt', 'api bytes');
    assert.equal((await dav(server, 'GET', '/dav/docs/from-api.txt', p.basic)).text, 'api bytes');
  });

  it('RFC 9110 §14, §13: GET with Range (206), If-None-Match (304) and If-Match (412); HEAD has the headers and no body', async () => {
    await dav(server, 'PUT', '/dav/range.txt', p.basic, { body: '0123456789' });
    const full = await dav(server, 'GET', '/dav/range.txt', p.basic);
    const etag = full.headers.get('etag')!;
    assert.ok(etag);
    const part = await dav(server, 'GET', '/dav/range.txt', p.basic, { headers: { range: 'bytes=2-4' } });
    assert.equal(part.status, 206);
    assert.equal(part.text, '234');
    assert.equal(part.headers.get('content-range'), 'bytes 2-4/10');
    assert.equal((await dav(server, 'GET', '/dav/range.txt', p.basic, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await dav(server, 'PUT', '/dav/range.txt', p.basic, { body: 'x', headers: { 'if-match': '"other"' } })).status, 412);
    assert.equal((await dav(server, 'PUT', '/dav/range.txt', p.basic, { body: 'x', headers: { 'if-none-match': '*' } })).status, 412);
    const head = await dav(server, 'HEAD', '/dav/range.txt', p.basic);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '10');
    assert.equal(head.text, '');
  });

  it('RFC 4918 §9.1: PROPFIND Depth 0 and 1 give the live properties; Depth infinity is 403 propfind-finite-depth', async () => {
    await dav(server, 'MKCOL', '/dav/pf', p.basic);
    await dav(server, 'PUT', '/dav/pf/one.txt', p.basic, { body: 'hello' });
    const d1 = await dav(server, 'PROPFIND', '/dav/pf/', p.basic, { headers: { depth: '1' } });
    assert.equal(d1.status, 207);
    assert.match(d1.headers.get('content-type') ?? '', /application\/xml/);
    assert.match(d1.text, /<D:href>\/dav\/pf\/<\/D:href>.*<D:resourcetype><D:collection\/><\/D:resourcetype>/s);
    assert.match(d1.text, /<D:href>\/dav\/pf\/one.txt<\/D:href>.*<D:getcontentlength>5<\/D:getcontentlength>/s);
    assert.match(d1.text, /<D:getcontenttype>text\/plain/);
    assert.match(d1.text, /<D:getlastmodified>\w{3}, \d\d \w{3} \d{4}/);
    assert.match(d1.text, /<D:getetag>&quot;/);
    const d0 = await dav(server, 'PROPFIND', '/dav/pf/', p.basic, { headers: { depth: '0' } });
    assert.doesNotMatch(d0.text, /one.txt/);
    for (const depth of ['infinity', undefined]) {
      const inf = await dav(server, 'PROPFIND', '/dav/pf/', p.basic, { headers: depth ? { depth } : {} });
      assert.equal(inf.status, 403);
      assert.match(inf.text, /<D:propfind-finite-depth\/>/);
    }
    const missing = await dav(server, 'PROPFIND', '/dav/nope', p.basic, { headers: { depth: '0' } });
    assert.equal(missing.status, 404);
  });

  it('RFC 4331 §3, §4: quota-used-bytes and quota-available-bytes follow the quota', async () => {
    const admin = await adminToken(api);
    const q = await davPerson(server);
    await api.put(`/api/v4/admin/user/${q.id}`, { storage_quota: 1000 }, { token: admin });
    await dav(server, 'PUT', '/dav/q.bin', q.basic, { body: Buffer.alloc(300) });
    const body = xml('<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>');
    const res = await dav(server, 'PROPFIND', '/dav/', q.basic, { headers: { depth: '0' }, body });
    assert.match(res.text, /<D:quota-used-bytes>300<\/D:quota-used-bytes>/);
    assert.match(res.text, /<D:quota-available-bytes>700<\/D:quota-available-bytes>/);
  });

  it('RFC 4918 §9.2, §4.3: PROPPATCH stores dead properties with their namespaces; protected live properties are 403 and nothing is applied', async () => {
    await dav(server, 'PUT', '/dav/props.txt', p.basic, { body: 'p' });
    const set = xml('<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:set><D:prop><Z:color>blue</Z:color><Z:rich><Z:a x="1">ü &amp; 𝄞</Z:a></Z:rich></D:prop></D:set></D:propertyupdate>');
    const res = await dav(server, 'PROPPATCH', '/dav/props.txt', p.basic, { body: set });
    assert.equal(res.status, 207);
    assert.match(res.text, /HTTP\/1.1 200 OK/);
    const find = xml('<D:propfind xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:prop><Z:color/><Z:rich/><Z:absent/></D:prop></D:propfind>');
    const got = await dav(server, 'PROPFIND', '/dav/props.txt', p.basic, { headers: { depth: '0' }, body: find });
    assert.match(got.text, /<ns0:color xmlns:ns0="urn:example:z">blue<\/ns0:color>/);
    assert.match(got.text, /<ns0:a x="1">ü &amp; 𝄞<\/ns0:a>/);
    assert.match(got.text, /404 Not Found/);
    const bad = xml('<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:set><D:prop><D:getetag>"x"</D:getetag><Z:color>red</Z:color></D:prop></D:set></D:propertyupdate>');
    const refused = await dav(server, 'PROPPATCH', '/dav/props.txt', p.basic, { body: bad });
    assert.equal(refused.status, 207);
    assert.match(refused.text, /403 Forbidden.*cannot-modify-protected-property/s);
    assert.match(refused.text, /424 Failed Dependency/);
    const after = await dav(server, 'PROPFIND', '/dav/props.txt', p.basic, { headers: { depth: '0' }, body: find });
    assert.match(after.text, />blue</);
    // Properties follow the file through a MOVE and are copied by COPY.
    assert.equal((await dav(server, 'MOVE', '/dav/props.txt', p.basic, { headers: { destination: '/dav/props2.txt' } })).status, 201);
    assert.equal((await dav(server, 'COPY', '/dav/props2.txt', p.basic, { headers: { destination: '/dav/props3.txt' } })).status, 201);
    for (const path of ['/dav/props2.txt', '/dav/props3.txt']) assert.match((await dav(server, 'PROPFIND', path, p.basic, { headers: { depth: '0' }, body: find })).text, />blue</);
  });

  it('RFC 4918 §9.6: DELETE moves to the trash, like the API; the item can be restored', async () => {
    await dav(server, 'PUT', '/dav/trash-me.txt', p.basic, { body: 'keep me' });
    assert.equal((await dav(server, 'DELETE', '/dav/trash-me.txt', p.basic)).status, 204);
    assert.equal((await dav(server, 'GET', '/dav/trash-me.txt', p.basic)).status, 404);
    const trash = await api.get<{ files: { id: string; name: string }[] }>('/api/v4/file/trash', { token: p.token });
    const item = trash.body.data.files.find((f) => f.name === 'trash-me.txt');
    assert.ok(item, 'in the trash');
    await api.post('/api/v4/file/trash/restore', { ids: [item.id] }, { token: p.token });
    assert.equal((await dav(server, 'GET', '/dav/trash-me.txt', p.basic)).text, 'keep me');
    assert.equal((await dav(server, 'DELETE', '/dav/', p.basic)).status, 403);
  });

  it('RFC 4918 §9.8, §9.9: COPY and MOVE with Overwrite (412 on F), Depth 0 copies a folder without members, a replaced file becomes a version, a replaced folder goes to the trash', async () => {
    await dav(server, 'MKCOL', '/dav/cm', p.basic);
    await dav(server, 'MKCOL', '/dav/cm/src', p.basic);
    await dav(server, 'PUT', '/dav/cm/src/f.txt', p.basic, { body: 'f' });
    await dav(server, 'PUT', '/dav/cm/other.txt', p.basic, { body: 'other' });
    assert.equal((await dav(server, 'COPY', '/dav/cm/src/', p.basic, { headers: { destination: `${server.url}/dav/cm/deep/` } })).status, 201);
    assert.equal((await dav(server, 'GET', '/dav/cm/deep/f.txt', p.basic)).text, 'f');
    assert.equal((await dav(server, 'COPY', '/dav/cm/src/', p.basic, { headers: { destination: '/dav/cm/shallow/', depth: '0' } })).status, 201);
    assert.deepEqual(await names(api, p.token, '/cm/shallow'), []);
    assert.equal((await dav(server, 'COPY', '/dav/cm/other.txt', p.basic, { headers: { destination: '/dav/cm/src/f.txt', overwrite: 'F' } })).status, 412);
    assert.equal((await dav(server, 'MOVE', '/dav/cm/other.txt', p.basic, { headers: { destination: '/dav/cm/src/f.txt' } })).status, 204);
    assert.equal((await dav(server, 'GET', '/dav/cm/src/f.txt', p.basic)).text, 'other');
    // A file moved over a file keeps the replaced content as a version of the destination (issue 21), not in the trash.
    const versions = await api.get<{ size: number; current: boolean }[]>('/api/v4/file/versions?path=%2Fcm%2Fsrc%2Ff.txt', { token: p.token });
    assert.deepEqual(versions.body.data.map((v) => [v.size, v.current]), [[5, true], [1, false]], 'the replaced file is a version of the destination');
    // A folder replaced by MOVE goes to the trash.
    await dav(server, 'MKCOL', '/dav/cm/gone', p.basic);
    await dav(server, 'MKCOL', '/dav/cm/mover', p.basic);
    assert.equal((await dav(server, 'MOVE', '/dav/cm/mover/', p.basic, { headers: { destination: '/dav/cm/gone/' } })).status, 204);
    const trash = await api.get<{ files: { name: string }[] }>('/api/v4/file/trash', { token: p.token });
    assert.ok(trash.body.data.files.some((f) => f.name === 'gone'), 'the replaced folder is in the trash');
    assert.equal((await dav(server, 'MOVE', '/dav/cm/src/', p.basic, { headers: { destination: '/dav/cm/src/inner/' } })).status, 403);
    assert.equal((await dav(server, 'MOVE', '/dav/cm/src/', p.basic, { headers: { destination: '/dav/nowhere/x/' } })).status, 409);
    assert.equal((await dav(server, 'MOVE', '/dav/cm/src/', p.basic, {})).status, 400);
  });

  it('RFC 4918 §9.10, §9.11, §10.4: LOCK, the If header, refresh, a second lock 423, UNLOCK', async () => {
    await dav(server, 'PUT', '/dav/locked.txt', p.basic, { body: 'v1' });
    const lock = await dav(server, 'LOCK', '/dav/locked.txt', p.basic, { body: LOCKINFO('exclusive'), headers: { timeout: 'Second-600' } });
    assert.equal(lock.status, 200);
    const token = /^<(.+)>$/.exec(lock.headers.get('lock-token') ?? '')?.[1];
    assert.ok(token?.startsWith('urn:uuid:'));
    assert.match(lock.text, /<D:timeout>Second-(600|599)<\/D:timeout>/);
    assert.match(lock.text, /mailto:me@example.com/);
    assert.equal((await dav(server, 'PUT', '/dav/locked.txt', p.basic, { body: 'v2' })).status, 423);
    assert.equal((await dav(server, 'LOCK', '/dav/locked.txt', p.basic, { body: LOCKINFO('shared') })).status, 423);
    assert.equal((await dav(server, 'PUT', '/dav/locked.txt', p.basic, { body: 'v2', headers: { if: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' } })).status, 412);
    assert.equal((await dav(server, 'PUT', '/dav/locked.txt', p.basic, { body: 'v2', headers: { if: `(<${token}>)` } })).status, 204);
    // The API is one tree: it sees the locked write.
    assert.equal((await download(api, p.token, '/locked.txt')).body.toString(), 'v2');
    const refresh = await dav(server, 'LOCK', '/dav/locked.txt', p.basic, { headers: { if: `(<${token}>)`, timeout: 'Second-100' } });
    assert.equal(refresh.status, 200);
    assert.match(refresh.text, /Second-(100|99)/);
    const discover = await dav(server, 'PROPFIND', '/dav/locked.txt', p.basic, { headers: { depth: '0' } });
    assert.match(discover.text, new RegExp(`<D:lockdiscovery><D:activelock>.*${token}`));
    assert.equal((await dav(server, 'UNLOCK', '/dav/locked.txt', p.basic, { headers: { 'lock-token': '<urn:uuid:bogus>' } })).status, 409);
    assert.equal((await dav(server, 'UNLOCK', '/dav/locked.txt', p.basic, { headers: { 'lock-token': `<${token}>` } })).status, 204);
    assert.equal((await dav(server, 'PUT', '/dav/locked.txt', p.basic, { body: 'v3' })).status, 204);
    // §7.3: a LOCK on an unmapped URL creates an empty resource (201).
    const fresh = await dav(server, 'LOCK', '/dav/lock-null.txt', p.basic, { body: LOCKINFO('exclusive') });
    assert.equal(fresh.status, 201);
    assert.equal((await download(api, p.token, '/lock-null.txt')).body.length, 0);
  });

  it('RFC 4918 §6.1: shared locks coexist, an exclusive one does not; a depth-infinity lock on a folder protects its members', async () => {
    await dav(server, 'PUT', '/dav/shared.txt', p.basic, { body: 's' });
    const a = await dav(server, 'LOCK', '/dav/shared.txt', p.basic, { body: LOCKINFO('shared') });
    const b = await dav(server, 'LOCK', '/dav/shared.txt', p.basic, { body: LOCKINFO('shared') });
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal((await dav(server, 'LOCK', '/dav/shared.txt', p.basic, { body: LOCKINFO('exclusive') })).status, 423);
    await dav(server, 'MKCOL', '/dav/lockdir', p.basic);
    await dav(server, 'PUT', '/dav/lockdir/m.txt', p.basic, { body: 'm' });
    const dirLock = await dav(server, 'LOCK', '/dav/lockdir/', p.basic, { body: LOCKINFO('exclusive'), headers: { depth: 'infinity' } });
    assert.equal(dirLock.status, 200);
    const token = /^<(.+)>$/.exec(dirLock.headers.get('lock-token') ?? '')?.[1];
    assert.equal((await dav(server, 'DELETE', '/dav/lockdir/m.txt', p.basic)).status, 423);
    assert.equal((await dav(server, 'PUT', '/dav/lockdir/new.txt', p.basic, { body: 'n' })).status, 423);
    assert.equal((await dav(server, 'PUT', '/dav/lockdir/new.txt', p.basic, { body: 'n', headers: { if: `(<${token}>)` } })).status, 201);
    assert.equal((await dav(server, 'DELETE', '/dav/lockdir/', p.basic)).status, 423);
  });

  it('a Depth 1 PROPFIND of a large folder is streamed (chunked) and lists every entry', async () => {
    const q = await davPerson(server);
    // Seeded through the file service's store: 2,500 PUTs would only slow the suite; the listing is what is tested.
    const folder = await server.built.services.files.files.create(q.id, '/big', 'folder');
    const store = server.built.services.files.files.tree.store;
    const now = Date.now();
    const rows = Array.from({ length: 2500 }, (_, i) =>
      newFileRow({ id: `big${String(i).padStart(13, '0')}`, owner_id: q.id, parent_id: folder.row.id, name: `f${String(i).padStart(5, '0')}.txt`, kind: FILE, mime_type: 'text/plain', created_at: now }),
    );
    await store.tree.insert(rows);
    const res = await fetch(`${server.url}/dav/big/`, { method: 'PROPFIND', headers: { authorization: q.basic, depth: '1' } });
    assert.equal(res.status, 207);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    assert.equal(res.headers.get('content-length'), null);
    const text = await res.text();
    assert.equal(text.match(/<D:response>/g)?.length, 2501);
    assert.match(text, /f02499\.txt/);
    assert.match(text, /<\/D:multistatus>\s*$/);
  });

  it('RFC 4918 §9.1: a Depth 1 PROPFIND gives each member its own dead properties, whether they are few (read before the pages) or more than 1 MiB (read with each page)', async () => {
    const q = await davPerson(server);
    const set = (value: string) => xml(`<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:set><D:prop><Z:tag>${value}</Z:tag></D:prop></D:set></D:propertyupdate>`);
    /** The DAV:response of the member whose href ends with `name`. */
    const responseOf = (text: string, name: string) => text.split('<D:response>').find((r) => r.includes(`${name}</D:href>`)) ?? '';
    assert.equal((await dav(server, 'MKCOL', '/dav/dp', q.basic)).status, 201);
    assert.equal((await dav(server, 'MKCOL', '/dav/dp/sub', q.basic)).status, 201);
    for (const name of ['a.txt', 'b.txt']) assert.equal((await dav(server, 'PUT', `/dav/dp/${name}`, q.basic, { body: name })).status, 201);
    assert.equal((await dav(server, 'PROPPATCH', '/dav/dp/a.txt', q.basic, { body: set('for-a') })).status, 207);
    assert.equal((await dav(server, 'PROPPATCH', '/dav/dp/sub', q.basic, { body: set('for-sub') })).status, 207);
    const few = await dav(server, 'PROPFIND', '/dav/dp/', q.basic, { headers: { depth: '1' } });
    assert.equal(few.status, 207);
    assert.match(responseOf(few.text, '/dav/dp/a.txt'), /<ns0:tag xmlns:ns0="urn:example:z">for-a<\/ns0:tag>/);
    assert.match(responseOf(few.text, '/dav/dp/sub/'), />for-sub</);
    assert.doesNotMatch(responseOf(few.text, '/dav/dp/b.txt'), /urn:example:z/);
    // By name: the member without it gets the name under 404.
    const named = await dav(server, 'PROPFIND', '/dav/dp/', q.basic, { headers: { depth: '1' }, body: xml('<D:propfind xmlns:D="DAV:" xmlns:Z="urn:example:z"><D:prop><Z:tag/></D:prop></D:propfind>') });
    assert.match(responseOf(named.text, '/dav/dp/b.txt'), /<X:tag xmlns:X="urn:example:z"\/>.*404 Not Found/s);
    assert.match(responseOf(named.text, '/dav/dp/a.txt'), />for-a<.*200 OK/s);

    // 18 members of about 60 KiB of properties each: over 1 MiB together, so read page by page.
    assert.equal((await dav(server, 'MKCOL', '/dav/dp/many', q.basic)).status, 201);
    const big = (i: number) => `m${i}-${'x'.repeat(60 * 1024)}`;
    for (let i = 0; i < 18; i++) {
      assert.equal((await dav(server, 'PUT', `/dav/dp/many/m${i}.txt`, q.basic, { body: String(i) })).status, 201);
      const patched = await dav(server, 'PROPPATCH', `/dav/dp/many/m${i}.txt`, q.basic, { body: set(big(i)) });
      assert.match(patched.text, /200 OK/);
    }
    const many = await dav(server, 'PROPFIND', '/dav/dp/many/', q.basic, { headers: { depth: '1' } });
    assert.equal(many.status, 207);
    for (let i = 0; i < 18; i++) {
      const response = responseOf(many.text, `/dav/dp/many/m${i}.txt`);
      assert.ok(response.includes(`>${big(i)}<`), `m${i}.txt has its own property`);
      assert.equal(response.match(/urn:example:z/g)?.length, 1, `m${i}.txt has only its own property`);
    }
  });

  it('Bearer tokens work on /dav/ like Basic, and see the whole tree', async () => {
    await put(api, p.token, '/bearer.txt', 'via bearer');
    const res = await dav(server, 'GET', '/dav/bearer.txt', `Bearer ${p.token}`);
    assert.equal(res.status, 200);
    assert.equal(res.text, 'via bearer');
    assert.equal((await dav(server, 'PUT', '/dav/bearer2.txt', `Bearer ${p.token}`, { body: 'b' })).status, 201);
  });
});
