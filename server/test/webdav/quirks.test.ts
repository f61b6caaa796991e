// What real WebDAV clients do, each as a test: Windows' Mini-Redirector,
// macOS Finder, the empty PUT before the real one, chunked bodies, and names
// that are percent-encoded or Unicode in NFC and NFD.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, names } from '../files/helpers.js';
import { dav, davPerson, type DavPerson } from './helpers.js';

/** A PUT whose body is sent chunked (no Content-Length), as Finder and streaming clients do. */
function chunkedPut(server: TestServer, path: string, auth: string, parts: Buffer[], headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url + path);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { authorization: auth, 'transfer-encoding': 'chunked', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('WebDAV client quirks', () => {
  let server: TestServer;
  let api: Api;
  let p: DavPerson;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    p = await davPerson(server);
  });
  after(() => server.close());

  it('Windows Mini-Redirector: anonymous OPTIONS with MS-Author-Via, Translate: f, /dav without a slash, LOCK with a Windows owner, PUT with the token, Win32 PROPPATCH, UNLOCK', async () => {
    const options = await dav(server, 'OPTIONS', '/dav', null, { headers: { 'user-agent': 'Microsoft-WebDAV-MiniRedir/10.0.19045', translate: 'f' } });
    assert.equal(options.status, 200);
    assert.equal(options.headers.get('ms-author-via'), 'DAV');
    assert.equal(options.headers.get('dav'), '1, 2');
    const root = await dav(server, 'PROPFIND', '/dav', p.basic, { headers: { depth: '0', translate: 'f' } });
    assert.equal(root.status, 207);
    assert.match(root.text, /<D:href>\/dav\/<\/D:href>/);
    // Explorer saves: empty PUT, LOCK, PUT with the lock token, PROPPATCH of Win32 times, UNLOCK.
    assert.equal((await dav(server, 'PUT', '/dav/Report.docx', p.basic, { headers: { 'content-length': '0', translate: 'f' } })).status, 201);
    const lock = await dav(server, 'LOCK', '/dav/Report.docx', p.basic, {
      headers: { timeout: 'Second-3600', 'content-type': 'text/xml; charset="utf-8"' },
      body: '<?xml version="1.0" encoding="utf-8" ?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>DESKTOP-1\\alice</D:href></D:owner></D:lockinfo>',
    });
    assert.equal(lock.status, 200);
    assert.match(lock.text, /DESKTOP-1\\alice/);
    const token = lock.headers.get('lock-token')!;
    assert.equal((await dav(server, 'PUT', '/dav/Report.docx', p.basic, { headers: { if: `(${token})`, translate: 'f' }, body: 'DOCX bytes' })).status, 204);
    const win32 =
      '<?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>' +
      '<Z:Win32CreationTime>Mon, 23 Nov 2026 01:02:03 GMT</Z:Win32CreationTime><Z:Win32LastModifiedTime>Mon, 23 Nov 2026 01:02:04 GMT</Z:Win32LastModifiedTime>' +
      '<Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>';
    const patched = await dav(server, 'PROPPATCH', '/dav/Report.docx', p.basic, { headers: { if: `(${token})` }, body: win32 });
    assert.equal(patched.status, 207);
    assert.match(patched.text, /200 OK/);
    assert.equal((await dav(server, 'UNLOCK', '/dav/Report.docx', p.basic, { headers: { 'lock-token': token } })).status, 204);
    assert.equal((await download(api, p.token, '/Report.docx')).body.toString(), 'DOCX bytes');
    const props = await dav(server, 'PROPFIND', '/dav/Report.docx', p.basic, { headers: { depth: '0' } });
    assert.match(props.text, /Win32FileAttributes xmlns:ns0="urn:schemas-microsoft-com:">00000020/);
  });

  it('macOS Finder: ._ AppleDouble files and .DS_Store are ordinary files; chunked PUT with X-Expected-Entity-Length', async () => {
    await dav(server, 'MKCOL', '/dav/mac', p.basic);
    assert.equal(await chunkedPut(server, '/dav/mac/photo.jpg', p.basic, [Buffer.from('JPEG'), Buffer.from('DATA')], { 'x-expected-entity-length': '8' }), 201);
    assert.equal(await chunkedPut(server, '/dav/mac/._photo.jpg', p.basic, [Buffer.from('appledouble')]), 201);
    assert.equal((await dav(server, 'PUT', '/dav/mac/.DS_Store', p.basic, { body: 'dsstore' })).status, 201);
    const listing = await dav(server, 'PROPFIND', '/dav/mac/', p.basic, { headers: { depth: '1' } });
    for (const n of ['photo.jpg', '._photo.jpg', '.DS_Store']) assert.match(listing.text, new RegExp(`/dav/mac/${n.replace('.', '\\.')}<`));
    assert.deepEqual((await names(api, p.token, '/mac')).sort(), ['.DS_Store', '._photo.jpg', 'photo.jpg']);
    assert.equal((await dav(server, 'GET', '/dav/mac/photo.jpg', p.basic)).text, 'JPEGDATA');
    // Finder deletes the pair together.
    assert.equal((await dav(server, 'DELETE', '/dav/mac/._photo.jpg', p.basic)).status, 204);
    assert.equal((await dav(server, 'DELETE', '/dav/mac/photo.jpg', p.basic)).status, 204);
  });

  it('Content-Length: 0 PUT before the real PUT (Windows, GNOME, davfs2): the file ends with the real bytes, one file, quota counted once', async () => {
    assert.equal((await dav(server, 'PUT', '/dav/twice.bin', p.basic, { body: '' })).status, 201);
    assert.equal((await download(api, p.token, '/twice.bin')).body.length, 0);
    const bytes = Buffer.alloc(70_000, 7);
    assert.equal((await dav(server, 'PUT', '/dav/twice.bin', p.basic, { body: bytes })).status, 204);
    assert.deepEqual((await download(api, p.token, '/twice.bin')).body, bytes);
    const quota = await dav(server, 'PROPFIND', '/dav/', p.basic, { headers: { depth: '0' }, body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/></D:prop></D:propfind>' });
    const used = Number(/<D:quota-used-bytes>(\d+)</.exec(quota.text)?.[1]);
    const cap = await api.get<{ used: number }>('/api/v4/user/capacity', { token: p.token });
    assert.equal(used, cap.body.data.used);
    assert.ok(used >= 70_000 && used < 140_000);
  });

  it('chunked bodies of many parts arrive whole', async () => {
    const parts = Array.from({ length: 64 }, (_, i) => Buffer.alloc(4096 + i, i));
    assert.equal(await chunkedPut(server, '/dav/chunked.bin', p.basic, parts), 201);
    assert.deepEqual((await download(api, p.token, '/chunked.bin')).body, Buffer.concat(parts));
  });

  it('percent-encoded names (space, #, %, +, &) round-trip, and hrefs come back encoded per segment', async () => {
    // "?" is not a name Windows clients can store (issue 23): refused, see names.test.ts.
    const name = 'a b#c%d+e&f.txt';
    const encoded = encodeURIComponent(name);
    assert.equal((await dav(server, 'PUT', `/dav/${encoded}`, p.basic, { body: 'odd' })).status, 201);
    assert.ok((await names(api, p.token, '/')).includes(name));
    assert.equal((await dav(server, 'GET', `/dav/${encoded}`, p.basic)).text, 'odd');
    const listing = await dav(server, 'PROPFIND', '/dav/', p.basic, { headers: { depth: '1' } });
    assert.match(listing.text, new RegExp(`<D:href>/dav/${encoded.replace(/[%+?]/g, '\\$&')}</D:href>`));
    assert.match(listing.text, /<D:displayname>a b#c%d\+e&amp;f\.txt<\/D:displayname>/);
    // Malformed percent-encoding is 400, not a crash.
    assert.equal((await dav(server, 'GET', '/dav/bad%ZZname', p.basic)).status, 400);
  });

  it('Unicode names: an NFD name (macOS) and its NFC spelling are one file; listings give NFC', async () => {
    const nfc = 'Café Ünïcødé 日本語.txt'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    assert.notEqual(nfc, nfd);
    assert.equal((await dav(server, 'PUT', `/dav/${encodeURIComponent(nfd)}`, p.basic, { body: 'one' })).status, 201);
    assert.equal((await dav(server, 'PUT', `/dav/${encodeURIComponent(nfc)}`, p.basic, { body: 'two' })).status, 204);
    assert.equal((await dav(server, 'GET', `/dav/${encodeURIComponent(nfd)}`, p.basic)).text, 'two');
    assert.deepEqual((await names(api, p.token, '/')).filter((n) => n.startsWith('Caf')), [nfc]);
    const listing = await dav(server, 'PROPFIND', '/dav/', p.basic, { headers: { depth: '1' } });
    assert.ok(listing.text.includes(`/dav/${encodeURIComponent(nfc)}<`));
    // Destination headers are decoded and normalised the same way.
    assert.equal((await dav(server, 'MOVE', `/dav/${encodeURIComponent(nfc)}`, p.basic, { headers: { destination: `/dav/${encodeURIComponent('Émile.txt'.normalize('NFD'))}` } })).status, 201);
    assert.equal((await download(api, p.token, '/Émile.txt'.normalize('NFC'))).body.toString(), 'two');
  });
});
