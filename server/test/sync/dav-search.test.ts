// WebDAV SEARCH on /remote.php/dav/ as the Nextcloud apps send it (RFC 5323
// basicsearch; api-contract §14): the file search by name, the photo
// timeline (image/ and video/ types newest first, a page at a time), a
// folder's direct members, a file by oc:fileid; what is shared with the
// person is searched at the path they see it by, and a revoked grant or a
// trashed folder takes its items out; hostile bodies get a 4xx, never a 5xx.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { dav, davPerson, type DavPerson } from '../webdav/helpers.js';
import { grant } from '../sharing/helpers.js';

const NS = 'xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"';
const SELECT = '<d:select><d:prop><oc:fileid/><d:displayname/><d:getcontenttype/><d:getlastmodified/><oc:size/><oc:permissions/><d:resourcetype/></d:prop></d:select>';

function search(scope: string, where: string, extra = '', depth = 'infinity'): string {
  return `<?xml version="1.0" encoding="UTF-8"?><d:searchrequest ${NS}><d:basicsearch>${SELECT}<d:from><d:scope><d:href>${scope}</d:href><d:depth>${depth}</d:depth></d:scope></d:from><d:where>${where}</d:where>${extra}</d:basicsearch></d:searchrequest>`;
}

const like = (prop: string, literal: string) => `<d:like><d:prop><${prop}/></d:prop><d:literal>${literal}</d:literal></d:like>`;

/** The hrefs of a 207 answer, decoded, in order (the 507 "more matched" response aside). */
function hrefs(text: string): string[] {
  return [...text.matchAll(/<D:response><D:href>([^<]*)<\/D:href><D:propstat>/g)].map((m) => decodeURIComponent(m[1]!));
}

