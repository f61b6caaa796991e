// Accounts (api-contract §3): sign-up, the signed-in user's settings and
// password, and administrator user management.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, decodeJwt, signIn, type TokenPair, type UserView } from '../helpers/client.js';
import { RFC3339, eventually } from './support.js';

interface UserList {
  users: UserView[];
  pagination: { page: number; page_size: number; total: number };
}

describe('accounts: sign-up', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  async function userCount(): Promise<number> {
    const res = await api.post<UserList>('/api/v4/admin/user', { page: 1, page_size: 1 }, { token: adminToken });
    return res.body.data.pagination.total;
  }

  it('sign-up is closed by default: 403/40019 and no account is created', async () => {
    const before = await userCount();
    const res = await api.post('/api/v4/user', { email: 'early@example.com', password: 'early-password-1' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40019);
    assert.equal(await userCount(), before);
    const signInRes = await api.post('/api/v4/session/token', { email: 'early@example.com', password: 'early-password-1' });
    assert.equal(signInRes.status, 401);
  });

  it('only an administrator can open sign-up (403 for others)', async () => {
    const u = await createUser(api, adminToken, 'not-admin-settings@example.com');
    const denied = await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: u.token.access_token });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 403);
    const anonymous = await api.patch('/api/v4/admin/settings', { signup_enabled: true });
    assert.equal(anonymous.status, 401);
    const settings = await api.get<{ signup_enabled: boolean }>('/api/v4/admin/settings', { token: adminToken });
    assert.equal(settings.body.data.signup_enabled, false);
  });

  it('the default group for new accounts must be an existing group without administrator rights (400/40001, nothing changed)', async () => {
    const before = await api.get<{ default_group_id: number }>('/api/v4/admin/settings', { token: adminToken });
    for (const default_group_id of [999, 1]) {
      const res = await api.patch('/api/v4/admin/settings', { default_group_id, signup_enabled: true }, { token: adminToken });
      assert.equal(res.status, 400, `default_group_id ${default_group_id}`);
      assert.equal(res.body.code, 40001);
      assert.match(res.body.msg, /default_group_id/);
    }
    const after = await api.get<{ default_group_id: number; signup_enabled: boolean }>('/api/v4/admin/settings', { token: adminToken });
    assert.deepEqual(after.body.data, before.body.data, 'no field of the rejected requests was applied');
    assert.equal(after.body.data.signup_enabled, false);
  });

  it('once the administrator opens it, POST /api/v4/user creates a plain user who can sign in', async () => {
    const open = await api.patch<{ signup_enabled: boolean }>('/api/v4/admin/settings', { signup_enabled: true }, { token: adminToken });
    assert.equal(open.status, 200);
    assert.equal(open.body.data.signup_enabled, true);
    const res = await api.post<UserView>('/api/v4/user', { email: 'New.Person@Example.com', password: 'new-person-pw-1', nickname: 'Zoë 🌤 山田' });
    assert.equal(res.status, 200);
    assert.equal(res.body.code, 0);
    const user = res.body.data;
    assert.equal(user.email, 'new.person@example.com', 'e-mail addresses are stored lower-case');
    assert.equal(user.nickname, 'Zoë 🌤 山田', 'unicode nicknames survive unchanged');
    assert.equal(user.is_admin, false);
    assert.deepEqual(user.group, { id: 2, name: 'Users' });
    assert.match(user.created_at, RFC3339);
    assert.match(user.id, /^[A-Za-z0-9]{6,32}$/);
    const { user: signedIn, token } = await signIn(api, 'new.person@example.com', 'new-person-pw-1');
    assert.equal(signedIn.id, user.id);
    assert.equal(decodeJwt(token.access_token).sub, user.id);
  });

  it('an e-mail already registered (in any letter case) is 409/40032', async () => {
    const res = await api.post('/api/v4/user', { email: 'NEW.PERSON@example.com', password: 'another-pw-123' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 40032);
  });

  it('UIDs are opaque and distinct', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await api.post<UserView>('/api/v4/user', { email: `uid-${i}@example.com`, password: 'uid-password-1' });
      ids.add(res.body.data.id);
    }
    assert.equal(ids.size, 3);
    for (const id of ids) assert.doesNotMatch(id, /^\d+$/);
  });
});

