// The sync-client protocol at the HTTP level (api-contract §14): status.php,
// OCS (JSON and XML, v1 and v2, a missing route as a disabled app), who may
// use /remote.php/ (app passwords, never the sign-in password; another
// person's id is 404), the ownCloud headers and properties, and folder ETags
// that change exactly when something beneath changes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { capacity, download, put } from '../files/helpers.js';
import { basicHeader, dav, davPerson } from '../webdav/helpers.js';

const PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop><d:getetag/><d:getlastmodified/><oc:fileid/><oc:id/><oc:permissions/><oc:size/><oc:checksums/><nc:has-preview/><oc:owner-id/></d:prop></d:propfind>';

function prop(xml: string, href: string, name: string): string | undefined {
  const block = xml.split('<D:response>').find((r) => r.includes(`<D:href>${href}</D:href>`));
  const m = block && new RegExp(`<${name}>([^<]*)</${name}>`).exec(block);
  return m ? m[1] : undefined;
}

/** A JSON answer that is not the API's envelope. */
async function getJson<T>(api: Api, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await api.fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as T };
}

describe('sync protocol: status, OCS, /remote.php/', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => server?.close());

  it('status.php names a version current clients accept', async () => {
    const res = await getJson<Record<string, unknown>>(api, '/status.php');
    assert.equal(res.status, 200);
    assert.equal(res.body.installed, true);
    assert.equal(res.body.maintenance, false);
    assert.match(String(res.body.version), /^\d+\.\d+\.\d+\.\d+$/);
    assert.ok(Number(String(res.body.version).split('.')[0]) >= 25);
    assert.equal(typeof res.body.productname, 'string');
  });

  it('OCS capabilities and cloud/user in JSON and XML, v1 (100) and v2 (200); another id is 404; an unknown route is 998', async () => {
    const p = await davPerson(server);
    const caps = await getJson<{ ocs: { meta: { statuscode: number }; data: { capabilities: { core: Record<string, unknown>; dav: { chunking: string }; files: Record<string, unknown> } } } }>(api, '/ocs/v2.php/cloud/capabilities?format=json', { 'OCS-APIRequest': 'true' });
    assert.equal(caps.status, 200);
    assert.equal(caps.body.ocs.meta.statuscode, 200);
    assert.equal(caps.body.ocs.data.capabilities.core['webdav-root'], 'remote.php/webdav');
    // Chunked uploads under /remote.php/dav/uploads/ (chunked-upload.test.ts, big-file.test.ts).
    assert.equal(caps.body.ocs.data.capabilities.dav.chunking, '1.0');
    assert.equal(caps.body.ocs.data.capabilities.files.bigfilechunking, true);
    assert.equal(caps.body.ocs.data.capabilities.files.undelete, true);
    const v1 = await api.get('/ocs/v1.php/cloud/capabilities', { headers: { 'OCS-APIRequest': 'true' } });
    assert.match(v1.text, /<statuscode>100<\/statuscode>/);
    assert.match(v1.text, /<webdav-root>remote.php\/webdav<\/webdav-root>/);

    const me = await getJson<{ ocs: { data: { id: string; email: string; quota: { total: number; used: number } } } }>(api, '/ocs/v2.php/cloud/user?format=json', { authorization: p.basic, 'OCS-APIRequest': 'true' });
    assert.equal(me.status, 200);
    assert.equal(me.body.ocs.data.id, p.id);
    assert.equal(me.body.ocs.data.email, p.email);
    assert.equal(me.body.ocs.data.quota.total, (await capacity(api, p.token)).total);
    const xml = await api.get(`/ocs/v1.php/cloud/users/${p.id}`, { headers: { authorization: p.basic } });
    assert.match(xml.text, new RegExp(`<id>${p.id}</id>`));
    const other = await davPerson(server);
    assert.equal((await api.get(`/ocs/v2.php/cloud/users/${other.id}?format=json`, { headers: { authorization: p.basic } })).status, 404);
    const anon = await getJson<{ ocs: { meta: { statuscode: number } } }>(api, '/ocs/v2.php/cloud/user?format=json');
    assert.equal(anon.status, 401);
    assert.equal(anon.body.ocs.meta.statuscode, 997);
    for (const url of ['/ocs/v2.php/apps/notifications/api/v2/notifications?format=json', '/ocs/v1.php/apps/unknown/x?format=json']) {
      const res = await getJson<{ ocs: { meta: { statuscode: number } } }>(api, url, { authorization: p.basic });
      assert.equal(res.status, 404, url);
      assert.equal(res.body.ocs.meta.statuscode, 998, url);
    }
  });

  it('the sign-in password is refused; another person\'s id in the path is 404; the legacy root shows the same tree', async () => {
    const p = await davPerson(server);
    const other = await davPerson(server);
    await put(api, other.token, '/secret.txt', 'theirs');
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, basicHeader(p.email, 'user-password-123'), { headers: { depth: '0' } })).status, 401);
    const theirs = await dav(server, 'PROPFIND', `/remote.php/dav/files/${other.id}/`, p.basic, { headers: { depth: '1' } });
    assert.equal(theirs.status, 404);
    assert.doesNotMatch(theirs.text, /secret/);
    assert.equal((await dav(server, 'GET', `/remote.php/dav/files/${other.id}/secret.txt`, p.basic)).status, 404);
    assert.equal((await dav(server, 'PUT', `/remote.php/dav/files/${other.id}/x.txt`, p.basic, { body: 'x' })).status, 404);
    await put(api, p.token, '/mine.txt', 'mine');
    const legacy = await dav(server, 'PROPFIND', '/remote.php/webdav/', p.basic, { headers: { depth: '1' }, body: PROPS });
    assert.equal(legacy.status, 207);
    assert.match(legacy.text, /<D:href>\/remote.php\/webdav\/mine.txt<\/D:href>/);
  });

  it('PUT keeps X-OC-Mtime, verifies OC-Checksum (a mismatch is 400 and stores nothing), answers OC-FileId and OC-ETag; MOVE keeps the file id', async () => {
    const p = await davPerson(server);
    const root = `/remote.php/dav/files/${p.id}`;
    const body = 'checked bytes';
    const sha1 = createHash('sha1').update(body).digest('hex');
    const bad = await dav(server, 'PUT', `${root}/c.txt`, p.basic, { body, headers: { 'OC-Checksum': `SHA1:${'0'.repeat(40)}` } });
    assert.equal(bad.status, 400);
    assert.equal((await download(api, p.token, '/c.txt')).status, 404);
    assert.equal((await capacity(api, p.token)).used, 0);
    assert.equal((await dav(server, 'PUT', `${root}/c.txt`, p.basic, { body, headers: { 'OC-Checksum': 'SHA1:xyz' } })).status, 400);

    const ok = await dav(server, 'PUT', `${root}/c.txt`, p.basic, { body, headers: { 'OC-Checksum': `SHA1:${sha1}`, 'X-OC-Mtime': '1500000000' } });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get('x-oc-mtime'), 'accepted');
    const fileId = ok.headers.get('oc-fileid');
    assert.ok(fileId);
    assert.ok(ok.headers.get('oc-etag'));
    const adler = await dav(server, 'PUT', `${root}/a.txt`, p.basic, { body: 'Wikipedia', headers: { 'OC-Checksum': 'ADLER32:11e60398' } });
    assert.equal(adler.status, 201);

    const listing = await dav(server, 'PROPFIND', `${root}/`, p.basic, { headers: { depth: '1' }, body: PROPS });
    assert.equal(listing.status, 207);
    assert.equal(prop(listing.text, `${root}/c.txt`, 'oc:id'), fileId);
    assert.equal(prop(listing.text, `${root}/c.txt`, 'oc:checksum'), `SHA1:${sha1}`);
    assert.equal(prop(listing.text, `${root}/c.txt`, 'D:getlastmodified'), new Date(1500000000 * 1000).toUTCString());
    assert.equal(prop(listing.text, `${root}/c.txt`, 'oc:permissions'), 'GDNVW');
    assert.equal(prop(listing.text, `${root}/`, 'oc:permissions'), 'GCK');

    assert.equal((await dav(server, 'MKCOL', `${root}/dir`, p.basic)).status, 201);
    const moved = await dav(server, 'MOVE', `${root}/c.txt`, p.basic, { headers: { destination: `${server.url}${root}/dir/c%20moved.txt` } });
    assert.equal(moved.status, 201);
    assert.equal(moved.headers.get('oc-fileid'), fileId);
    const after = await dav(server, 'PROPFIND', `${root}/dir/`, p.basic, { headers: { depth: '1' }, body: PROPS });
    assert.equal(prop(after.text, `${root}/dir/c%20moved.txt`, 'oc:id'), fileId);
  });

  it('a folder ETag changes whenever something beneath changes, and only then', async () => {
    const p = await davPerson(server);
    const root = `/remote.php/dav/files/${p.id}`;
    for (const f of ['/a/b/c/deep.txt', '/a/side.txt', '/other/o.txt']) await put(api, p.token, f, 'x');
    const etags = async (): Promise<Record<string, string>> => {
      const out: Record<string, string> = {};
      for (const d of ['/', '/a/', '/a/b/', '/a/b/c/', '/other/']) {
        const res = await dav(server, 'PROPFIND', `${root}${d}`, p.basic, { headers: { depth: '0' }, body: PROPS });
        out[d] = prop(res.text, `${root}${d}`, 'D:getetag')!;
      }
      return out;
    };
    const t0 = await etags();
    assert.deepEqual(await etags(), t0, 'nothing changed, nothing moves');
    await put(api, p.token, '/a/b/c/deep.txt', 'changed');
    const t1 = await etags();
    for (const d of ['/', '/a/', '/a/b/', '/a/b/c/']) assert.notEqual(t1[d], t0[d], `${d} is above the change`);
    assert.equal(t1['/other/'], t0['/other/']);
    // A rename, a delete, an added item: each changes the folders above.
    await api.post('/api/v4/file/rename', { path: '/a/side.txt', new_name: 'side2.txt' }, { token: p.token });
    const t2 = await etags();
    assert.notEqual(t2['/a/'], t1['/a/']);
    assert.equal(t2['/a/b/'], t1['/a/b/']);
    assert.equal(t2['/other/'], t1['/other/']);
    await api.call('DELETE', '/api/v4/file', { token: p.token, json: { paths: ['/other/o.txt'] } });
    const t3 = await etags();
    assert.notEqual(t3['/other/'], t2['/other/']);
    assert.equal(t3['/a/'], t2['/a/']);
    // Moving a folder away and back: everything beneath it is new to a client, so its ETags change.
    await api.post('/api/v4/file/move', { paths: ['/a/b'], dst: '/other' }, { token: p.token });
    await put(api, p.token, '/other/b/c/deep.txt', 'changed while away');
    await api.post('/api/v4/file/move', { paths: ['/other/b'], dst: '/a' }, { token: p.token });
    const t4 = await etags();
    assert.notEqual(t4['/a/b/c/'], t3['/a/b/c/']);
  });

  it('an app password deletes itself (DELETE core/apppassword); a token cannot', async () => {
    const p = await davPerson(server);
    const res = await api.call('DELETE', '/ocs/v2.php/core/apppassword?format=json', { headers: { authorization: p.basic, 'OCS-APIRequest': 'true' } });
    assert.equal(res.status, 200);
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, p.basic, { headers: { depth: '0' } })).status, 401);
    assert.equal((await api.get<{ accounts: unknown[] }>('/api/v4/devices/dav', { token: p.token })).body.data.accounts.length, 0);
    assert.equal((await api.call('DELETE', '/ocs/v2.php/core/apppassword', { headers: { authorization: `Bearer ${p.token}` } })).status, 403);
  });

  it('a revoked device retrying its password is throttled alone: the owner\'s other devices go on', async () => {
    const p = await davPerson(server);
    const second = await api.put<{ password: string }>('/api/v4/devices/dav', { name: 'phone' }, { token: p.token });
    const phone = basicHeader(p.email, second.body.data.password);
    await api.call('DELETE', `/api/v4/devices/dav/${p.account.id}`, { token: p.token });
    let last = 0;
    for (let i = 0; i < 8; i++) last = (await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, p.basic, { headers: { depth: '0' } })).status;
    assert.equal(last, 429);
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}/`, phone, { headers: { depth: '0' } })).status, 207);
  });

  it('a desktop client\'s PUT gets an interim 100 Continue before its body is read (RFC 9110 §15.2); other clients get none', async () => {
    const p = await davPerson(server);
    const { host, hostname, port } = new URL(server.url);
    /** One PUT over a raw socket: headers in one write, the body in a second (as the desktop clients send them); the bytes answered. */
    const rawPut = (name: string, userAgent: string) =>
      new Promise<string>((resolve, reject) => {
        const body = 'twelve bytes';
        const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
        let answer = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          answer += chunk;
          if (/\r\n\r\n/.test(answer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))) socket.end();
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.write(
          `PUT /remote.php/dav/files/${p.id}/${name} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${p.basic}\r\nUser-Agent: ${userAgent}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
          () => setTimeout(() => socket.write(body), 100),
        );
      });
    const desktop = await rawPut('desktop.txt', 'Mozilla/5.0 (Linux) mirall/3.7.3git (nextcloudcmd, debian)');
    assert.match(desktop, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    const other = await rawPut('other.txt', 'curl/8.5.0');
    assert.match(other, /^HTTP\/1\.1 201 /);
    // Both bodies were stored whole.
    for (const name of ['desktop.txt', 'other.txt']) assert.equal((await dav(server, 'GET', `/remote.php/dav/files/${p.id}/${name}`, p.basic)).text, 'twelve bytes');
  });
});
