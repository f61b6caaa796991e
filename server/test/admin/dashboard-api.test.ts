// The server side of the administrator dashboard: the overview, groups and
// their rules, the user list (search, sort, storage, last sign-in), password
// reset and sign-out everywhere, app icon names and list search, through the
// HTTP API and the CLI, on SQLite or PostgreSQL (CIRRUS_TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ROOT_DIR } from '../../src/paths.js';

const run = promisify(execFile);

interface Group {
  id: number;
  name: string;
  is_admin: boolean;
  storage_quota: number;
  user_count: number;
}
interface AdminUser {
  id: string;
  email: string;
  nickname: string;
  storage_used: number;
  storage_quota: number | null;
  group_storage_quota: number;
  last_sign_in_at: string | null;
  group: { id: number };
}

describe('admin dashboard API', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let user: { token: { access_token: string; refresh_token: string }; user: { id: string } };

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    user = await createUser(api, admin, 'carol@example.com');
  });
  after(() => server.close());

  describe('GET /api/v4/admin/summary', () => {
    it('counts users, files, storage, shares, apps and sessions, and names what the site runs on', async () => {
      await api.raw('PUT', '/api/v4/file/content?path=/hello.txt', { token: user.token.access_token, body: 'hello world' });
      const res = await api.get<Record<string, unknown> & { days: { date: string; sign_ups: number; uploads: number }[] }>('/api/v4/admin/summary', { token: admin });
      assert.equal(res.status, 200, res.text);
      const s = res.body.data;
      assert.equal(s.users, 2);
      assert.equal(s.files, 1);
      assert.equal(s.storage_used, 11);
      assert.equal(s.shares, 0);
      assert.equal(s.oauth_apps, 0);
      assert.ok((s.active_sessions as number) >= 2);
      assert.equal(s.database, server.dialect);
      assert.equal(s.storage_driver, 'local');
      assert.match(s.version as string, /^\d+\.\d+\.\d+/);
      assert.equal(s.days.length, 30);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(s.days.at(-1)!.date, today);
      assert.deepEqual({ ...s.days.at(-1)! }, { date: today, sign_ups: 2, uploads: 1 });
      assert.equal(s.days.slice(0, -1).reduce((n, d) => n + d.sign_ups + d.uploads, 0), 0);
    });

    it('answers 403 to an ordinary user and 401 without a token', async () => {
      const res = await api.get('/api/v4/admin/summary', { token: user.token.access_token });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 403);
      assert.equal((await api.get('/api/v4/admin/summary')).status, 401);
    });
  });

  describe('groups', () => {
    const put = (body: unknown, id?: number) => api.put<Group>(id ? `/api/v4/admin/group/${id}` : '/api/v4/admin/group', body, { token: admin });
    const list = async () => (await api.get<Group[]>('/api/v4/admin/group', { token: admin })).body.data;

    it('creates, lists with member counts, renames and changes the quota', async () => {
      const res = await put({ name: 'Editors', storage_quota: 5 * 2 ** 30 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.name, 'Editors');
      assert.equal(res.body.data.is_admin, false);
      assert.equal(res.body.data.user_count, 0);
      const changed = await put({ name: 'Writers', storage_quota: 2 ** 30 }, res.body.data.id);
      assert.equal(changed.status, 200, changed.text);
      const all = await list();
      const writers = all.find((g) => g.id === res.body.data.id)!;
      assert.deepEqual([writers.name, writers.storage_quota], ['Writers', 2 ** 30]);
      assert.equal(all.find((g) => g.id === 2)!.user_count, 1);
      assert.equal(all.find((g) => g.id === 1)!.user_count, 1);
    });

    it('refuses a duplicate name (409) and bad input (400)', async () => {
      const dup = await put({ name: 'writers' });
      assert.equal(dup.status, 409, dup.text);
      for (const body of [{}, { name: '' }, { name: 'x', storage_quota: -1 }, { name: 'x', is_admin: 'yes' }, { name: 'a\u0000b' }]) {
        const res = await put(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 40001);
      }
      assert.equal((await put({ name: 'x' }, 999)).status, 404);
      assert.equal((await api.delete('/api/v4/admin/group/abc', undefined, { token: admin })).status, 400);
    });

    it('refuses to delete a group that still has users, saying how many', async () => {
      const g = (await put({ name: 'Crowd' })).body.data;
      const a = await createUser(api, admin, 'crowd1@example.com');
      const b = await createUser(api, admin, 'crowd2@example.com');
      for (const u of [a, b]) assert.equal((await api.put(`/api/v4/admin/user/${u.user.id}`, { group_id: g.id }, { token: admin })).status, 200);
      const res = await api.delete<{ user_count: number }>(`/api/v4/admin/group/${g.id}`, undefined, { token: admin });
      assert.equal(res.status, 409);
      assert.match(res.body.msg, /still has 2 users/);
      assert.equal(res.body.data.user_count, 2);
      assert.ok((await list()).some((x) => x.id === g.id));
      for (const u of [a, b]) await api.put(`/api/v4/admin/user/${u.user.id}`, { group_id: 2 }, { token: admin });
      const ok = await api.delete(`/api/v4/admin/group/${g.id}`, undefined, { token: admin });
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await list()).some((x) => x.id === g.id), false);
    });

    it('the default group for sign-up cannot become an administrator group nor be deleted', async () => {
      const res = await put({ is_admin: true }, 2);
      assert.equal(res.status, 400);
      assert.match(res.body.msg, /default group/);
      const g = (await put({ name: 'Empty default' })).body.data;
      assert.equal((await api.patch('/api/v4/admin/settings', { default_group_id: g.id }, { token: admin })).status, 200);
      const del = await api.delete(`/api/v4/admin/group/${g.id}`, undefined, { token: admin });
      assert.equal(del.status, 409);
      assert.match(del.body.msg, /default group/);
      assert.equal((await api.patch('/api/v4/admin/settings', { default_group_id: 2 }, { token: admin })).status, 200);
      assert.equal((await list()).find((x) => x.id === 2)!.is_admin, false);
    });

    it('the last active administrators never lose their rights through a group change', async () => {
      const res = await put({ is_admin: false }, 1);
      assert.equal(res.status, 403, res.text);
      assert.match(res.body.msg, /last active administrator/);
      assert.equal((await list()).find((x) => x.id === 1)!.is_admin, true);
      assert.equal((await api.get('/api/v4/admin/summary', { token: admin })).status, 200);

      // With another administrator in a second admin group, the first group may lose its rights.
      const staff = (await put({ name: 'Staff', is_admin: true })).body.data;
      const other = await createUser(api, admin, 'second-admin@example.com');
      await api.put(`/api/v4/admin/user/${other.user.id}`, { group_id: staff.id }, { token: admin });
      const demoteStaff = await put({ is_admin: false }, staff.id);
      assert.equal(demoteStaff.status, 200, demoteStaff.text);
      assert.equal((await api.get('/api/v4/admin/summary', { token: other.token.access_token })).status, 403, 'rights are gone at once on this instance');
      await put({ is_admin: true }, staff.id);
      assert.equal((await api.get('/api/v4/admin/summary', { token: other.token.access_token })).status, 200);
    });

    it('answers 403 to an ordinary user', async () => {
      assert.equal((await api.get('/api/v4/admin/group', { token: user.token.access_token })).status, 403);
      assert.equal((await api.put('/api/v4/admin/group', { name: 'Mine' }, { token: user.token.access_token })).status, 403);
      assert.equal((await api.delete('/api/v4/admin/group/2', undefined, { token: user.token.access_token })).status, 403);
    });
  });

  describe('users', () => {
    const listUsers = (body: unknown) => api.post<{ users: AdminUser[]; pagination: { total: number } }>('/api/v4/admin/user', body, { token: admin });

    it('searches by e-mail or nickname, sorts, and shows storage used and the last sign-in', async () => {
      await createUser(api, admin, 'zed.search@example.com');
      const byMail = await listUsers({ keyword: 'ZED.SEARCH' });
      assert.equal(byMail.status, 200, byMail.text);
      assert.deepEqual(byMail.body.data.users.map((u) => u.email), ['zed.search@example.com']);
      assert.equal(byMail.body.data.pagination.total, 1);
      const noLiteralPercent = await listUsers({ keyword: '%' });
      assert.equal(noLiteralPercent.body.data.users.length, 0, '% is taken literally');
      const carol = (await listUsers({ keyword: 'carol' })).body.data.users[0]!;
      assert.equal(carol.storage_used, 11);
      assert.ok(carol.last_sign_in_at && Date.now() - Date.parse(carol.last_sign_in_at) < 600_000);
      assert.equal(carol.storage_quota, null);
      const desc = (await listUsers({ order_by: 'email', order_direction: 'desc', page_size: 100 })).body.data.users.map((u) => u.email);
      assert.deepEqual(desc, [...desc].sort().reverse());
      assert.equal((await listUsers({ order_by: 'password_hash' })).status, 400);
    });

    it('resets a password: a one-time password that works, and every old session ends', async () => {
      const dave = await createUser(api, admin, 'dave@example.com');
      const res = await api.post<{ password: string }>(`/api/v4/admin/user/${dave.user.id}/reset-password`, undefined, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.password.length >= 12);
      const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: dave.token.refresh_token });
      assert.equal(refresh.status, 401);
      await signIn(api, 'dave@example.com', res.body.data.password);
      await assert.rejects(signIn(api, 'dave@example.com', dave.password));
    });

    it('signs a user out everywhere', async () => {
      const erin = await createUser(api, admin, 'erin@example.com');
      const res = await api.post(`/api/v4/admin/user/${erin.user.id}/sign-out`, undefined, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.equal((await api.post('/api/v4/session/token/refresh', { refresh_token: erin.token.refresh_token })).status, 401);
      assert.equal((await api.get('/api/v4/user/me', { token: erin.token.access_token })).status, 401);
      assert.equal((await api.post('/api/v4/admin/user/nobody/sign-out', undefined, { token: admin })).status, 404);
      assert.equal((await api.post(`/api/v4/admin/user/${erin.user.id}/sign-out`, undefined, { token: user.token.access_token })).status, 403);
    });
  });

  describe('OAuth app icons and list', () => {
    const base = { name: 'Icons', redirect_uris: ['https://client.example/cb'], scopes: ['openid'] };
    const create = (client: Record<string, unknown>) => api.put<{ id: string; icon: string }>('/api/v4/admin/oauthClient', { client: { ...base, ...client } }, { token: admin });

    it('accepts an icon name of the set the web app draws, or an https URL', async () => {
      for (const icon of ['cloud-upload', 'photo', 'brand-github-filled', 'https://icons.example/a.png']) {
        const res = await create({ icon });
        assert.equal(res.status, 200, `${icon}: ${res.text}`);
        assert.equal(res.body.data.icon, icon);
      }
    });

    it('refuses an unknown icon name with a hint of valid names', async () => {
      const res = await create({ icon: 'cloud-uplod' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 40001);
      assert.match(res.body.msg, /^icon: "cloud-uplod" is not .*tabler icon name; did you mean: .*cloud/);
      const prefixed = await create({ icon: 'mdi:cloud' });
      assert.equal(prefixed.status, 400);
      assert.match(prefixed.body.msg, /did you mean: cloud/);
    });

    it('points at the failing redirect URI line', async () => {
      const res = await create({ icon: 'photo', redirect_uris: ['https://ok.example/cb', 'not a url', 'https://b.example/cb'] });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.data, { field: 'redirect_uris', index: 1 });
      const dup = await create({ icon: 'photo', redirect_uris: ['https://ok.example/cb', 'https://ok.example/cb'] });
      assert.deepEqual(dup.body.data, { field: 'redirect_uris', index: 1 });
    });

    it('the CLI refuses an unknown icon name too', async () => {
      const db = server.config.database;
      const env = { ...process.env, CIRRUS_DATA_DIR: server.config.dataDir, CIRRUS_LOG_LEVEL: 'silent', ...(db.kind === 'postgres' ? { CIRRUS_DATABASE_URL: db.url } : {}) };
      const args = [path.join(ROOT_DIR, 'dist/server/src/main.js'), 'app', 'create', '--name', 'CLI', '--redirect-uri', 'https://c.example/cb', '--scope', 'openid', '--icon', 'not-an-icon-at-all'];
      const res = await run(process.execPath, args, { env, cwd: ROOT_DIR }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      assert.equal(res.code, 1);
      assert.match(res.stderr, /icon: "not-an-icon-at-all" is not/);
    });

    it('searches apps by name and sorts them', async () => {
      await create({ name: 'Zebra Sync', icon: 'photo' });
      const res = await api.post<{ clients: { name: string }[]; pagination: { total: number } }>('/api/v4/admin/oauthClient', { keyword: 'zebra' }, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.clients.map((c) => c.name), ['Zebra Sync']);
      const sorted = await api.post<{ clients: { name: string }[] }>('/api/v4/admin/oauthClient', { order_by: 'name', order_direction: 'desc' }, { token: admin });
      assert.equal(sorted.body.data.clients[0]!.name, 'Zebra Sync');
    });
  });
});