describe('accounts: the signed-in user', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  it('GET /api/v4/user/setting shows the user, the 2FA state and oauth_grants[]', async () => {
    const u = await createUser(api, adminToken, 'settings@example.com');
    const res = await api.get<UserView & { two_fa_enabled: boolean; oauth_grants: unknown[] }>('/api/v4/user/setting', { token: u.token.access_token });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, u.user.id);
    assert.equal(res.body.data.email, 'settings@example.com');
    assert.equal(res.body.data.two_fa_enabled, false);
    assert.ok(Array.isArray(res.body.data.oauth_grants));
    assert.ok(!/password|totp_secret/.test(res.text));
  });

  it('GET /api/v4/user/me and /user/setting need a token (401 with a Bearer challenge)', async () => {
    for (const path of ['/api/v4/user/me', '/api/v4/user/setting']) {
      const res = await api.get(path);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer\b/);
    }
  });

  it('PATCH /api/v4/user/setting changes the nickname, trimmed', async () => {
    const u = await createUser(api, adminToken, 'nick@example.com');
    const res = await api.patch<UserView>('/api/v4/user/setting', { nickname: '  Nick Name  ' }, { token: u.token.access_token });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.nickname, 'Nick Name');
    const me = await api.get<UserView>('/api/v4/user/me', { token: u.token.access_token });
    assert.equal(me.body.data.nickname, 'Nick Name');
  });

  it('a wrong current password is 400/40069 and changes nothing', async () => {
    const u = await createUser(api, adminToken, 'wrong-current@example.com');
    const res = await api.patch('/api/v4/user/setting', { current_password: 'not-my-password', new_password: 'brand-new-pw-1', nickname: 'Changed' }, { token: u.token.access_token });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 40069);
    await signIn(api, u.user.email, u.password);
    const me = await api.get<UserView>('/api/v4/user/me', { token: u.token.access_token });
    assert.equal(me.body.data.nickname, u.user.nickname, 'the nickname in the same request is not applied either');
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token });
    assert.equal(refresh.status, 200, 'no session was revoked');
  });

  it('a password change with an invalid field in the same request changes nothing', async () => {
    const u = await createUser(api, adminToken, 'half-change@example.com');
    const res = await api.patch('/api/v4/user/setting', { current_password: u.password, new_password: 'brand-new-pw-2', nickname: '   ' }, { token: u.token.access_token });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 40001);
    await signIn(api, u.user.email, u.password);
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token });
    assert.equal(refresh.status, 200, 'no session was revoked');
  });

  it('current_password and new_password go together (400/40001)', async () => {
    const u = await createUser(api, adminToken, 'pairs@example.com');
    for (const body of [{ current_password: u.password }, { new_password: 'lonely-new-pw-1' }]) {
      const res = await api.patch('/api/v4/user/setting', body, { token: u.token.access_token });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 40001);
    }
    await signIn(api, u.user.email, u.password);
  });

  it('a password change ends the other sessions (refresh and access) and keeps the current one', async () => {
    const u = await createUser(api, adminToken, 'change-pw@example.com');
    const other = await signIn(api, u.user.email, u.password);
    const res = await api.patch('/api/v4/user/setting', { current_password: u.password, new_password: 'changed-password-1' }, { token: u.token.access_token });
    assert.equal(res.status, 200);
    assert.equal(res.body.code, 0);

    const old = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(old.status, 401);
    await signIn(api, u.user.email, 'changed-password-1');

    const otherRefresh = await api.post('/api/v4/session/token/refresh', { refresh_token: other.token.refresh_token });
    assert.equal(otherRefresh.status, 401);
    assert.equal(otherRefresh.body.code, 40020);
    const stopped = await eventually(async () => (await api.get('/api/v4/user/me', { token: other.token.access_token })).status === 401);
    assert.ok(stopped, "the other session's access token stops within 5 s");

    assert.equal((await api.get('/api/v4/user/me', { token: u.token.access_token })).status, 200, 'the current access token still works');
    const mine = await api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: u.token.refresh_token });
    assert.equal(mine.status, 200, 'the current session can still refresh');
  });
});

