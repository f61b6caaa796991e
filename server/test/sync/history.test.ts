// Trash and versions over DAV as Nextcloud serves them (api-contract §14):
// /remote.php/dav/trashbin/<uid>/trash/ (PROPFIND with the nc:trashbin-*
// properties, MOVE to restore/ restores, DELETE purges) and
// /remote.php/dav/versions/<uid>/versions/<fileid>/ (PROPFIND lists, GET reads,
// MOVE to restore/target restores, DELETE deletes, not by a write recipient).
// Another person's ids are 404, bad input 4xx.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { download, put } from '../files/helpers.js';
import { createAccount, basicHeader, dav, davPerson } from '../webdav/helpers.js';
import { grant } from '../sharing/helpers.js';

const FILEID = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/></d:prop></d:propfind>';
const TRASH_PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop><nc:trashbin-filename/><nc:trashbin-original-location/><nc:trashbin-deletion-time/><d:getcontentlength/><d:resourcetype/><oc:fileid/></d:prop></d:propfind>';

interface Listed {
  href: string;
  props: Record<string, string>;
}

/** The responses of a multistatus, each with its simple property values. */
function responses(xml: string): Listed[] {
  return xml
    .split('<D:response>')
    .slice(1)
    .map((block) => {
      const href = /<D:href>([^<]*)<\/D:href>/.exec(block)![1]!;
      const props: Record<string, string> = {};
      for (const m of block.matchAll(/<((?:D|oc|nc):[a-z-]+)>([^<]*)<\/\1>/g)) props[m[1]!] = m[2]!;
      return { href, props };
    });
}