describe('sync: WebDAV SEARCH for the apps', () => {
  let server: TestServer;
  let api: Api;
  let alice: DavPerson;
  let bob: DavPerson;
  const day = (d: number) => String(Date.UTC(2026, 0, d) / 1000);

  async function putFile(p: DavPerson, path: string, body: string, mtime?: string) {
    const res = await dav(server, 'PUT', `/remote.php/dav/files/${p.id}${path}`, p.basic, { body, headers: mtime ? { 'x-oc-mtime': mtime } : {} });
    assert.ok(res.status === 201 || res.status === 204, `${path}: ${res.status} ${res.text}`);
  }
  async function mkcol(p: DavPerson, path: string) {
    assert.equal((await dav(server, 'MKCOL', `/remote.php/dav/files/${p.id}${path}`, p.basic)).status, 201);
  }
  const run = (p: DavPerson, body: string, url = '/remote.php/dav/') => dav(server, 'SEARCH', url, p.basic, { body, headers: { 'content-type': 'text/xml' } });

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    alice = await davPerson(server);
    bob = await davPerson(server);
    await mkcol(alice, '/Work');
    await mkcol(alice, '/Work/Old');
    await mkcol(alice, '/Photos');
    await putFile(alice, '/Work/Quarterly Report.txt', 'q3', day(3));
    await putFile(alice, '/Work/Old/report-2019.txt', 'old', day(2));
    await putFile(alice, '/REPORT card.md', 'top', day(1));
    await putFile(alice, '/Work/notes.txt', 'n', day(4));
    await putFile(alice, '/Photos/beach.jpg', 'jpg', day(10));
    await putFile(alice, '/Photos/party.mp4', 'mp4', day(12));
    await putFile(alice, '/Photos/cat.png', 'png', day(11));
    await putFile(alice, '/Photos/list.txt', 'txt', day(13));
    await mkcol(alice, '/Binned');
    await putFile(alice, '/Binned/report-binned.txt', 'gone');
    assert.equal((await api.delete('/api/v4/file', { paths: ['/Binned'] }, { token: alice.token })).status, 200);
    await mkcol(bob, '/Plans');
    await putFile(bob, '/Plans/report from bob.txt', 'bob');
  });
  after(async () => server?.close());

  it('by name across the whole tree, case-insensitive, in name order; nothing trashed or inside a trashed folder; the same properties as a listing', async () => {
    const res = await run(alice, search(`/files/${alice.id}`, like('d:displayname', '%report%')));
    assert.equal(res.status, 207, res.text);
    assert.deepEqual(hrefs(res.text), [
      `/remote.php/dav/files/${alice.id}/Work/Quarterly Report.txt`,
      `/remote.php/dav/files/${alice.id}/REPORT card.md`,
      `/remote.php/dav/files/${alice.id}/Work/Old/report-2019.txt`,
    ]);
    assert.match(res.text, /<oc:fileid>\d+<\/oc:fileid>/);
    assert.match(res.text, /<oc:permissions>[A-Z]+<\/oc:permissions>/);
    assert.match(res.text, /<d:getcontenttype>text\/plain|<D:getcontenttype>text\/plain/);
    assert.doesNotMatch(res.text, /binned|bob/i);
    // The legacy root and a whole URL as the scope mean the same.
    const full = await run(alice, search(`${server.url}/remote.php/dav/files/${alice.id}/`, like('d:displayname', '%REPORT%')));
    assert.deepEqual(hrefs(full.text).sort(), hrefs(res.text).sort());
  });

  it('the photo timeline: images and videos newest first, a page at a time (nresults, firstresult), with a date bound', async () => {
    const where = `<d:and><d:or>${like('d:getcontenttype', 'image/%')}${like('d:getcontenttype', 'video/%')}</d:or><d:gt><d:prop><d:getlastmodified/></d:prop><d:literal>${day(9)}</d:literal></d:gt></d:and>`;
    const order = '<d:orderby><d:order><d:prop><d:getlastmodified/></d:prop><d:descending/></d:order></d:orderby>';
    const page = (first: number) => `${order}<d:limit><d:nresults>2</d:nresults><nc:firstresult>${first}</nc:firstresult></d:limit>`;
    const one = await run(alice, search(`/files/${alice.id}`, where, page(0)));
    assert.equal(one.status, 207, one.text);
    assert.deepEqual(hrefs(one.text).map((h) => h.split('/').pop()), ['party.mp4', 'cat.png']);
    const two = await run(alice, search(`/files/${alice.id}`, where, page(2)));
    assert.deepEqual(hrefs(two.text).map((h) => h.split('/').pop()), ['beach.jpg']);
    // A bound on the date: only what was modified before the 11th.
    const before = `<d:and>${like('d:getcontenttype', 'image/%')}<d:lt><d:prop><d:getlastmodified/></d:prop><d:literal>${day(11)}</d:literal></d:lt></d:and>`;
    assert.deepEqual(hrefs((await run(alice, search(`/files/${alice.id}`, before))).text).map((h) => h.split('/').pop()), ['beach.jpg']);
  });

  it('a folder with depth 1 answers its own members only; folders by DAV:is-collection; a file by its oc:fileid; NOT and size', async () => {
    const members = await run(alice, search(`/files/${alice.id}/Work`, '<d:not><d:is-collection/></d:not>', '', '1'));
    assert.equal(members.status, 207, members.text);
    assert.deepEqual(hrefs(members.text).map((h) => h.split('/').pop()), ['notes.txt', 'Quarterly Report.txt']);
    const folders = await run(alice, search(`/files/${alice.id}`, '<d:is-collection/>'));
    assert.deepEqual(hrefs(folders.text).map((h) => h.replace(`/remote.php/dav/files/${alice.id}`, '')), ['/Work/Old/', '/Photos/', '/Work/']);
    const id = /<oc:fileid>(\d+)<\/oc:fileid>/.exec(members.text)![1]!;
    const byId = await run(alice, search(`/files/${alice.id}`, `<d:eq><d:prop><oc:fileid/></d:prop><d:literal>${id}</d:literal></d:eq>`));
    assert.deepEqual(hrefs(byId.text).map((h) => h.split('/').pop()), ['notes.txt']);
    const big = await run(alice, search(`/files/${alice.id}/Photos`, '<d:gte><d:prop><oc:size/></d:prop><d:literal>3</d:literal></d:gte>'));
    assert.deepEqual(hrefs(big.text).map((h) => h.split('/').pop()).sort(), ['beach.jpg', 'cat.png', 'list.txt', 'party.mp4']);
    // Nothing is a favourite in Cirrus.
    const favs = await run(alice, search(`/files/${alice.id}`, '<d:eq><d:prop><oc:favorite/></d:prop><d:literal>1</d:literal></d:eq>'));
    assert.deepEqual(hrefs(favs.text), []);
  });

  it('what is shared with the person is found at the path they see, and not once the grant is revoked', async () => {
    const g = await grant(api, bob, { path: '/Plans', user: alice.email, permission: 'read' });
    assert.equal(g.status, 200, g.text);
    const res = await run(alice, search(`/files/${alice.id}`, like('d:displayname', '%from bob%')));
    assert.equal(res.status, 207, res.text);
    const found = hrefs(res.text);
    assert.equal(found.length, 1, res.text);
    // "Shared with me/<owner> – Plans/…": the label the person sees the grant by.
    assert.match(found[0]!, new RegExp(`^/remote.php/dav/files/${alice.id}/Shared with me/[^/]+ – Plans/report from bob\\.txt$`));
    // Read-only: the permissions say so (no W, no D).
    assert.match(res.text, /<oc:permissions>[^W<D]*<\/oc:permissions>/);
    // Shared again inside the shared folder: found once, not once per share.
    await mkcol(bob, '/Plans/Sub');
    await putFile(bob, '/Plans/Sub/deep from bob.txt', 'deep');
    const inner = await grant(api, bob, { path: '/Plans/Sub', user: alice.email, permission: 'read' });
    assert.equal(inner.status, 200, inner.text);
    assert.equal(hrefs((await run(alice, search(`/files/${alice.id}`, like('d:displayname', 'deep from bob%')))).text).length, 1);
    assert.equal((await api.delete(`/api/v4/file/access/${inner.body.data.id}`, undefined, { token: bob.token })).status, 200);
    assert.equal((await api.delete(`/api/v4/file/access/${g.body.data.id}`, undefined, { token: bob.token })).status, 200);
    assert.deepEqual(hrefs((await run(alice, search(`/files/${alice.id}`, like('d:displayname', '%from bob%')))).text), []);
  });

  it('hostile and unsupported bodies: 4xx with a reason, never 5xx; another person\'s scope is 404; no credentials 401; OPTIONS names the grammar', async () => {
    const cases: [string, number][] = [
      ['', 400],
      ['<not xml', 400],
      ['<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>', 400],
      [`<?xml version="1.0"?><d:searchrequest ${NS}><d:othersearch/></d:searchrequest>`, 422],
      [search(`/files/${alice.id}`, like('oc:owner-id', 'x')), 400],
      [search(`/files/${alice.id}`, '<d:contains>x</d:contains>'), 400],
      [search(`/files/${alice.id}`, like('d:getlastmodified', '%')), 400],
      [search(`/files/${alice.id}`, '<d:gt><d:prop><d:getlastmodified/></d:prop><d:literal>yesterday-ish</d:literal></d:gt>'), 400],
      [search(`/files/${alice.id}`, `${'<d:not>'.repeat(40)}<d:is-collection/>${'</d:not>'.repeat(40)}`), 400],
      [search('/calendars/x', '<d:is-collection/>'), 400],
      [search(`/files/${alice.id}/nowhere`, '<d:is-collection/>'), 404],
      [search(`/files/${bob.id}`, '<d:is-collection/>'), 404],
      [search(`/files/${alice.id}`, like('d:displayname', "%' OR 1=1 --%")), 207],
      [search(`/files/${alice.id}`, like('d:displayname', '%\u0000%')), 400],
    ];
    for (const [body, status] of cases) {
      const res = await run(alice, body);
      assert.equal(res.status, status, `${body.slice(0, 160)}: ${res.status} ${res.text}`);
      if (status === 207) assert.deepEqual(hrefs(res.text), []);
    }
    assert.equal((await dav(server, 'SEARCH', '/remote.php/dav/', null, { body: search(`/files/${alice.id}`, '<d:is-collection/>') })).status, 401);
    const opts = await dav(server, 'OPTIONS', '/remote.php/dav/', null);
    assert.equal(opts.status, 200);
    assert.equal(opts.headers.get('dasl'), '<DAV:basicsearch>');
    assert.equal((await dav(server, 'PROPFIND', '/remote.php/dav/', alice.basic, { headers: { depth: '0' } })).status, 405);
    // Still whole afterwards.
    assert.equal((await run(alice, search(`/files/${alice.id}`, like('d:displayname', '%report%')))).status, 207);
  });
});
