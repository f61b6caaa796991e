// File versions (issue 21, api-contract §13), through the public API and
// WebDAV as clients would use them, on local disk and on S3 (s3rver): every
// overwrite path (PUT, tus, WebDAV PUT, an editor's temp file MOVEd over the
// document, a restore) keeps the exact old bytes as a version; retention per
// group prunes exactly (count on write, age by the jobs runner with the test
// clock); the quota counts versions exactly through overwrite, restore,
// delete, trash and prune; a trashed file takes its versions along.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { ManualClock } from '../../src/core/clock.js';
import { adminToken, capacity, download, newUser, put, q, type FileView, type Person } from './helpers.js';
import { basicHeader, createAccount, dav, emailOf } from '../webdav/helpers.js';

interface Version {
  id: string;
  size: number;
  created_at: string;
  replaced_at: string | null;
  current: boolean;
  source: { kind: string; name: string | null };
  author: string | null;
}

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const DAY = 86_400_000;

function suite(storage: 'local' | 's3') {
  describe(`file versions (${storage} storage)`, () => {
    let s3: TestS3 | null = null;
    let server: TestServer;
    let api: Api;
    let admin: string;
    const clock = new ManualClock();

    before(async () => {
      if (storage === 's3') s3 = await startS3();
      server = await startServer(s3?.env ?? {}, { clock });
      api = new Api(server.url);
      admin = await adminToken(api);
    });
    after(async () => {
      await server.close();
      await s3?.close();
    });

    /** A user alone in a group with this retention (so each test sets its own). */
    async function userWith(retention: { max_versions?: number; version_days?: number } = {}): Promise<Person> {
      const group = await api.put<{ id: number }>('/api/v4/admin/group', { name: `v-${Math.random().toString(36).slice(2)}`, storage_quota: 2 ** 30, ...retention }, { token: admin });
      assert.equal(group.status, 200, group.text);
      const person = await newUser(api, admin);
      const moved = await api.put(`/api/v4/admin/user/${person.id}`, { group_id: group.body.data.id }, { token: admin });
      assert.equal(moved.status, 200, moved.text);
      return person;
    }
    const versions = async (p: Person, path: string) => {
      const res = await api.get<Version[]>(`/api/v4/file/versions?path=${q(path)}`, { token: p.token });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    };
    const versionBytes = async (p: Person, id: string, headers: Record<string, string> = {}) => {
      const res = await api.fetch(`/api/v4/file/versions/${id}/content`, { headers: { authorization: `Bearer ${p.token}`, ...headers } });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    };
    const current = async (p: Person, path: string) => (await download(api, p.token, path)).body;
    const blobCount = async () => {
      const db = server.built.services.db;
      return Number((await db.selectFrom('blobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    };

    it('PUT over a file keeps the exact old bytes as a version, downloadable with ranges; the quota counts both', async () => {
      const alice = await userWith();
      const v1 = randomBytes(70_001);
      const v2 = randomBytes(12_345);
      assert.equal((await put(api, alice.token, '/doc.bin', v1)).status, 200);
      assert.equal((await put(api, alice.token, '/doc.bin', v2)).status, 200);
      const list = await versions(alice, '/doc.bin');
      assert.equal(list.length, 2);
      assert.equal(list[0]!.current, true);
      assert.equal(list[0]!.size, v2.length);
      assert.equal(list[1]!.current, false);
      assert.equal(list[1]!.size, v1.length);
      assert.deepEqual(list[1]!.source, { kind: 'web', name: null });
      assert.ok(list[1]!.replaced_at);
      const whole = await versionBytes(alice, list[1]!.id);
      assert.equal(whole.status, 200);
      assert.ok(whole.body.equals(v1), 'the version holds the exact old bytes');
      // RFC 9110 §14.2: a single byte range of the version.
      const part = await versionBytes(alice, list[1]!.id, { range: 'bytes=100-199' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 100-199/${v1.length}`);
      assert.ok(part.body.equals(v1.subarray(100, 200)));
      assert.ok((await current(alice, '/doc.bin')).equals(v2));
      assert.deepEqual(await capacity(api, alice.token), { used: v1.length + v2.length, total: 2 ** 30, versions: v1.length, reserved: 0 });
    });

    it('a tus upload finishing onto an existing path makes a version', async () => {
      const alice = await userWith();
      const v1 = randomBytes(5000);
      const v2 = randomBytes(7000);
      await put(api, alice.token, '/tus.bin', v1);
      const created = await api.fetch('/api/v4/file/upload', {
        method: 'POST',
        headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-length': String(v2.length), 'upload-metadata': `path ${b64('/tus.bin')}` },
      });
      assert.equal(created.status, 201);
      const patch = await api.fetch(created.headers.get('location')!, {
        method: 'PATCH',
        headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: v2,
      });
      assert.equal(patch.status, 204);
      const list = await versions(alice, '/tus.bin');
      assert.equal(list.length, 2);
      assert.ok((await versionBytes(alice, list[1]!.id)).body.equals(v1));
      assert.ok((await current(alice, '/tus.bin')).equals(v2));
    });

    it('each content records the person who wrote it (PUT, tus), by nickname; a restored version keeps its author (api-contract §13)', async () => {
      const alice = await userWith();
      const named = await api.patch('/api/v4/user/setting', { nickname: 'Alice Author' }, { token: alice.token });
      assert.equal(named.status, 200, named.text);
      await put(api, alice.token, '/who.txt', 'one');
      await put(api, alice.token, '/who.txt', 'two');
      const created = await api.fetch('/api/v4/file/upload', {
        method: 'POST',
        headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-length': '5', 'upload-metadata': `path ${b64('/who.txt')}` },
      });
      assert.equal(created.status, 201);
      const patch = await api.fetch(created.headers.get('location')!, {
        method: 'PATCH',
        headers: { ...TUS, authorization: `Bearer ${alice.token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: 'three',
      });
      assert.equal(patch.status, 204);
      const list = await versions(alice, '/who.txt');
      assert.deepEqual(list.map((v) => [v.size, v.author]), [[5, 'Alice Author'], [3, 'Alice Author'], [3, 'Alice Author']]);
      const restored = await api.post('/api/v4/file/versions/restore', { path: '/who.txt', version_id: list[2]!.id }, { token: alice.token });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual((await versions(alice, '/who.txt')).map((v) => v.author), ['Alice Author', 'Alice Author', 'Alice Author']);
    });

    it('WebDAV PUT makes a version recorded with the device name; WebDAV clients see only the current content', async () => {
      const alice = await userWith();
      const account = await createAccount(api, alice.token, { name: 'Work laptop' });
      const basic = basicHeader(await emailOf(api, alice.token), account.password);
      assert.equal((await dav(server, 'PUT', '/dav/notes.txt', basic, { body: 'first draft' })).status, 201);
      assert.equal((await dav(server, 'PUT', '/dav/notes.txt', basic, { body: 'second draft!' })).status, 204);
      const list = await versions(alice, '/notes.txt');
      assert.equal(list.length, 2);
      assert.deepEqual(list[0]!.source, { kind: 'webdav', name: 'Work laptop' });
      assert.deepEqual(list[1]!.source, { kind: 'webdav', name: 'Work laptop' });
      assert.equal((await versionBytes(alice, list[1]!.id)).body.toString(), 'first draft');
      const get = await dav(server, 'GET', '/dav/notes.txt', basic);
      assert.equal(get.text, 'second draft!');
      // The folder lists one file: versions are not resources (RFC 4918 §9.1 PROPFIND, Depth 1).
      const listing = await dav(server, 'PROPFIND', '/dav/', basic, { headers: { depth: '1' } });
      assert.equal(listing.status, 207);
      assert.equal((listing.text.match(/<(\w+:)?href>[^<]*notes\.txt</g) ?? []).length, 1);
    });

    it("an editor's save (PUT a temp file, MOVE it over the document) makes the old document a version of the document", async () => {
      const alice = await userWith();
      const account = await createAccount(api, alice.token, { name: 'LibreOffice box' });
      const basic = basicHeader(await emailOf(api, alice.token), account.password);
      const v1 = randomBytes(3000);
      const v2 = randomBytes(4000);
      const v3 = randomBytes(5000);
      assert.equal((await dav(server, 'PUT', '/dav/Report.odt', basic, { body: v1 })).status, 201);
      for (const [i, body] of [v2, v3].entries()) {
        assert.equal((await dav(server, 'PUT', `/dav/.~lock-tmp${i}.odt`, basic, { body })).status, 201);
        // RFC 4918 §9.9.3: Overwrite: T on an existing destination answers 204.
        const moved = await dav(server, 'MOVE', `/dav/.~lock-tmp${i}.odt`, basic, { headers: { destination: `${server.url}/dav/Report.odt`, overwrite: 'T' } });
        assert.equal(moved.status, 204, moved.text);
      }
      assert.ok((await current(alice, '/Report.odt')).equals(v3));
      const list = await versions(alice, '/Report.odt');
      assert.deepEqual(list.map((v) => v.size), [v3.length, v2.length, v1.length]);
      assert.ok((await versionBytes(alice, list[1]!.id)).body.equals(v2));
      assert.ok((await versionBytes(alice, list[2]!.id)).body.equals(v1));
      // Nothing else is left behind: no temp file, nothing in the trash, and each content counted once.
      const listing = await api.get<{ files: FileView[] }>('/api/v4/file?path=/', { token: alice.token });
      assert.deepEqual(listing.body.data.files.map((f) => f.name), ['Report.odt']);
      assert.equal((await api.get<{ files: unknown[] }>('/api/v4/file/trash', { token: alice.token })).body.data.files.length, 0);
      assert.deepEqual(await capacity(api, alice.token), { used: v1.length + v2.length + v3.length, total: 2 ** 30, versions: v1.length + v2.length, reserved: 0 });
    });

    it('restore makes a version current and the current content a version; delete frees a version at once; another user gets 404', async () => {
      const alice = await userWith();
      const bob = await userWith();
      const v1 = randomBytes(1000);
      const v2 = randomBytes(2000);
      await put(api, alice.token, '/r.bin', v1);
      await put(api, alice.token, '/r.bin', v2);
      const old = (await versions(alice, '/r.bin'))[1]!;
      // Owner-only: bob cannot list, read, restore or delete alice's version.
      assert.equal((await versionBytes(bob, old.id)).status, 404);
      assert.equal((await api.post('/api/v4/file/versions/restore', { path: '/r.bin', version_id: old.id }, { token: bob.token })).status, 404);
      assert.equal((await api.delete(`/api/v4/file/versions/${old.id}`, undefined, { token: bob.token })).status, 404);

      const restored = await api.post<FileView>('/api/v4/file/versions/restore', { path: '/r.bin', version_id: old.id }, { token: alice.token });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.body.data.size, v1.length);
      assert.ok((await current(alice, '/r.bin')).equals(v1));
      const list = await versions(alice, '/r.bin');
      assert.deepEqual(list.map((v) => v.size), [v1.length, v2.length]);
      assert.ok((await versionBytes(alice, list[1]!.id)).body.equals(v2), 'the replaced current content is now a version');
      assert.deepEqual(await capacity(api, alice.token), { used: v1.length + v2.length, total: 2 ** 30, versions: v2.length, reserved: 0 });

      const blobs = await blobCount();
      const del = await api.delete(`/api/v4/file/versions/${list[1]!.id}`, undefined, { token: alice.token });
      assert.equal(del.status, 200, del.text);
      assert.deepEqual(await capacity(api, alice.token), { used: v1.length, total: 2 ** 30, versions: 0, reserved: 0 });
      assert.equal(await blobCount(), blobs - 1, "the deleted version's blob is freed");
      assert.equal((await versions(alice, '/r.bin')).length, 1);
      assert.equal((await versionBytes(alice, list[1]!.id)).status, 404);
    });

    it('max_versions prunes the oldest on write, exactly; 0 keeps none', async () => {
      const alice = await userWith({ max_versions: 3 });
      const contents = Array.from({ length: 6 }, (_, i) => randomBytes(1000 + i));
      for (const c of contents) assert.equal((await put(api, alice.token, '/p.bin', c)).status, 200);
      const list = await versions(alice, '/p.bin');
      assert.deepEqual(list.map((v) => v.size), [1005, 1004, 1003, 1002]);
      for (const [i, v] of list.slice(1).entries()) assert.ok((await versionBytes(alice, v.id)).body.equals(contents[4 - i]!));
      assert.deepEqual(await capacity(api, alice.token), { used: 1005 + 1004 + 1003 + 1002, total: 2 ** 30, versions: 1004 + 1003 + 1002, reserved: 0 });

      const off = await userWith({ max_versions: 0 });
      await put(api, off.token, '/o.bin', 'one');
      await put(api, off.token, '/o.bin', 'two!');
      assert.equal((await versions(off, '/o.bin')).length, 1);
      assert.deepEqual(await capacity(api, off.token), { used: 4, total: 2 ** 30, versions: 0, reserved: 0 });
    });

    it('lowering max_versions: the job prunes files over the new count', async () => {
      const alice = await userWith({ max_versions: 5 });
      for (const n of [1, 2, 3, 4]) await put(api, alice.token, '/low.bin', 'x'.repeat(n));
      const me = await api.get<{ group: { id: number } }>('/api/v4/user/me', { token: alice.token });
      const groupId = me.body.data.group.id;
      assert.equal((await api.put(`/api/v4/admin/group/${groupId}`, { max_versions: 1 }, { token: admin })).status, 200);
      await server.built.services.jobs.run('version_prune');
      assert.deepEqual((await versions(alice, '/low.bin')).map((v) => v.size), [4, 3]);
      assert.deepEqual(await capacity(api, alice.token), { used: 7, total: 2 ** 30, versions: 3, reserved: 0 });
    });

    it('a deleted file takes its versions into the trash; restoring brings them back; emptying the trash frees them', async () => {
      const alice = await userWith();
      await put(api, alice.token, '/t/doc.txt', 'version one');
      await put(api, alice.token, '/t/doc.txt', 'version two!');
      const used = 11 + 12;
      assert.equal((await api.delete('/api/v4/file', { paths: ['/t/doc.txt'] }, { token: alice.token })).status, 200);
      assert.equal((await api.get(`/api/v4/file/versions?path=${q('/t/doc.txt')}`, { token: alice.token })).status, 404);
      assert.deepEqual(await capacity(api, alice.token), { used, total: 2 ** 30, versions: 11, reserved: 0 });
      const trash = await api.get<{ files: FileView[] }>('/api/v4/file/trash', { token: alice.token });
      const id = trash.body.data.files[0]!.id;
      assert.equal((await api.post('/api/v4/file/trash/restore', { ids: [id] }, { token: alice.token })).status, 200);
      const list = await versions(alice, '/t/doc.txt');
      assert.equal(list.length, 2);
      assert.equal((await versionBytes(alice, list[1]!.id)).body.toString(), 'version one');

      const blobs = await blobCount();
      await api.delete('/api/v4/file', { paths: ['/t/doc.txt'] }, { token: alice.token });
      const emptied = await api.delete('/api/v4/file/trash', undefined, { token: alice.token });
      assert.equal(emptied.status, 200, emptied.text);
      assert.deepEqual(await capacity(api, alice.token), { used: 0, total: 2 ** 30, versions: 0, reserved: 0 });
      assert.equal(await blobCount(), blobs - 2, 'the file and its version were both freed');
      // Deleting for good at once (no trash) frees the versions too.
      await put(api, alice.token, '/t/gone.txt', 'aaa');
      await put(api, alice.token, '/t/gone.txt', 'bbbb');
      assert.equal((await api.delete('/api/v4/file', { paths: ['/t'], permanent: true }, { token: alice.token })).status, 200);
      assert.deepEqual(await capacity(api, alice.token), { used: 0, total: 2 ** 30, versions: 0, reserved: 0 });
    });

    it('a blob shared by a copy and a version is freed only when the last holder goes', async () => {
      const alice = await userWith();
      await put(api, alice.token, '/c/a.txt', 'shared bytes');
      assert.equal((await api.post('/api/v4/file/move', { paths: ['/c/a.txt'], dst: '/', copy: true }, { token: alice.token })).status, 200);
      await put(api, alice.token, '/c/a.txt', 'new bytes');
      const [, old] = await versions(alice, '/c/a.txt');
      // The copy still reads the bytes the version also holds; deleting the version leaves them.
      assert.equal((await api.delete(`/api/v4/file/versions/${old!.id}`, undefined, { token: alice.token })).status, 200);
      await server.built.services.files.sweep();
      assert.equal((await current(alice, '/a.txt')).toString(), 'shared bytes');
    });

    it('version_days: the jobs runner prunes versions older than the group keeps them, and frees their blobs', async () => {
      const alice = await userWith({ version_days: 2 });
      const email = await emailOf(api, alice.token);
      // Moving the clock expires access tokens: sign in again after each step.
      const later = async (ms: number) => {
        clock.advance(ms);
        alice.token = (await signIn(api, email, 'user-password-123')).token.access_token;
        admin = await adminToken(api);
      };
      const putOk = async (body: string) => {
        const res = await put(api, alice.token, '/age.bin', body);
        assert.equal(res.status, 200, res.text);
      };
      await putOk('aaaa');
      await putOk('bbbbbb');
      await later(DAY);
      await putOk('cccccccc');
      // Day 2.5: the first version (replaced at day 0) is past 2 days; the second (day 1) is not.
      await later(1.5 * DAY);
      const blobs = await blobCount();
      await server.built.services.jobs.run('version_prune');
      assert.deepEqual((await versions(alice, '/age.bin')).map((v) => v.size), [8, 6]);
      assert.deepEqual(await capacity(api, alice.token), { used: 14, total: 2 ** 30, versions: 6, reserved: 0 });
      assert.equal(await blobCount(), blobs - 1);
      await later(DAY);
      await server.built.services.jobs.run('version_prune');
      assert.deepEqual((await versions(alice, '/age.bin')).map((v) => v.size), [8]);
      assert.deepEqual(await capacity(api, alice.token), { used: 8, total: 2 ** 30, versions: 0, reserved: 0 });
    });
  });
}

suite('local');
suite('s3');