describe('sync: trash and versions over DAV', () => {
  let server: TestServer;
  let api: Api;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => server?.close());

  async function fileNumber(p: { id: string; basic: string }, path: string): Promise<string> {
    const res = await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}${path}`, p.basic, { headers: { depth: '0' }, body: FILEID });
    assert.equal(res.status, 207, res.text);
    return /<oc:fileid>(\d+)<\/oc:fileid>/.exec(res.text)![1]!;
  }

  it('the trash: listed with its properties, restored by MOVE to restore/, purged by DELETE, emptied', async () => {
    const p = await davPerson(server);
    const trash = `/remote.php/dav/trashbin/${p.id}/trash/`;
    await put(api, p.token, '/docs/report 报告.txt', 'report body');
    await put(api, p.token, '/gone.txt', 'gone');
    await put(api, p.token, '/third.txt', 'third');
    const number = await fileNumber(p, '/docs/report%20%E6%8A%A5%E5%91%8A.txt');
    const before = Date.now();
    for (const f of ['/docs/report%20%E6%8A%A5%E5%91%8A.txt', '/gone.txt', '/third.txt']) assert.equal((await dav(server, 'DELETE', `/remote.php/dav/files/${p.id}${f}`, p.basic)).status, 204);

    const listed = await dav(server, 'PROPFIND', trash, p.basic, { headers: { depth: '1' }, body: TRASH_PROPS });
    assert.equal(listed.status, 207);
    const items = responses(listed.text);
    assert.equal(items[0]!.href, trash);
    assert.equal(items.length, 4);
    const report = items.find((i) => i.props['nc:trashbin-filename'] === 'report 报告.txt')!;
    assert.ok(report, listed.text);
    assert.equal(report.props['nc:trashbin-original-location'], 'docs/report 报告.txt');
    assert.equal(report.props['oc:fileid'], number, 'the same number as before the delete');
    assert.equal(report.props['D:getcontentlength'], String('report body'.length));
    const deletedAt = Number(report.props['nc:trashbin-deletion-time']);
    assert.ok(Math.abs(deletedAt * 1000 - before) < 60_000);
    assert.ok(report.href.startsWith(trash));

    // MOVE to restore/ puts it back where it was, with its number.
    const restored = await dav(server, 'MOVE', report.href, p.basic, { headers: { destination: `${server.url}/remote.php/dav/trashbin/${p.id}/restore/report.txt` } });
    assert.equal(restored.status, 201, restored.text);
    assert.equal((await download(api, p.token, '/docs/report 报告.txt')).body.toString(), 'report body');
    assert.equal(await fileNumber(p, '/docs/report%20%E6%8A%A5%E5%91%8A.txt'), number);
    assert.equal((await dav(server, 'PROPFIND', report.href, p.basic, { headers: { depth: '0' } })).status, 404, 'no longer in the trash');

    // DELETE of one item purges it; DELETE of trash/ empties the rest.
    const gone = items.find((i) => i.props['nc:trashbin-filename'] === 'gone.txt')!;
    assert.equal((await dav(server, 'DELETE', gone.href, p.basic)).status, 204);
    const left = responses((await dav(server, 'PROPFIND', trash, p.basic, { headers: { depth: '1' }, body: TRASH_PROPS })).text);
    assert.deepEqual(left.slice(1).map((i) => i.props['nc:trashbin-filename']), ['third.txt']);
    const api404 = await api.get<{ files: unknown[] }>('/api/v4/file/trash', { token: p.token });
    assert.equal(api404.body.data.files.length, 1, 'the API sees the same trash');
    assert.equal((await dav(server, 'DELETE', trash, p.basic)).status, 204);
    assert.equal(responses((await dav(server, 'PROPFIND', trash, p.basic, { headers: { depth: '1' } })).text).length, 1);
  });

  it('the trash refuses another person, bad item names, a read-only or folder account, and a wrong Destination (4xx, never 5xx)', async () => {
    const p = await davPerson(server);
    const other = await davPerson(server);
    await put(api, other.token, '/theirs.txt', 'theirs');
    assert.equal((await dav(server, 'DELETE', `/remote.php/dav/files/${other.id}/theirs.txt`, other.basic)).status, 204);
    const theirItem = responses((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${other.id}/trash/`, other.basic, { headers: { depth: '1' } })).text)[1]!;
    const segment = theirItem.href.split('/').pop()!;

    // Their trash under their id, or their item under mine: 404, and it stays.
    const theirs = await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${other.id}/trash/`, p.basic, { headers: { depth: '1' } });
    assert.equal(theirs.status, 404);
    assert.doesNotMatch(theirs.text, /theirs/);
    for (const method of ['PROPFIND', 'DELETE']) assert.equal((await dav(server, method, `/remote.php/dav/trashbin/${p.id}/trash/${segment}`, p.basic)).status, 404, method);
    assert.equal((await dav(server, 'MOVE', `/remote.php/dav/trashbin/${p.id}/trash/${segment}`, p.basic, { headers: { destination: `/remote.php/dav/trashbin/${p.id}/restore/x` } })).status, 404);
    assert.equal(responses((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${other.id}/trash/`, other.basic, { headers: { depth: '1' } })).text).length, 2);

    for (const bad of ['nonsense', 'x.d12', 'x.99999999999.d1', '%ZZ', 'a/b/c']) {
      const res = await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${p.id}/trash/${bad}`, p.basic);
      assert.ok(res.status >= 400 && res.status < 500, `${bad}: ${res.status}`);
    }
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${p.id}/elsewhere/`, p.basic)).status, 404);
    assert.equal((await dav(server, 'PUT', `/remote.php/dav/trashbin/${p.id}/trash/`, p.basic, { body: 'x' })).status, 405);

    await put(api, p.token, '/mine.txt', 'mine');
    assert.equal((await dav(server, 'DELETE', `/remote.php/dav/files/${p.id}/mine.txt`, p.basic)).status, 204);
    const mine = responses((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${p.id}/trash/`, p.basic, { headers: { depth: '1' } })).text)[1]!;
    assert.equal((await dav(server, 'MOVE', mine.href, p.basic)).status, 400, 'no Destination');
    assert.equal((await dav(server, 'MOVE', mine.href, p.basic, { headers: { destination: `/remote.php/dav/files/${p.id}/mine.txt` } })).status, 400);
    const readonly = await createAccount(api, p.token, { name: 'viewer', readonly: true });
    const ro = basicHeader(p.email, readonly.password);
    assert.equal((await dav(server, 'PROPFIND', mine.href, ro)).status, 207);
    assert.equal((await dav(server, 'DELETE', mine.href, ro)).status, 403);
    assert.equal((await dav(server, 'MOVE', mine.href, ro, { headers: { destination: `/remote.php/dav/trashbin/${p.id}/restore/x` } })).status, 403);
    await api.post('/api/v4/file/create', { path: '/sub', type: 'folder' }, { token: p.token });
    const folderAccount = await createAccount(api, p.token, { name: 'sub', path: '/sub' });
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${p.id}/trash/`, basicHeader(p.email, folderAccount.password), { headers: { depth: '1' } })).status, 403);
    assert.equal((await dav(server, 'PROPFIND', mine.href, null)).status, 401);
    assert.equal(responses((await dav(server, 'PROPFIND', `/remote.php/dav/trashbin/${p.id}/trash/`, p.basic, { headers: { depth: '1' } })).text).length, 2, 'nothing changed');
  });

  it('versions: listed by file id, read, restored by MOVE to restore/target, deleted; a write recipient restores but may not delete; others get 404', async () => {
    const p = await davPerson(server);
    const root = `/remote.php/dav/files/${p.id}`;
    assert.equal((await dav(server, 'PUT', `${root}/v.txt`, p.basic, { body: 'first' })).status, 201);
    assert.equal((await dav(server, 'PUT', `${root}/v.txt`, p.basic, { body: 'second' })).status, 204);
    assert.equal((await dav(server, 'PUT', `${root}/v.txt`, p.basic, { body: 'third' })).status, 204);
    const number = await fileNumber(p, '/v.txt');
    const folder = `/remote.php/dav/versions/${p.id}/versions/${number}/`;
    const listed = await dav(server, 'PROPFIND', folder, p.basic, { headers: { depth: '1' } });
    assert.equal(listed.status, 207);
    const versions = responses(listed.text).slice(1);
    assert.equal(versions.length, 2, 'the older contents; the current one is the file');
    const bodies = await Promise.all(versions.map(async (v) => (await dav(server, 'GET', v.href, p.basic)).text));
    assert.deepEqual([...bodies].sort(), ['first', 'second']);
    const first = versions[bodies.indexOf('first')]!;
    const firstHref = first.href;
    assert.equal(first.props['D:getcontentlength'], '5');
    const got = await dav(server, 'GET', firstHref, p.basic);
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff', 'served as user content');
    assert.match(got.headers.get('content-security-policy') ?? '', /sandbox/);

    const restored = await dav(server, 'MOVE', firstHref, p.basic, { headers: { destination: `${server.url}/remote.php/dav/versions/${p.id}/restore/target` } });
    assert.equal(restored.status, 201, restored.text);
    assert.equal((await dav(server, 'GET', `${root}/v.txt`, p.basic)).text, 'first');
    assert.equal(await fileNumber(p, '/v.txt'), number, 'a restore keeps the file id');
    const after = responses((await dav(server, 'PROPFIND', folder, p.basic, { headers: { depth: '1' } })).text).slice(1);
    assert.equal(after.length, 2, '"third" became a version, "first" is current');

    // A write recipient restores (through their own id and the same number) but may not delete.
    const bob = await davPerson(server);
    assert.equal((await grant(api, p, { path: '/v.txt', user: bob.email, permission: 'write' })).status, 200);
    const bobFolder = `/remote.php/dav/versions/${bob.id}/versions/${number}/`;
    const bobList = responses((await dav(server, 'PROPFIND', bobFolder, bob.basic, { headers: { depth: '1' } })).text).slice(1);
    assert.equal(bobList.length, 2);
    const bobVersion = bobList[0]!.href;
    assert.equal((await dav(server, 'DELETE', bobVersion, bob.basic)).status, 403);
    assert.equal((await dav(server, 'MOVE', bobVersion, bob.basic, { headers: { destination: `/remote.php/dav/versions/${bob.id}/restore/target` } })).status, 201);
    assert.equal(responses((await dav(server, 'PROPFIND', folder, p.basic, { headers: { depth: '1' } })).text).length, 3, 'nothing deleted');

    // Someone the file is not shared with: 404 under their own id, 404 under the owner's.
    const eve = await davPerson(server);
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/versions/${eve.id}/versions/${number}/`, eve.basic, { headers: { depth: '1' } })).status, 404);
    assert.equal((await dav(server, 'GET', `/remote.php/dav/versions/${eve.id}/versions/${number}/${bobVersion.split('/').pop()}`, eve.basic)).status, 404);
    assert.equal((await dav(server, 'PROPFIND', folder, eve.basic, { headers: { depth: '1' } })).status, 404);
    assert.equal((await dav(server, 'DELETE', `/remote.php/dav/versions/${eve.id}/versions/${number}/${bobVersion.split('/').pop()}`, eve.basic)).status, 404);

    // Bad input: 4xx, never 5xx.
    for (const bad of ['abc', '0', '-1', '99999999999999', '1.5', `${number}/nope`, `${number}/a/b`, '%ZZ']) {
      const res = await dav(server, 'PROPFIND', `/remote.php/dav/versions/${p.id}/versions/${bad}`, p.basic, { headers: { depth: '1' } });
      assert.ok(res.status >= 400 && res.status < 500, `${bad}: ${res.status}`);
    }
    assert.equal((await dav(server, 'GET', firstHref, p.basic)).status, 404, 'a restored version is the current content now');
    const own = responses((await dav(server, 'PROPFIND', folder, p.basic, { headers: { depth: '1' } })).text).slice(1);
    assert.equal((await dav(server, 'MOVE', own[0]!.href, p.basic, { headers: { destination: `/remote.php/dav/files/${p.id}/x.txt` } })).status, 400);
    assert.equal((await dav(server, 'DELETE', own[0]!.href, p.basic)).status, 204);
    assert.equal(responses((await dav(server, 'PROPFIND', folder, p.basic, { headers: { depth: '1' } })).text).length, own.length);
  });
});