describe('accounts: administrator user management', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  let adminId: string;
  let plain: { user: UserView; token: TokenPair; password: string };
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    adminToken = admin.token.access_token;
    adminId = admin.user.id;
    plain = await createUser(api, adminToken, 'plain@example.com');
  });
  after(() => server.close());

  it('PUT /api/v4/admin/user creates a user; a taken e-mail is 409/40032', async () => {
    const res = await api.put<UserView>('/api/v4/admin/user', { email: 'Created@Example.com', password: 'created-pw-123', nickname: 'Created' }, { token: adminToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.email, 'created@example.com');
    assert.equal(res.body.data.nickname, 'Created');
    assert.equal(res.body.data.is_admin, false);
    const dup = await api.put('/api/v4/admin/user', { email: 'created@example.com', password: 'created-pw-123' }, { token: adminToken });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 40032);
    const badGroup = await api.put('/api/v4/admin/user', { email: 'nogroup@example.com', password: 'created-pw-123', group_id: 999 }, { token: adminToken });
    assert.equal(badGroup.status, 400);
    assert.equal(badGroup.body.code, 40001);
  });

  it('POST /api/v4/admin/user lists users page by page with the total', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await api.put('/api/v4/admin/user', { email: `${name}@example.com`, password: 'paging-pw-123' }, { token: adminToken });
    const all = await api.post<UserList>('/api/v4/admin/user', {}, { token: adminToken });
    assert.equal(all.status, 200);
    const total = all.body.data.pagination.total;
    assert.ok(total >= 5);
    assert.equal(all.body.data.users.length, Math.min(total, 20));
    assert.deepEqual({ page: all.body.data.pagination.page, page_size: all.body.data.pagination.page_size }, { page: 1, page_size: 20 });

    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 2); page++) {
      const res = await api.post<UserList>('/api/v4/admin/user', { page, page_size: 2 }, { token: adminToken });
      assert.equal(res.body.data.pagination.total, total);
      assert.ok(res.body.data.users.length <= 2);
      seen.push(...res.body.data.users.map((u) => u.id));
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, 'pages neither overlap nor skip');
    const beyond = await api.post<UserList>('/api/v4/admin/user', { page: 1000, page_size: 2 }, { token: adminToken });
    assert.deepEqual(beyond.body.data.users, []);
    for (const bad of [{ page: 0 }, { page_size: 101 }, { page: '2' }, { page_size: 1.5 }]) {
      const res = await api.post('/api/v4/admin/user', bad, { token: adminToken });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.code, 40001);
    }
  });

  it('GET /api/v4/admin/user/:id shows a user; an unknown id is 404', async () => {
    const res = await api.get<UserView>(`/api/v4/admin/user/${plain.user.id}`, { token: adminToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.email, 'plain@example.com');
    const missing = await api.get('/api/v4/admin/user/NoSuchUser9', { token: adminToken });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 404);
  });

  it('PUT /api/v4/admin/user/:id changes the nickname and group, and status "banned" bans', async () => {
    const target = await createUser(api, adminToken, 'to-edit@example.com');
    const edit = await api.put<UserView>(`/api/v4/admin/user/${target.user.id}`, { nickname: 'Edited', group_id: 1 }, { token: adminToken });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.data.nickname, 'Edited');
    assert.equal(edit.body.data.is_admin, true);
    const demote = await api.put<UserView>(`/api/v4/admin/user/${target.user.id}`, { group_id: 2 }, { token: adminToken });
    assert.equal(demote.body.data.is_admin, false);

    const ban = await api.put<UserView>(`/api/v4/admin/user/${target.user.id}`, { status: 'banned' }, { token: adminToken });
    assert.equal(ban.status, 200);
    assert.equal(ban.body.data.status, 'banned');
    const me = await api.get('/api/v4/user/me', { token: target.token.access_token });
    assert.equal(me.status, 401);
    const signInRes = await api.post('/api/v4/session/token', { email: 'to-edit@example.com', password: target.password });
    assert.equal(signInRes.status, 403);
    assert.equal(signInRes.body.code, 40017);
    const badStatus = await api.put(`/api/v4/admin/user/${target.user.id}`, { status: 'deleted' }, { token: adminToken });
    assert.equal(badStatus.status, 400);
  });

  it("an administrator's password reset ends all of the user's sessions and the new password works", async () => {
    const target = await createUser(api, adminToken, 'reset-by-admin@example.com');
    const res = await api.put(`/api/v4/admin/user/${target.user.id}`, { password: 'set-by-admin-1' }, { token: adminToken });
    assert.equal(res.status, 200);
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: target.token.refresh_token });
    assert.equal(refresh.status, 401);
    assert.equal(refresh.body.code, 40020);
    assert.ok(await eventually(async () => (await api.get('/api/v4/user/me', { token: target.token.access_token })).status === 401));
    assert.equal((await api.post('/api/v4/session/token', { email: target.user.email, password: target.password })).status, 401);
    await signIn(api, target.user.email, 'set-by-admin-1');
  });

  it('an administrator cannot ban, demote or delete themself (403)', async () => {
    for (const body of [{ status: 'banned' }, { group_id: 2 }]) {
      const res = await api.put(`/api/v4/admin/user/${adminId}`, body, { token: adminToken });
      assert.equal(res.status, 403, JSON.stringify(body));
    }
    const del = await api.delete(`/api/v4/admin/user/${adminId}`, undefined, { token: adminToken });
    assert.equal(del.status, 403);
    assert.equal((await api.get('/api/v4/user/me', { token: adminToken })).status, 200);
  });

  it('DELETE /api/v4/admin/user/:id deletes; the user is gone and cannot sign in', async () => {
    const target = await createUser(api, adminToken, 'to-remove@example.com');
    const res = await api.delete(`/api/v4/admin/user/${target.user.id}`, undefined, { token: adminToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.data, null);
    assert.equal((await api.get(`/api/v4/admin/user/${target.user.id}`, { token: adminToken })).status, 404);
    assert.equal((await api.post('/api/v4/session/token', { email: 'to-remove@example.com', password: target.password })).status, 401);
    const again = await api.delete(`/api/v4/admin/user/${target.user.id}`, undefined, { token: adminToken });
    assert.equal(again.status, 404);
  });

  it('DELETE /api/v4/admin/user/:id still deletes when something makes the person\'s root folder again while they are being removed (a background job does, now and then): no 500', async () => {
    const target = await createUser(api, adminToken, 'remade-root@example.com');
    // Runs after the files module's hook (registered at start-up), as a job's tree lookup would:
    // the root folder and the storage counters are made again, and their foreign keys refuse the delete.
    let remade = 0;
    server.built.services.accounts.onUserDeleted(async (id) => {
      if (id !== target.user.id || remade > 0) return;
      remade++;
      await server.built.services.files.files.capacity(id);
    });
    const res = await api.delete(`/api/v4/admin/user/${target.user.id}`, undefined, { token: adminToken });
    assert.equal(res.status, 200, res.text);
    assert.equal(remade, 1, 'the root was made again in between');
    assert.equal((await api.get(`/api/v4/admin/user/${target.user.id}`, { token: adminToken })).status, 404);
  });

  it('every admin route is 403 for a non-administrator and 401 without a token', async () => {
    const routes: [string, string, unknown][] = [
      ['POST', '/api/v4/admin/user', {}],
      ['GET', `/api/v4/admin/user/${adminId}`, undefined],
      ['PUT', '/api/v4/admin/user', { email: 'sneaky@example.com', password: 'sneaky-pw-123' }],
      ['PUT', `/api/v4/admin/user/${adminId}`, { status: 'banned' }],
      ['DELETE', `/api/v4/admin/user/${adminId}`, undefined],
      ['GET', '/api/v4/admin/settings', undefined],
    ];
    for (const [method, path, json] of routes) {
      const res = await api.call(method, path, { token: plain.token.access_token, json });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 403);
      const anon = await api.call(method, path, { json });
      assert.equal(anon.status, 401, `${method} ${path} anonymous`);
    }
    const sneaky = await api.post('/api/v4/session/token', { email: 'sneaky@example.com', password: 'sneaky-pw-123' });
    assert.equal(sneaky.status, 401, 'the forbidden create created nothing');
    assert.equal((await api.get('/api/v4/user/me', { token: adminToken })).status, 200, 'the forbidden ban changed nothing');
  });
});
