// The OCS Share API as the Nextcloud clients' share dialogs call it
// (api-contract §14): a public link with password and expiry made in a client
// is the web app's link (GET /api/v4/share) and the other way round; a share
// with a person is a grant (GET /api/v4/file/access); listing by path,
// subfiles, one share, delete; the JSON and XML shapes the clients parse; and
// the refusals: another's share or item 404, bad input 400 with its OCS status.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { put } from '../files/helpers.js';
import { davPerson, type DavPerson } from '../webdav/helpers.js';

const SHARES = '/ocs/v2.php/apps/files_sharing/api/v1/shares';

interface OcsShare {
  id: string;
  share_type: number;
  permissions: number;
  path: string;
  item_type: string;
  token: string | null;
  url?: string;
  share_with: string | null;
  share_with_displayname: string | null;
  expiration: string | null;
  uid_owner: string;
  uid_file_owner: string;
  file_target: string;
  item_source: number;
  mimetype: string;
  stime: number;
  password?: string;
}

interface Ocs<T> {
  ocs: { meta: { status: string; statuscode: number; message: string }; data: T };
}

describe('sync: the OCS Share API', () => {
  let server: TestServer;
  let api: Api;
  let p: DavPerson;
  let q: DavPerson;
  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    p = await davPerson(server);
    q = await davPerson(server);
    await put(api, p.token, '/docs/report.txt', 'the report');
    await put(api, p.token, '/docs/inner/deep.txt', 'deep');
    await put(api, p.token, '/photo.txt', 'photo');
  });
  after(async () => server?.close());

  /** One OCS call as the desktop client sends it: form body, OCS-APIRequest, format=json. */
  async function ocs<T>(who: DavPerson | null, method: string, url: string, form?: Record<string, string>): Promise<{ status: number; body: Ocs<T> }> {
    const headers: Record<string, string> = { 'OCS-APIRequest': 'true' };
    if (who) headers.authorization = who.basic;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const sep = url.includes('?') ? '&' : '?';
    const res = await api.fetch(`${url}${sep}format=json`, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as Ocs<T> };
    } catch {
      throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    }
  }

  it('a public link with password and expiry: the shape the client parses, listed by path, and the same link in the web API', async () => {
    const made = await ocs<OcsShare>(p, 'POST', SHARES, { path: '/docs/report.txt', shareType: '3', password: 'secret words', expireDate: '2031-05-04' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.ocs.meta.statuscode, 200);
    const link = made.body.ocs.data;
    // A number, as a string: the Android app parses a share id as a long (migration 048).
    assert.match(link.id, /^\d+$/);
    assert.notEqual(link.id, link.token, 'the number, not the link\'s own id');
    assert.equal(link.share_type, 3);
    assert.equal(link.permissions, 1);
    assert.equal(link.path, '/docs/report.txt');
    assert.equal(link.item_type, 'file');
    assert.equal(link.mimetype, 'text/plain');
    assert.equal(link.file_target, '/report.txt');
    assert.equal(link.uid_owner, p.id);
    assert.equal(link.uid_file_owner, p.id);
    assert.equal(link.expiration, '2031-05-04 23:59:59');
    assert.equal(typeof link.item_source, 'number');
    assert.equal(typeof link.stime, 'number');
    assert.match(link.url!, new RegExp(`/s/${link.token}$`));
    // The password's hash never leaves the server; a protected link says so with a mask.
    assert.equal(link.password, '********');
    const web = await api.get<{ shares: { id: string; has_password: boolean; expires_at: string; path: string }[] }>('/api/v4/share', { token: p.token });
    const same = web.body.data.shares.find((s) => s.id === link.token);
    assert.ok(same, 'the link is listed in the web app');
    assert.equal(same.has_password, true);
    assert.equal(same.expires_at, '2031-05-04T23:59:59.000Z');
    // The password works on the public link.
    const unlock = await api.post<{ token: string }>(`/api/v4/share/unlock/${link.token}`, { password: 'secret words' });
    assert.equal(unlock.status, 200, unlock.text);

    // Made in the web app, seen by the client.
    const webMade = await api.put<{ id: string }>('/api/v4/share', { path: '/docs/report.txt' }, { token: p.token });
    assert.equal(webMade.status, 200, webMade.text);
    const listed = await ocs<OcsShare[]>(p, 'GET', `${SHARES}?path=${encodeURIComponent('/docs/report.txt')}&reshares=true`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.ocs.data.map((s) => s.token).sort(), [link.token, webMade.body.data.id].sort());
    assert.ok(listed.body.ocs.data.every((s) => /^\d+$/.test(s.id)));
    assert.equal(listed.body.ocs.data.find((s) => s.token === link.token)!.id, link.id, 'the same number every time');
    const plain = listed.body.ocs.data.find((s) => s.token === webMade.body.data.id)!;
    assert.equal(plain.password, '');
    assert.equal(plain.share_with, null);
  });

  it('XML (no format) and v1 (statuscode 100) carry the same share', async () => {
    const made = await ocs<OcsShare>(p, 'POST', SHARES, { path: '/photo.txt', shareType: '3' });
    assert.equal(made.status, 200);
    const res = await api.fetch(`/ocs/v1.php/apps/files_sharing/api/v1/shares?path=${encodeURIComponent('/photo.txt')}`, { headers: { authorization: p.basic, 'OCS-APIRequest': 'true' } });
    const xml = await res.text();
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/xml/);
    assert.match(xml, /<statuscode>100<\/statuscode>/);
    assert.match(xml, new RegExp(`<element>\\s*<id>${made.body.ocs.data.id}</id>`));
    assert.match(xml, /<share_type>3<\/share_type>/);
    assert.match(xml, /<path>\/photo.txt<\/path>/);
  });

  it('a share with a person is a grant (read 1, write more); subfiles lists the folder\'s items; one share by id; delete', async () => {
    const grant = await ocs<OcsShare>(p, 'POST', SHARES, { path: '/docs/inner', shareType: '0', shareWith: q.email, permissions: '31' });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    const g = grant.body.ocs.data;
    assert.equal(g.share_type, 0);
    assert.equal(g.share_with, q.id);
    assert.equal(g.item_type, 'folder');
    assert.equal(g.mimetype, 'httpd/unix-directory');
    assert.equal(g.permissions, 1 | 2 | 4 | 8 | 16, 'write and reshare on a folder');
    const access = await api.get<{ id: string; permission: string; user: { id: string } }[]>(`/api/v4/file/access?path=${encodeURIComponent('/docs/inner')}`, { token: p.token });
    assert.deepEqual(access.body.data.map((a) => [a.permission, a.user.id]), [['write', q.id]]);
    assert.match(g.id, /^\d+$/);
    const read = await ocs<OcsShare>(p, 'POST', SHARES, { path: '/photo.txt', shareType: '0', shareWith: q.id, permissions: '1' });
    assert.equal(read.status, 200);
    assert.equal(read.body.ocs.data.permissions, 1);
    // q sees it in the client's "shared with me".
    const mine = await ocs<OcsShare[]>(q, 'GET', `${SHARES}?shared_with_me=true`);
    assert.ok(mine.body.ocs.data.some((s) => s.id === read.body.ocs.data.id && s.uid_owner === p.id), JSON.stringify(mine.body));

    const sub = await ocs<OcsShare[]>(p, 'GET', `${SHARES}?path=/docs&subfiles=true`);
    assert.equal(sub.status, 200);
    const paths = sub.body.ocs.data.map((s) => s.path).sort();
    assert.ok(paths.includes('/docs/inner') && paths.includes('/docs/report.txt'), paths.join());
    assert.ok(!paths.includes('/photo.txt'), 'only items of the folder');
    const single = await ocs<OcsShare[]>(p, 'GET', `${SHARES}/${g.id}`);
    assert.equal(single.status, 200);
    assert.equal(single.body.ocs.data[0]!.id, g.id);

    const del = await ocs<unknown>(p, 'DELETE', `${SHARES}/${g.id}`);
    assert.equal(del.status, 200);
    assert.equal((await api.get<unknown[]>(`/api/v4/file/access?path=${encodeURIComponent('/docs/inner')}`, { token: p.token })).body.data.length, 0);
    const link = (await ocs<OcsShare[]>(p, 'GET', `${SHARES}?path=/photo.txt`)).body.ocs.data.find((s) => s.share_type === 3)!;
    assert.equal((await ocs<unknown>(p, 'DELETE', `${SHARES}/${link.id}`)).status, 200);
    assert.equal((await api.get(`/api/v4/share/${link.token}`, { token: p.token })).status, 404, 'the link is gone for the web app too');
    assert.equal((await ocs<unknown>(p, 'GET', `${SHARES}/${link.id}`)).status, 404, 'its number names nothing now');
  });

  it('PUT edits a share as the apps do: a link\'s password and expiry (\'\' removes them), a grant\'s permissions; what a share cannot hold is 400 and changes nothing; another\'s share 404', async () => {
    await put(api, p.token, '/edit/me.txt', 'edit me');
    const link = (await ocs<OcsShare>(p, 'POST', SHARES, { path: '/edit/me.txt', shareType: '3' })).body.ocs.data;
    const webLink = async () => (await api.get<{ has_password: boolean; expires_at: string | null }>(`/api/v4/share/${link.token}`, { token: p.token })).body.data;
    const withPassword = await ocs<OcsShare>(p, 'PUT', `${SHARES}/${link.id}`, { password: 'a new secret' });
    assert.equal(withPassword.status, 200, JSON.stringify(withPassword.body));
    assert.equal(withPassword.body.ocs.data.password, '********');
    assert.equal((await webLink()).has_password, true);
    assert.equal((await api.post(`/api/v4/share/unlock/${link.token}`, { password: 'a new secret' })).status, 200, 'the new password opens the link');
    const expiring = await ocs<OcsShare>(p, 'PUT', `${SHARES}/${link.id}`, { expireDate: '2032-01-02' });
    assert.equal(expiring.status, 200);
    assert.equal(expiring.body.ocs.data.expiration, '2032-01-02 23:59:59');
    assert.equal((await webLink()).expires_at, '2032-01-02T23:59:59.000Z');
    // Refused, and nothing changes: a link's kind, a note, a short password, a password on a grant.
    for (const form of [{ permissions: '4' }, { publicUpload: 'true' }, { note: 'hello' }, { password: 'abc' }] as Record<string, string>[]) {
      const res = await ocs<unknown>(p, 'PUT', `${SHARES}/${link.id}`, form);
      assert.equal(res.status, 400, JSON.stringify(form));
    }
    const kept = await webLink();
    assert.deepEqual([kept.has_password, kept.expires_at], [true, '2032-01-02T23:59:59.000Z']);
    const cleared = await ocs<OcsShare>(p, 'PUT', `${SHARES}/${link.id}`, { password: '', expireDate: '' });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.ocs.data.password, '');
    assert.equal(cleared.body.ocs.data.expiration, null);
    assert.equal((await webLink()).has_password, false);

    const grant = (await ocs<OcsShare>(p, 'POST', SHARES, { path: '/edit/me.txt', shareType: '0', shareWith: q.email, permissions: '1' })).body.ocs.data;
    const raised = await ocs<OcsShare>(p, 'PUT', `${SHARES}/${grant.id}`, { permissions: '19' });
    assert.equal(raised.status, 200, JSON.stringify(raised.body));
    assert.equal(raised.body.ocs.data.id, grant.id, 'the same share, changed');
    const access = async () => (await api.get<{ id: string; permission: string; reshare: boolean }[]>(`/api/v4/file/access?path=${encodeURIComponent('/edit/me.txt')}`, { token: p.token })).body.data;
    assert.deepEqual((await access()).map((a) => [a.permission, a.reshare]), [['write', true]]);
    assert.equal((await ocs<unknown>(p, 'PUT', `${SHARES}/${grant.id}`, { permissions: '2' })).status, 400, 'no read');
    assert.equal((await ocs<unknown>(p, 'PUT', `${SHARES}/${grant.id}`, { expireDate: '2032-01-02' })).status, 400, 'a grant has no expiry here');
    assert.equal((await ocs<OcsShare>(p, 'PUT', `${SHARES}/${grant.id}`, { permissions: '1' })).status, 200);
    assert.deepEqual((await access()).map((a) => [a.permission, a.reshare]), [['read', false]]);
    // Another person's share, and an id that is no share: 404, nothing changed.
    assert.equal((await ocs<unknown>(q, 'PUT', `${SHARES}/${link.id}`, { password: 'taken over' })).status, 404);
    assert.equal((await ocs<unknown>(q, 'PUT', `${SHARES}/${grant.id}`, { permissions: '31' })).status, 404);
    assert.equal((await ocs<unknown>(p, 'PUT', `${SHARES}/nosuchshare`, { permissions: '1' })).status, 404);
    assert.equal((await webLink()).has_password, false);
    assert.deepEqual((await access()).map((a) => a.permission), ['read']);
  });

  it("refusals: another's share or item 404, bad input 400, no credentials 401; nothing is made", async () => {
    const link = (await ocs<OcsShare>(p, 'POST', SHARES, { path: '/photo.txt', shareType: '3' })).body.ocs.data;
    const before = (await api.get<{ shares: unknown[] }>('/api/v4/share', { token: p.token })).body.data.shares.length;
    const theirs = await ocs<unknown>(q, 'DELETE', `${SHARES}/${link.id}`);
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.ocs.meta.statuscode, 404);
    assert.equal((await ocs<unknown>(q, 'GET', `${SHARES}/${link.id}`)).status, 404);
    const notHers = await ocs<unknown>(q, 'POST', SHARES, { path: '/photo.txt', shareType: '3' });
    assert.equal(notHers.status, 404, 'q has no /photo.txt');
    assert.equal((await ocs<unknown>(p, 'GET', `${SHARES}?path=/missing.txt`)).status, 404);
    for (const [form, why] of [
      [{ path: '/photo.txt', shareType: '7' }, 'an unknown share type'],
      [{ path: '/photo.txt' }, 'no share type'],
      [{ shareType: '3' }, 'no path'],
      [{ path: '/photo.txt', shareType: '3', expireDate: 'tomorrow' }, 'no date'],
      [{ path: '/photo.txt', shareType: '3', expireDate: '2001-01-01' }, 'a past date'],
      [{ path: '/photo.txt', shareType: '3', password: 'ab' }, 'a short password'],
      [{ path: '/photo.txt', shareType: '3', permissions: '15' }, 'an editable link'],
      [{ path: '/photo.txt', shareType: '0' }, 'no one to share with'],
      [{ path: '/photo.txt', shareType: '1', shareWith: 'admins' }, 'a group that is no id'],
      [{ path: '/../photo.txt', shareType: '3' }, 'a path with ..'],
    ] as const) {
      const res = await ocs<unknown>(p, 'POST', SHARES, form);
      assert.equal(res.status, 400, `${why}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.ocs.meta.statuscode, 400, why);
      assert.equal(res.body.ocs.meta.status, 'failure', why);
    }
    assert.equal((await ocs<unknown>(p, 'POST', SHARES, { path: '/photo.txt', shareType: '0', shareWith: 'nobody@nowhere.example' })).status, 404, 'no such person');
    assert.equal((await api.get<{ shares: unknown[] }>('/api/v4/share', { token: p.token })).body.data.shares.length, before, 'no link was made');
    assert.equal((await ocs<unknown>(null, 'GET', SHARES)).status, 401);
  });
});
