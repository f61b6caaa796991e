// Team folders (issue 22): a folder owned by a group, with its own quota,
// mounted at the top of each member's files with the group's permission or an
// admin's per-member override. Through the admin API, the files API, tus and
// WebDAV: the team's usage moves (not the member's), read members are refused
// every write path, nothing outside the folder is reachable, membership is
// read per request, and files outlive the member who uploaded them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { capacity, download, put, q, type FileView } from '../files/helpers.js';
import { dav } from '../webdav/helpers.js';
import { assertDavWritesRefused, davPath, adminToken, member, newGroup, type Member } from './helpers.js';

interface TeamFolder {
  id: string;
  group_id: number;
  name: string;
  permission: 'read' | 'write';
  storage_quota: number;
  storage_used: number;
}
type Listed = FileView & { team_folder?: { id: string; permission: 'read' | 'write' } };

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const QUOTA = 100_000;

describe('team folders', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let groupId: number;
  let otherGroup: number;
  let writer: Member;
  let reader: Member;
  let outsider: Member;
  let team: TeamFolder;
  let other: TeamFolder;

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    groupId = await newGroup(api, admin, 'design');
    otherGroup = await newGroup(api, admin, 'sales');
    writer = await member(api, admin, { nickname: 'Wren', groupId });
    reader = await member(api, admin, { nickname: 'Reed', groupId });
    outsider = await member(api, admin, { nickname: 'Otto', groupId: otherGroup });
  });
  after(() => server.close());

  const bearer = (p: Member) => `Bearer ${p.token}`;
  const top = async (p: Member): Promise<Listed[]> => {
    const res = await api.get<{ files: Listed[] }>(`/api/v4/file?path=${q('/')}`, { token: p.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.files;
  };
  const teamInfo = async (id: string) => (await api.get<TeamFolder>(`/api/v4/admin/team-folder/${id}`, { token: admin })).body.data;
  const override = (p: Member, permission: 'read' | 'write' | 'none' | null) =>
    api.put(`/api/v4/admin/team-folder/${team.id}/member/${p.id}`, { permission }, { token: admin });

  it('an admin creates a team folder owned by a group, with its own quota', async () => {
    const res = await api.put<TeamFolder>('/api/v4/admin/team-folder', { group_id: groupId, name: 'Projects', storage_quota: QUOTA }, { token: admin });
    assert.equal(res.status, 200, res.text);
    team = res.body.data;
    assert.equal(team.name, 'Projects');
    assert.equal(team.permission, 'write');
    assert.equal(team.storage_quota, QUOTA);
    assert.equal(team.storage_used, 0);
    // One name per group, case-insensitively; "Shared with me" is kept for sharing.
    assert.equal((await api.put('/api/v4/admin/team-folder', { group_id: groupId, name: 'projects', storage_quota: 1 }, { token: admin })).status, 409);
    assert.equal((await api.put('/api/v4/admin/team-folder', { group_id: groupId, name: 'Shared with me', storage_quota: 1 }, { token: admin })).status, 400);
    assert.equal((await api.put('/api/v4/admin/team-folder', { group_id: groupId, name: '../x', storage_quota: 1 }, { token: admin })).status, 400);
    // Only administrators.
    assert.equal((await api.put('/api/v4/admin/team-folder', { group_id: groupId, name: 'Mine', storage_quota: 1 }, { token: writer.token })).status, 403);
    assert.equal((await api.get('/api/v4/admin/team-folder', { token: writer.token })).status, 403);
    const otherRes = await api.put<TeamFolder>('/api/v4/admin/team-folder', { group_id: otherGroup, name: 'Leads', storage_quota: QUOTA }, { token: admin });
    other = otherRes.body.data;
    await put(api, outsider.token, '/Leads/secret.txt', 'sales only');
    const listed = await api.get<TeamFolder[]>(`/api/v4/admin/team-folder?group_id=${groupId}`, { token: admin });
    assert.deepEqual(listed.body.data.map((t) => t.name), ['Projects']);
  });

  it('every member sees it first in My files, through the API and WebDAV; others do not', async () => {
    await put(api, writer.token, '/aaa.txt', 'own file sorted before it');
    const files = await top(writer);
    assert.equal(files[0]!.path, '/Projects');
    assert.equal(files[0]!.name, 'Projects');
    assert.deepEqual(files[0]!.team_folder, { id: team.id, permission: 'write' });
    assert.equal(files.filter((f) => f.team_folder).length, 1);
    assert.ok(!(await top(outsider)).some((f) => f.path === '/Projects'));
    assert.ok(!(await top(writer)).some((f) => f.path === '/Leads'));
    // RFC 4918 §9.1: PROPFIND Depth 1 of the root lists it as a collection.
    const pf = await dav(server, 'PROPFIND', '/dav/', bearer(writer), { headers: { depth: '1' } });
    assert.equal(pf.status, 207);
    assert.match(pf.text, /<D:href>\/dav\/Projects\/<\/D:href>/i);
    const info = await api.get<Listed>(`/api/v4/file/info?path=${q('/Projects')}`, { token: writer.token });
    assert.equal(info.body.data.team_folder?.permission, 'write');
  });

  it("a write member's uploads (API, tus, WebDAV) count toward the team's quota, not the member's", async () => {
    const mine = (await capacity(api, writer.token)).used;
    assert.equal((await put(api, writer.token, '/Projects/plan.txt', 'the plan')).status, 200);
    assert.equal((await put(api, writer.token, '/Projects/docs/a.bin', Buffer.alloc(10_000, 1))).status, 200);
    const created = await api.fetch('/api/v4/file/upload', {
      method: 'POST',
      headers: { authorization: bearer(writer), 'tus-resumable': '1.0.0', 'upload-length': '5000', 'upload-metadata': `path ${b64('/Projects/docs/tus.bin')}` },
    });
    assert.equal(created.status, 201, await created.text());
    const patched = await api.fetch(new URL(created.headers.get('location')!, server.url).pathname, {
      method: 'PATCH',
      headers: { authorization: bearer(writer), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(5000, 2),
    });
    assert.equal(patched.status, 204);
    assert.equal((await dav(server, 'PUT', davPath('/Projects/dav.txt'), bearer(writer), { body: 'via dav' })).status, 201);
    assert.equal((await dav(server, 'MKCOL', davPath('/Projects/made'), bearer(writer))).status, 201);
    assert.equal((await capacity(api, writer.token)).used, mine);
    assert.equal((await teamInfo(team.id)).storage_used, 'the plan'.length + 10_000 + 5000 + 'via dav'.length);
    // Zipped by a member, the team folder keeps its name.
    const zip = await api.fetch('/api/v4/file/archive', { method: 'POST', headers: { authorization: bearer(reader), 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['/Projects'] }) });
    assert.equal(zip.status, 200);
    assert.ok(Buffer.from(await zip.arrayBuffer()).includes(Buffer.from('Projects/plan.txt')));
    // The reader sees the writer's files.
    assert.equal((await download(api, reader.token, '/Projects/plan.txt')).body.toString(), 'the plan');
    const listing = await api.get<{ files: FileView[] }>(`/api/v4/file?path=${q('/Projects/docs')}`, { token: reader.token });
    assert.deepEqual(listing.body.data.files.map((f) => f.path), ['/Projects/docs/a.bin', '/Projects/docs/tus.bin']);
  });

  it('WebDAV methods of a write member work inside the team folder (RFC 4918 §9.2, §9.8, §9.9, §9.10)', async () => {
    const auth = bearer(writer);
    const proppatch = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
    assert.equal((await dav(server, 'PROPPATCH', davPath('/Projects/dav.txt'), auth, { body: proppatch, headers: { 'content-type': 'application/xml' } })).status, 207);
    assert.equal((await dav(server, 'COPY', davPath('/Projects/dav.txt'), auth, { headers: { destination: `${server.url}${davPath('/Projects/made/copy.txt')}` } })).status, 201);
    assert.equal((await dav(server, 'MOVE', davPath('/Projects/made/copy.txt'), auth, { headers: { destination: `${server.url}${davPath('/Projects/made/moved.txt')}` } })).status, 201);
    const lock = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const locked = await dav(server, 'LOCK', davPath('/Projects/made/moved.txt'), auth, { body: lock, headers: { 'content-type': 'application/xml' } });
    assert.equal(locked.status, 200, locked.text);
    const token = locked.headers.get('lock-token')!;
    assert.equal((await dav(server, 'UNLOCK', davPath('/Projects/made/moved.txt'), auth, { headers: { 'lock-token': token } })).status, 204);
    assert.equal((await dav(server, 'GET', davPath('/Projects/made/moved.txt'), auth)).text, 'via dav');
    assert.equal((await dav(server, 'DELETE', davPath('/Projects/made/moved.txt'), auth)).status, 204);
    const pf = await dav(server, 'PROPFIND', davPath('/Projects/made') + '/', auth, { headers: { depth: '1' } });
    assert.equal(pf.status, 207);
    assert.doesNotMatch(pf.text, /moved\.txt/);
  });

  it('an upload over the team quota is refused with the usual quota error', async () => {
    const res = await put(api, writer.token, '/Projects/big.bin', Buffer.alloc(QUOTA, 3));
    assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
    const davRes = await dav(server, 'PUT', davPath('/Projects/big.bin'), bearer(writer), { body: Buffer.alloc(QUOTA, 3) });
    assert.equal(davRes.status, 507, 'RFC 4918 §11.5: Insufficient Storage');
    // The same bytes fit in the member's own files.
    assert.equal((await put(api, writer.token, '/big.bin', Buffer.alloc(QUOTA, 3))).status, 200);
    // Raising the quota lets it in.
    assert.equal((await api.put(`/api/v4/admin/team-folder/${team.id}`, { storage_quota: 10 * QUOTA }, { token: admin })).status, 200);
    assert.equal((await put(api, writer.token, '/Projects/big.bin', Buffer.alloc(QUOTA, 3))).status, 200);
  });

  it('a read member is refused every write path: API, tus, WebDAV PUT/MOVE/COPY/DELETE/PROPPATCH/LOCK/MKCOL', async () => {
    assert.equal((await override(reader, 'read')).status, 200);
    assert.equal((await top(reader))[0]!.team_folder?.permission, 'read');
    const t = reader.token;
    assert.equal((await put(api, t, '/Projects/new.txt', 'x')).status, 403);
    assert.equal((await put(api, t, '/Projects/plan.txt', 'overwrite')).status, 403);
    assert.equal((await api.post('/api/v4/file/create', { path: '/Projects/f', type: 'folder' }, { token: t })).status, 403);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Projects/plan.txt', new_name: 'p.txt' }, { token: t })).status, 403);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/Projects/plan.txt'], dst: '/Projects/docs' }, { token: t })).status, 403);
    assert.equal((await api.delete('/api/v4/file', { paths: ['/Projects/plan.txt'] }, { token: t })).status, 403);
    const tus = await api.fetch('/api/v4/file/upload', {
      method: 'POST',
      headers: { authorization: bearer(reader), 'tus-resumable': '1.0.0', 'upload-length': '3', 'upload-metadata': `path ${b64('/Projects/t.bin')}` },
    });
    assert.equal(tus.status, 403);
    await assertDavWritesRefused(server, bearer(reader), { file: '/Projects/plan.txt', moveTo: '/Projects/docs/p.txt', newFolder: '/Projects/newdir' });
    const target = davPath('/Projects/plan.txt');
    assert.equal((await dav(server, 'GET', target, bearer(reader))).text, 'the plan');
  });

  it('overrides: read to write lets the member write; none hides the folder', async () => {
    assert.equal((await override(reader, 'write')).status, 200);
    assert.equal((await put(api, reader.token, '/Projects/by-reader.txt', 'r')).status, 200);
    const list = await api.get<{ user_id: string; permission: string }[]>(`/api/v4/admin/team-folder/${team.id}/member`, { token: admin });
    assert.deepEqual(list.body.data.map((o) => [o.user_id, o.permission]), [[reader.id, 'write']]);
    assert.equal((await override(reader, 'none')).status, 200);
    assert.ok(!(await top(reader)).some((f) => f.team_folder));
    assert.equal((await download(api, reader.token, '/Projects/plan.txt')).status, 404);
    assert.equal((await dav(server, 'PROPFIND', davPath('/Projects') + '/', bearer(reader), { headers: { depth: '0' } })).status, 404);
    // Removing the override gives back the group's permission; an outsider cannot get one.
    assert.equal((await override(reader, null)).status, 200);
    assert.equal((await download(api, reader.token, '/Projects/plan.txt')).status, 200);
    assert.equal((await api.put(`/api/v4/admin/team-folder/${team.id}/member/${outsider.id}`, { permission: 'write' }, { token: admin })).status, 400);
  });

  it('the group permission applies to everyone without an override', async () => {
    assert.equal((await api.put(`/api/v4/admin/team-folder/${team.id}`, { permission: 'read' }, { token: admin })).status, 200);
    assert.equal((await put(api, writer.token, '/Projects/x.txt', 'x')).status, 403);
    assert.equal((await override(writer, 'write')).status, 200);
    assert.equal((await put(api, writer.token, '/Projects/x.txt', 'x')).status, 200);
    assert.equal((await put(api, reader.token, '/Projects/y.txt', 'y')).status, 403);
    assert.equal((await api.put(`/api/v4/admin/team-folder/${team.id}`, { permission: 'write' }, { token: admin })).status, 200);
  });

  it('members cannot rename, move or delete the team folder itself, nor move items in or out of it', async () => {
    const t = writer.token;
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Projects', new_name: 'Mine' }, { token: t })).status, 403);
    assert.equal((await api.delete('/api/v4/file', { paths: ['/Projects'] }, { token: t })).status, 403);
    await api.post('/api/v4/file/create', { path: '/own', type: 'folder' }, { token: t });
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/Projects'], dst: '/own' }, { token: t })).status, 403);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/Projects/plan.txt'], dst: '/own' }, { token: t })).status, 403);
    assert.equal((await api.post('/api/v4/file/move', { paths: ['/aaa.txt'], dst: '/Projects' }, { token: t })).status, 403);
    assert.equal((await dav(server, 'DELETE', davPath('/Projects'), bearer(writer))).status, 403);
    assert.equal((await dav(server, 'MOVE', davPath('/Projects'), bearer(writer), { headers: { destination: `${server.url}/dav/Mine` } })).status, 403);
    // An own item cannot take the team folder's name (any case).
    assert.equal((await api.post('/api/v4/file/create', { path: '/projects', type: 'folder' }, { token: t })).status, 409);
    assert.equal((await api.post('/api/v4/file/create', { path: '/Projects', type: 'folder' }, { token: t })).status, 409);
  });

  it('nothing outside the team folder is reachable by any path spelling or id', async () => {
    const secret = (await api.get<FileView>(`/api/v4/file/info?path=${q('/Leads/secret.txt')}`, { token: outsider.token })).body.data;
    const ownSecret = (await put(api, outsider.token, '/mine.txt', 'otto own')).body.data as FileView;
    for (const p of ['/Projects/../Leads/secret.txt', '/Projects/%2e%2e/Leads/secret.txt', '/Projects/..%2fmine.txt', '/Leads/secret.txt', '/Projects/Leads/secret.txt']) {
      const res = await download(api, writer.token, p);
      assert.ok(res.status === 400 || res.status === 404, `${p}: ${res.status}`);
    }
    for (const id of [secret.id, ownSecret.id]) assert.equal((await api.get(`/api/v4/file/info?id=${id}`, { token: writer.token })).status, 404);
    for (const p of [`${davPath('/Projects')}/../Leads/secret.txt`, `${davPath('/Projects')}/%2e%2e/mine.txt`, '/dav/Leads/secret.txt']) {
      const res = await dav(server, 'GET', p, bearer(writer));
      assert.ok(res.status >= 400, `${p}: ${res.status}`);
    }
    // A team item by id, for a member: under the team folder's path; for an outsider: 404.
    const plan = (await api.get<FileView>(`/api/v4/file/info?path=${q('/Projects/plan.txt')}`, { token: writer.token })).body.data;
    assert.equal((await api.get<FileView>(`/api/v4/file/info?id=${plan.id}`, { token: reader.token })).body.data.path, '/Projects/plan.txt');
    assert.equal((await api.get(`/api/v4/file/info?id=${plan.id}`, { token: outsider.token })).status, 404);
    assert.equal((await api.post('/api/v4/file/archive/url', { paths: ['/Leads/secret.txt'] }, { token: writer.token })).status, 404);
  });

  it('leaving the group ends access at once; deleting the uploader keeps the files', async () => {
    const mover = await member(api, admin, { groupId });
    assert.equal((await put(api, mover.token, '/Projects/from-mover.txt', 'stays')).status, 200);
    assert.equal((await api.put(`/api/v4/admin/user/${mover.id}`, { group_id: otherGroup }, { token: admin })).status, 200);
    assert.equal((await download(api, mover.token, '/Projects/plan.txt')).status, 404);
    assert.ok(!(await top(mover)).some((f) => f.path === '/Projects'));
    assert.equal((await download(api, mover.token, '/Leads/secret.txt')).body.toString(), 'sales only');
    const used = (await teamInfo(team.id)).storage_used;
    assert.equal((await api.delete(`/api/v4/admin/user/${writer.id}`, undefined, { token: admin })).status, 200);
    assert.equal((await download(api, reader.token, '/Projects/plan.txt')).body.toString(), 'the plan');
    assert.equal((await download(api, reader.token, '/Projects/from-mover.txt')).body.toString(), 'stays');
    assert.equal((await teamInfo(team.id)).storage_used, used);
  });

  it('deletions go to the team trash; members with write list and restore them there', async () => {
    assert.equal((await api.delete('/api/v4/file', { paths: ['/Projects/by-reader.txt'] }, { token: reader.token })).status, 200);
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: reader.token });
    const item = trash.body.data.files.find((f) => f.original_path === '/Projects/by-reader.txt');
    assert.ok(item, JSON.stringify(trash.body.data));
    assert.ok(!(await api.get<{ files: { original_path: string }[] }>('/api/v4/file/trash', { token: outsider.token })).body.data.files.some((f) => f.original_path.startsWith('/Projects')));
    const restored = await api.post<{ results: { code: number; file?: FileView }[] }>('/api/v4/file/trash/restore', { ids: [item.id] }, { token: reader.token });
    assert.equal(restored.body.data.results[0]!.code, 0, restored.text);
    assert.equal(restored.body.data.results[0]!.file?.path, '/Projects/by-reader.txt');
    assert.equal((await download(api, reader.token, '/Projects/by-reader.txt')).body.toString(), 'r');
    // An outsider cannot restore it by id.
    await api.delete('/api/v4/file', { paths: ['/Projects/by-reader.txt'] }, { token: reader.token });
    const again = (await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token: reader.token })).body.data.files.find((f) => f.original_path === '/Projects/by-reader.txt')!;
    const stolen = await api.post<{ results: { code: number }[] }>('/api/v4/file/trash/restore', { ids: [again.id] }, { token: outsider.token });
    assert.notEqual(stolen.status, 200);
  });

  it('an old clash with an own top-level item labels the team folder "(team folder)"; signed URLs serve team files', async () => {
    await put(api, reader.token, '/Reports/own.txt', 'reader own');
    const made = await api.put<TeamFolder>('/api/v4/admin/team-folder', { group_id: groupId, name: 'Reports', storage_quota: QUOTA }, { token: admin });
    assert.equal(made.status, 200, made.text);
    const files = await top(reader);
    assert.ok(files.some((f) => f.path === '/Reports (team folder)' && f.team_folder?.id === made.body.data.id));
    assert.ok(files.some((f) => f.path === '/Reports' && !f.team_folder));
    assert.equal((await download(api, reader.token, '/Reports/own.txt')).body.toString(), 'reader own');
    assert.equal((await put(api, reader.token, '/Reports (team folder)/t.txt', 'team')).status, 200);
    // Another member without the clash sees the plain name.
    const mate = await member(api, admin, { groupId });
    assert.equal((await download(api, mate.token, '/Reports/t.txt')).body.toString(), 'team');
    const signed = await api.post<{ url: string }>('/api/v4/file/url', { path: '/Reports/t.txt' }, { token: mate.token });
    assert.equal(signed.status, 200, signed.text);
    assert.equal(await (await fetch(signed.body.data.url)).text(), 'team');
    // A public link of a team file serves it; an upload request on a team folder and a grant are refused.
    const link = await api.put<{ url: string }>('/api/v4/share', { path: '/Reports/t.txt' }, { token: mate.token });
    assert.equal(link.status, 200, link.text);
    assert.equal((await api.put('/api/v4/share', { path: '/Reports', upload_only: true }, { token: mate.token })).status, 400, 'the team folder itself is a root');
    assert.equal((await api.post('/api/v4/file/create', { path: '/Reports/inbox', type: 'folder' }, { token: mate.token })).status, 200);
    assert.equal((await api.put('/api/v4/share', { path: '/Reports/inbox', upload_only: true }, { token: mate.token })).status, 403);
    assert.equal((await api.put('/api/v4/file/access', { path: '/Reports/t.txt', user: reader.email, permission: 'read' }, { token: mate.token })).status, 403);
    assert.equal((await api.delete(`/api/v4/admin/team-folder/${made.body.data.id}`, undefined, { token: admin })).status, 200);
  });

  it('a team principal never signs in and never shows up as a person', async () => {
    const users = await api.post<{ users: { id: string; email: string }[]; pagination: { total: number } }>('/api/v4/admin/user', { page_size: 100 }, { token: admin });
    assert.ok(!users.body.data.users.some((u) => u.email.startsWith('team:') || u.id.startsWith('team-')));
    assert.equal(users.body.data.pagination.total, users.body.data.users.length);
    assert.equal((await api.get(`/api/v4/admin/user/team-${team.id}`, { token: admin })).status, 404);
    const groups = await api.get<{ id: number; user_count: number }[]>('/api/v4/admin/group', { token: admin });
    assert.equal(groups.body.data.find((g) => g.id === otherGroup)!.user_count, 2);
    await assert.rejects(signIn(api, `team:${team.id}`, '!'));
    // Not a recipient for sharing.
    await put(api, reader.token, '/share-me.txt', 's');
    const g = await api.put('/api/v4/file/access', { path: '/share-me.txt', user: `team-${team.id}`, permission: 'read' }, { token: reader.token });
    assert.equal(g.status, 404);
    // A group with a team folder is not deleted from under it.
    const del = await api.delete(`/api/v4/admin/group/${otherGroup}`, undefined, { token: admin });
    assert.equal(del.status, 409);
  });

  it('an admin renames and deletes a team folder', async () => {
    assert.equal((await api.put(`/api/v4/admin/team-folder/${team.id}`, { name: 'Work' }, { token: admin })).status, 200);
    assert.equal((await download(api, reader.token, '/Work/plan.txt')).body.toString(), 'the plan');
    assert.equal((await api.delete(`/api/v4/admin/team-folder/${other.id}`, undefined, { token: admin })).status, 200);
    assert.equal((await download(api, outsider.token, '/Leads/secret.txt')).status, 404);
    assert.equal((await api.get(`/api/v4/admin/team-folder/${other.id}`, { token: admin })).status, 404);
  });
});

