// Previews for the Nextcloud apps (api-contract §14): the requests as the
// Android app (`/index.php/core/preview?fileId=<n>&x=&y=&a=1&mode=cover&forceIcon=0`)
// and older clients (`/index.php/core/preview.png?file=<path>&x=&y=`) send
// them, answered with the web app's thumbnails after the same checks: own and
// shared items, inside the account's folder only; 404 for what has none or is
// another's; ETag and 304 (RFC 9110 §13.1.2).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { dav, davPerson, type DavPerson } from '../webdav/helpers.js';
import { grant } from '../sharing/helpers.js';

const PROPS = '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/></d:prop></d:propfind>';

describe('sync: previews for the apps', () => {
  let server: TestServer;
  let api: Api;
  let png: Buffer;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    png = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
  });
  after(async () => server?.close());

  /** The oc:fileid the apps would have read for the item at `path`. */
  async function fileId(p: DavPerson, path: string): Promise<string> {
    const res = await dav(server, 'PROPFIND', `/remote.php/dav/files/${p.id}${path}`, p.basic, { headers: { depth: '0' }, body: PROPS });
    assert.equal(res.status, 207, res.text);
    return /<oc:fileid>(\d+)<\/oc:fileid>/.exec(res.text)![1]!;
  }

  async function preview(url: string, auth: string | null, headers: Record<string, string> = {}) {
    const res = await api.fetch(url, { headers: { ...(auth ? { authorization: auth } : {}), 'OCS-APIRequest': 'true', ...headers } });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  it('by fileId as the Android app asks and by path as older clients do: a WebP within x×y, user-content headers, ETag and 304', async () => {
    const p = await davPerson(server);
    assert.equal((await api.raw('PUT', '/api/v4/file/content?path=/pics/red.png', { token: p.token, body: png, headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    const id = await fileId(p, '/pics/red.png');
    const res = await preview(`/index.php/core/preview?fileId=${id}&x=64&y=64&a=1&mode=cover&forceIcon=0`, p.basic);
    assert.equal(res.status, 200, res.body.toString());
    assert.equal(res.headers.get('content-type'), 'image/webp');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    const meta = await sharp(res.body).metadata();
    assert.equal(meta.format, 'webp');
    assert.ok(meta.width! <= 64 && meta.height! <= 64, `${meta.width}×${meta.height}`);
    assert.equal(meta.width! / meta.height!, 2, 'the aspect ratio is kept');
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    const again = await preview(`/index.php/core/preview?fileId=${id}&x=64&y=64&a=1`, p.basic, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);

    const byPath = await preview('/index.php/core/preview.png?file=%2Fpics%2Fred.png&x=32&y=32&a=1', p.basic);
    assert.equal(byPath.status, 200);
    assert.equal((await sharp(byPath.body).metadata()).format, 'webp');
    // The other route takes `file` too (Nextcloud's preview accepts either).
    assert.equal((await preview('/index.php/core/preview?file=/pics/red.png&x=32&y=32', p.basic)).status, 200);
  });

  it('no preview, bad sizes, no credentials, a wrong password: 404, 400, 401; a token works', async () => {
    const p = await davPerson(server);
    assert.equal((await api.raw('PUT', '/api/v4/file/content?path=/red.png', { token: p.token, body: png, headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    await put(api, p.token, '/notes.txt', 'plain notes');
    const picture = await fileId(p, '/red.png');
    assert.equal((await preview(`/index.php/core/preview?fileId=${await fileId(p, '/notes.txt')}&x=64&y=64`, p.basic)).status, 404, 'a text file has none');
    assert.equal((await preview(`/index.php/core/preview?fileId=${await fileId(p, '/')}&x=64&y=64`, p.basic)).status, 404, 'a folder has none');
    assert.equal((await preview('/index.php/core/preview?fileId=987654321&x=64&y=64', p.basic)).status, 404, 'unknown id');
    assert.equal((await preview('/index.php/core/preview?fileId=abc&x=64&y=64', p.basic)).status, 404, 'no id at all');
    assert.equal((await preview('/index.php/core/preview.png?file=/missing.png&x=64&y=64', p.basic)).status, 404);
    assert.equal((await preview('/index.php/core/preview.png?file=/../red.png&x=64&y=64', p.basic)).status, 404);
    assert.equal((await preview(`/index.php/core/preview?fileId=${picture}&x=0&y=64`, p.basic)).status, 400);
    assert.equal((await preview(`/index.php/core/preview?fileId=${picture}&x=big&y=64`, p.basic)).status, 400);
    assert.equal((await preview('/index.php/core/preview?x=64&y=64', p.basic)).status, 400);
    assert.equal((await preview(`/index.php/core/preview?fileId=${picture}&x=64&y=64`, null)).status, 401);
    const wrong = `Basic ${Buffer.from(`${p.email}:${p.account.password}x`).toString('base64')}`;
    assert.equal((await preview(`/index.php/core/preview?fileId=${picture}&x=64&y=64`, wrong)).status, 401, 'a wrong app password');
    // A token is as good as an app password, as on /dav/.
    assert.equal((await preview(`/index.php/core/preview?fileId=${picture}&x=64&y=64`, `Bearer ${p.token}`)).status, 200);
  });

  it("another person's item is 404 by id and by path; a picture shared with them is theirs to preview; an account limited to a folder sees nothing outside it", async () => {
    const owner = await davPerson(server, { path: '/album' });
    const other = await davPerson(server);
    for (const path of ['/album/in.png', '/out.png']) {
      assert.equal((await api.raw('PUT', `/api/v4/file/content?path=${path}`, { token: owner.token, body: png, headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    }
    // The owner's account is limited to /album: its paths start there, and /out.png is beyond it.
    assert.equal((await preview('/index.php/core/preview.png?file=/in.png&x=64&y=64', owner.basic)).status, 200);
    assert.equal((await preview('/index.php/core/preview.png?file=/album/in.png&x=64&y=64', owner.basic)).status, 404);
    const full = await davPerson(server);
    assert.equal((await grant(api, owner, { path: '/out.png', user: full.email, permission: 'read' })).status, 200);
    const listed = await dav(server, 'PROPFIND', `/remote.php/dav/files/${full.id}/Shared%20with%20me/`, full.basic, { headers: { depth: '1' }, body: PROPS });
    const sharedId = [...listed.text.matchAll(/<oc:fileid>(\d+)<\/oc:fileid>/g)].map((m) => m[1]!).find((n) => n !== String(Number.MAX_SAFE_INTEGER))!;
    assert.ok(sharedId, listed.text);
    assert.equal((await preview(`/index.php/core/preview?fileId=${sharedId}&x=64&y=64`, full.basic)).status, 200, 'shared with them');
    assert.equal((await preview(`/index.php/core/preview?fileId=${sharedId}&x=64&y=64`, owner.basic)).status, 404, 'outside the account folder');
    assert.equal((await preview(`/index.php/core/preview?fileId=${sharedId}&x=64&y=64`, other.basic)).status, 404, "another person's");
    assert.equal((await preview('/index.php/core/preview.png?file=/out.png&x=64&y=64', other.basic)).status, 404);
  });

  it('avatars as the apps ask (/index.php/avatar/<uid>/<size>, and /dark): the web app\'s picture as a PNG of size × size, anyone\'s by uid; none is 404; bad size 400; no credentials 401; ETag and 304', async () => {
    const p = await davPerson(server);
    const other = await davPerson(server);
    const avatar = (uid: string, size: string | number, auth: string | null, headers: Record<string, string> = {}) => preview(`/index.php/avatar/${uid}/${size}`, auth, headers);
    assert.equal((await avatar(p.id, 64, p.basic)).status, 404, 'no picture set: the apps draw the initials');
    const set = await api.raw('PUT', '/api/v4/user/avatar', { token: p.token, body: png, headers: { 'content-type': 'image/png' } });
    assert.equal(set.status, 200, set.text);
    for (const [size, edge] of [[64, 64], [512, 512], [4096, 512]] as const) {
      const res = await avatar(p.id, size, p.basic);
      assert.equal(res.status, 200, res.body.toString());
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(res.headers.get('x-nc-iscustomavatar'), '1');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const meta = await sharp(res.body).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', edge, edge]);
    }
    const dark = await preview(`/index.php/avatar/${p.id}/64/dark`, p.basic);
    assert.equal(dark.status, 200);
    assert.equal((await sharp(dark.body).metadata()).width, 64);
    // Another person's picture by uid, as the apps show a share's owner.
    const seen = await avatar(p.id, 64, other.basic);
    assert.equal(seen.status, 200);
    assert.equal((await avatar(p.id, 64, p.basic, { 'if-none-match': seen.headers.get('etag')! })).status, 304);
    assert.equal((await avatar('no-such-person', 64, p.basic)).status, 404);
    assert.equal((await avatar(p.id, 0, p.basic)).status, 400);
    assert.equal((await avatar(p.id, 'big', p.basic)).status, 400);
    assert.equal((await avatar(p.id, 64, null)).status, 401);
    assert.equal((await preview(`/index.php/avatar/${p.id}/64`, `Bearer ${p.token}`)).status, 200, 'a token works too');
    // Removed in the web app: 404 again.
    assert.equal((await api.raw('DELETE', '/api/v4/user/avatar', { token: p.token })).status, 200);
    assert.equal((await avatar(p.id, 64, p.basic)).status, 404);
  });
});
