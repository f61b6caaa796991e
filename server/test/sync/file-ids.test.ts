// Numeric file ids for the sync clients (api-contract §14): `oc:fileid` is a
// number (the mobile apps parse a long), `oc:id` and OC-FileId are that number
// zero-padded to 8 digits with the instance id after it, and the number stays
// the item's across rename, move, trash restore and version restore.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { dav, davPerson } from '../webdav/helpers.js';
import { grant } from '../sharing/helpers.js';

const PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/><oc:id/></d:prop></d:propfind>';

function prop(xml: string, href: string, name: string): string | undefined {
  const block = xml.split('<D:response>').find((r) => r.includes(`<D:href>${href}</D:href>`));
  const m = block && new RegExp(`<${name}>([^<]*)</${name}>`).exec(block);
  return m ? m[1] : undefined;
}

describe('sync: numeric file ids', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => server?.close());

  it('oc:fileid is a number, oc:id and OC-FileId its padded form, kept across rename, move, trash restore and version restore', async () => {
    const p = await davPerson(server);
    const root = `/remote.php/dav/files/${p.id}`;
    const ids = async (dir: string, href: string): Promise<{ fileid: string | undefined; id: string | undefined }> => {
      const res = await dav(server, 'PROPFIND', `${root}${dir}`, p.basic, { headers: { depth: '1' }, body: PROPS });
      assert.equal(res.status, 207);
      return { fileid: prop(res.text, `${root}${href}`, 'oc:fileid'), id: prop(res.text, `${root}${href}`, 'oc:id') };
    };
    const created = await dav(server, 'PUT', `${root}/a.txt`, p.basic, { body: 'one' });
    assert.equal(created.status, 201);
    const first = await ids('/', '/a.txt');
    assert.match(first.fileid!, /^[1-9]\d*$/, 'a positive integer');
    assert.ok(Number.isSafeInteger(Number(first.fileid)));
    assert.match(first.id!, /^\d{8,}oc[0-9a-z]{10}$/);
    assert.equal(Number(first.id!.slice(0, -12)), Number(first.fileid));
    assert.equal(created.headers.get('oc-fileid'), first.id);
    const root0 = await ids('/', '/');
    assert.match(root0.fileid!, /^\d+$/);
    assert.notEqual(root0.fileid, first.fileid);

    // Another item gets another number; the same item the same one at every read.
    await put(api, p.token, '/b.txt', 'two');
    const b = await ids('/', '/b.txt');
    assert.notEqual(b.fileid, first.fileid);
    assert.deepEqual(await ids('/', '/a.txt'), first);

    // Rename and move over DAV (the answer's OC-FileId too), and through the API.
    assert.equal((await dav(server, 'MKCOL', `${root}/dir`, p.basic)).status, 201);
    const moved = await dav(server, 'MOVE', `${root}/a.txt`, p.basic, { headers: { destination: `${root}/dir/a2.txt` } });
    assert.equal(moved.status, 201);
    assert.equal(moved.headers.get('oc-fileid'), first.id);
    assert.deepEqual(await ids('/dir/', '/dir/a2.txt'), first);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/dir/a2.txt', new_name: 'a3.txt' }, { token: p.token })).status, 200);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/dir/a3.txt'], dst: '/' }, { token: p.token })).status, 200);
    assert.deepEqual(await ids('/', '/a3.txt'), first);

    // A new version, then the old one restored: the same item.
    await put(api, p.token, '/a3.txt', 'one, edited');
    assert.deepEqual(await ids('/', '/a3.txt'), first);
    const versions = await api.get<Array<{ id: string; current: boolean }>>('/api/v4/file/versions?path=/a3.txt', { token: p.token });
    const old = versions.body.data.find((v) => !v.current)!;
    assert.equal((await api.post('/api/v4/file/versions/restore', { path: '/a3.txt', version_id: old.id }, { token: p.token })).status, 200);
    assert.equal((await dav(server, 'GET', `${root}/a3.txt`, p.basic)).text, 'one');
    assert.deepEqual(await ids('/', '/a3.txt'), first);

    // Deleted over DAV, restored from the trash.
    assert.equal((await dav(server, 'DELETE', `${root}/a3.txt`, p.basic)).status, 204);
    const trash = await api.get<{ files: Array<{ id: string; name: string }> }>('/api/v4/file/trash', { token: p.token });
    const trashed = trash.body.data.files.find((f) => f.name === 'a3.txt')!;
    assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [trashed.id] }, { token: p.token })).status, 200);
    assert.deepEqual(await ids('/', '/a3.txt'), first);

    // A copy is another item.
    const copied = await dav(server, 'COPY', `${root}/a3.txt`, p.basic, { headers: { destination: `${root}/copy.txt` } });
    assert.equal(copied.status, 201);
    const copy = await ids('/', '/copy.txt');
    assert.notEqual(copy.fileid, first.fileid);
    assert.equal(copied.headers.get('oc-fileid'), copy.id);
  });

  it('two people\'s items never share a number; a shared item has its one number for both; "Shared with me" has one too', async () => {
    const p = await davPerson(server);
    const q = await davPerson(server);
    await put(api, p.token, '/x.txt', 'x');
    await put(api, q.token, '/x.txt', 'x');
    assert.equal((await grant(api, q, { path: '/x.txt', user: p.email, permission: 'read' })).status, 200);
    const read = async (who: typeof p, dir = '/') => {
      const res = await dav(server, 'PROPFIND', `/remote.php/dav/files/${who.id}${dir}`, who.basic, { headers: { depth: '1' }, body: PROPS });
      assert.equal(res.status, 207);
      return res.text;
    };
    const pRoot = await read(p);
    const qRoot = await read(q);
    const mine = prop(pRoot, `/remote.php/dav/files/${p.id}/x.txt`, 'oc:fileid')!;
    const theirs = prop(qRoot, `/remote.php/dav/files/${q.id}/x.txt`, 'oc:fileid')!;
    assert.match(mine, /^\d+$/);
    assert.match(theirs, /^\d+$/);
    assert.notEqual(mine, theirs);
    assert.equal(prop(pRoot, `/remote.php/dav/files/${p.id}/Shared%20with%20me/`, 'oc:fileid'), String(Number.MAX_SAFE_INTEGER));
    const shared = await read(p, '/Shared%20with%20me/');
    // Listed under a label that names its owner ("<owner> – x.txt"): the one entry besides the folder itself.
    assert.deepEqual([...shared.matchAll(/<oc:fileid>(\d+)<\/oc:fileid>/g)].map((m) => m[1]), [String(Number.MAX_SAFE_INTEGER), theirs]);
  });
});