// Team folders reach members the other ways their own files do: their change
// feed, their search and the versions of the team's files.
describe('team folders in members\' feeds, search and versions', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let writer: Member;
  let mate: Member;
  let hidden: Member;
  let clashing: Member;
  let stranger: Member;
  const cursors = new Map<string, string>();

  before(async () => {
    server = await startServer();
    api = new Api(server);
    admin = await adminToken(api);
    const groupId = await newGroup(api, admin, 'feed');
    writer = await member(api, admin, { nickname: 'Wanda', groupId });
    mate = await member(api, admin, { nickname: 'Mae', groupId });
    hidden = await member(api, admin, { nickname: 'Hal', groupId });
    clashing = await member(api, admin, { nickname: 'Cleo', groupId });
    stranger = await member(api, admin, { nickname: 'Stan' });
    await put(api, clashing.token, '/Docs/own.txt', 'mine');
    const made = await api.put<TeamFolder>('/api/v4/admin/team-folder', { group_id: groupId, name: 'Docs', storage_quota: QUOTA }, { token: admin });
    assert.equal(made.status, 200, made.text);
    assert.equal((await api.put(`/api/v4/admin/team-folder/${made.body.data.id}/member/${hidden.id}`, { permission: 'none' }, { token: admin })).status, 200);
    for (const p of [writer, mate, hidden, clashing, stranger]) {
      const res = await api.get<{ cursor: string }>('/api/v4/file/changes', { token: p.token });
      assert.equal(res.status, 200, res.text);
      cursors.set(p.id, res.body.data.cursor);
    }
  });
  after(() => server.close());

  async function since(p: Member): Promise<(string | null)[][]> {
    const res = await api.get<{ events: { type: string; path: string; old_path?: string }[]; cursor: string }>(`/api/v4/file/changes?cursor=${cursors.get(p.id)}&limit=500`, { token: p.token });
    assert.equal(res.status, 200, res.text);
    cursors.set(p.id, res.body.data.cursor);
    return res.body.data.events.map((e) => [e.type, e.path, e.old_path ?? null]);
  }

  it('a change inside the team folder reaches every member who sees it, under their label; no one else', async () => {
    assert.equal((await put(api, writer.token, '/Docs/a.txt', 'one')).status, 200);
    assert.equal((await api.post('/api/v4/file/rename', { path: '/Docs/a.txt', new_name: 'b.txt' }, { token: mate.token })).status, 200);
    const expected = (label: string) => [
      ['created', `/${label}/a.txt`, null],
      ['moved', `/${label}/b.txt`, `/${label}/a.txt`],
    ];
    assert.deepEqual(await since(writer), expected('Docs'));
    assert.deepEqual(await since(mate), expected('Docs'));
    // Cleo's own "/Docs" keeps its name; the team folder is "Docs (team folder)" for her, in the feed too.
    assert.deepEqual(await since(clashing), expected('Docs (team folder)'));
    assert.deepEqual(await since(hidden), []);
    assert.deepEqual(await since(stranger), []);
  });

  it('search finds team files at the member\'s path, and nothing for people without access', async () => {
    const found = async (p: Member) =>
      (await api.get<{ files: { path: string }[] }>(`/api/v4/file/search?q=${q('b.txt')}`, { token: p.token })).body.data.files.map((f) => f.path);
    assert.deepEqual(await found(mate), ['/Docs/b.txt']);
    assert.deepEqual(await found(clashing), ['/Docs (team folder)/b.txt']);
    assert.deepEqual(await found(hidden), []);
    assert.deepEqual(await found(stranger), []);
  });

  it('members list and restore versions of team files, in the team\'s tree', async () => {
    assert.equal((await put(api, mate.token, '/Docs/b.txt', 'two')).status, 200);
    const versions = await api.get<{ id: string; current: boolean; size: number }[]>(`/api/v4/file/versions?path=${q('/Docs/b.txt')}`, { token: writer.token });
    assert.equal(versions.status, 200, versions.text);
    const old = versions.body.data.find((v) => !v.current);
    assert.ok(old, 'the overwrite kept the old content as a version');
    const restored = await api.post('/api/v4/file/versions/restore', { path: '/Docs/b.txt', version_id: old.id }, { token: writer.token });
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await download(api, mate.token, '/Docs/b.txt')).body.toString(), 'one');
    assert.equal((await api.get(`/api/v4/file/versions?path=${q('/Docs/b.txt')}`, { token: hidden.token })).status, 404);
  });
});
