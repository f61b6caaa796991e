// Password sign-in through an LDAP directory (api-contract §15), against a
// real slapd started by this file (slapd.ts): sign-in by uid and by mail,
// wrong and empty passwords, filter injection (RFC 4515 §3), groups and admin
// rights that follow the directory at every sign-in (changed with
// ldapmodify), the password_sign_in switch, the order against a Cirrus
// password account, a person removed from the directory (refused, then banned
// by the periodic job with their sessions ended), the provider test route,
// and a directory that is down or silent (a clear 503, no hang).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn, type TokenPair, type UserView } from '../helpers/client.js';
import { freePort } from '../../src/ops/free-port.js';
import { slapdSkip, startSlapd, type Slapd } from './slapd.js';
import { awayFromStepEdge, currentStep, totp } from '../foundation/support.js';

let server: TestServer;
let api: Api;
let admin: string;
let dir: Slapd;
let providerId: string;
let staffGroup: number;
let managersGroup: number;
const PASSWORDS = { alice: 'alice-directory-pw', bob: 'bob-directory-pw', carol: 'carol-directory-pw', dave: 'dave-directory-pw' };

type SignedIn = { user: UserView; token: TokenPair };
const ldapSignIn = (login: string, password: string) => api.post<SignedIn>('/api/v4/session/token', { email: login, password });

before(async () => {
  if (slapdSkip) return;
  [server, dir] = await Promise.all([
    startServer(),
    startSlapd({
      people: [
        { uid: 'alice', mail: 'alice@example.org', cn: 'Alice Liddell', password: PASSWORDS.alice },
        { uid: 'bob', mail: 'bob@example.org', cn: 'Bob Admin', password: PASSWORDS.bob },
        { uid: 'carol', mail: 'carol@example.org', cn: 'Carol Leaver', password: PASSWORDS.carol },
        { uid: 'dave', mail: 'dave@example.org', cn: 'Dave Local', password: PASSWORDS.dave },
      ],
      groups: [
        { cn: 'staff', members: ['alice'] },
        { cn: 'managers', members: [] },
        { cn: 'cirrus-admins', members: ['bob'] },
      ],
    }),
  ]);
  api = new Api(server);
  admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  staffGroup = (await api.put<{ id: number }>('/api/v4/admin/group', { name: 'Staff' }, { token: admin })).body.data.id;
  managersGroup = (await api.put<{ id: number }>('/api/v4/admin/group', { name: 'Managers' }, { token: admin })).body.data.id;
  const created = await api.put<{ id: string; bind_password_set: boolean }>(
    '/api/v4/admin/identity-providers',
    {
      type: 'ldap',
      name: 'Example Directory',
      url: dir.url,
      bind_dn: dir.rootDn,
      bind_password: dir.rootPassword,
      user_base: dir.peopleDn,
      user_filter: '(&(objectClass=inetOrgPerson)(|(uid={login})(mail={login})))',
      email_attribute: 'mail',
      name_attribute: 'cn',
      group_base: dir.groupsDn,
      group_filter: '(&(objectClass=groupOfNames)(member={dn}))',
      // A key may be a group's DN or its cn.
      group_map: { [`cn=staff,${dir.groupsDn}`]: staffGroup, managers: managersGroup },
      admin_values: ['cirrus-admins'],
      create_accounts: true,
    },
    { token: admin },
  );
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.data.bind_password_set, true);
  assert.ok(!created.text.includes(dir.rootPassword), 'the bind password is write-only');
  providerId = created.body.data.id;
});

after(async () => {
  await server?.close();
  await dir?.close();
});

describe('LDAP sign-in', { skip: slapdSkip }, () => {
  test('by uid: the account is made from the entry (mail, cn), linked, and put in the mapped group (by DN)', async () => {
    const res = await ldapSignIn('alice', PASSWORDS.alice);
    assert.equal(res.status, 200, res.text);
    const { user, token } = res.body.data;
    assert.equal(user.email, 'alice@example.org');
    assert.equal(user.nickname, 'Alice Liddell');
    assert.equal(user.group.id, staffGroup);
    assert.equal(user.is_admin, false);
    const ids = await api.get<{ provider_id: string; provider_type: string }[]>('/api/v4/user/identities', { token: token.access_token });
    assert.deepEqual(
      ids.body.data.map((i) => [i.provider_id, i.provider_type]),
      [[providerId, 'ldap']],
    );
  });

  test('by mail: the same account', async () => {
    const byUid = await ldapSignIn('alice', PASSWORDS.alice);
    const byMail = await ldapSignIn('Alice@Example.org', PASSWORDS.alice);
    assert.equal(byMail.status, 200, byMail.text);
    assert.equal(byMail.body.data.user.id, byUid.body.data.user.id);
  });

  test('a wrong password: 401 envelope, no token', async () => {
    for (const login of ['alice', 'alice@example.org']) {
      const res = await ldapSignIn(login, 'not-alices-password');
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.code, 40080);
      assert.equal(res.body.data, null);
      assert.equal(typeof res.body.msg, 'string');
    }
  });

  test('an empty password is refused (RFC 4513 §5.1.2: it would be an unauthenticated bind, which slapd accepts)', async () => {
    for (const login of ['alice', 'alice@example.org']) {
      const res = await ldapSignIn(login, '');
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 40001);
      assert.equal(res.body.data, null);
    }
  });

  test('filter injection in the login (RFC 4515 §3): every special character is a value, so nobody signs in by it', async () => {
    // Unescaped, `alic*` and `alice)(uid=nobody` would single out Alice's entry, and her password would then sign in.
    for (const login of ['*)(uid=*', 'admin)(|(uid=*', 'alic*', 'alice)(uid=nobody', '*', 'alice\\', 'alice\u0000']) {
      const res = await ldapSignIn(login, PASSWORDS.alice);
      assert.ok(res.status === 401 || res.status === 400, `${JSON.stringify(login)}: ${res.status} ${res.text}`);
      assert.notEqual(res.body.code, 0);
      assert.ok(res.body.code === 40080 || res.body.code === 40001, res.text);
    }
  });

  test('admin_values: a member of cirrus-admins is an administrator', async () => {
    const res = await ldapSignIn('bob', PASSWORDS.bob);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.user.is_admin, true);
  });

  test('Cirrus two-step verification still applies to a directory sign-in (envelope 203, then the code)', async () => {
    const bob = (await ldapSignIn('bob', PASSWORDS.bob)).body.data;
    await awayFromStepEdge(4000);
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: bob.token.access_token });
    assert.equal(begin.status, 200, begin.text);
    const secret = begin.body.data.secret;
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep()) }, { token: bob.token.access_token })).status, 200);
    const first = await api.post<string>('/api/v4/session/token', { email: 'bob', password: PASSWORDS.bob });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.code, 203, first.text);
    const second = await api.post<SignedIn>('/api/v4/session/token/2fa', { session_id: first.body.data, otp: totp(secret, currentStep() + 1) });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.data.user.id, bob.user.id);
  });

  test('the group follows the directory at the next sign-in (ldapmodify mid-test); a group_map key may be a cn', async () => {
    await dir.modify(
      // groupOfNames needs a member: the root DN stays in an otherwise empty group.
      `dn: cn=staff,${dir.groupsDn}\nchangetype: modify\nreplace: member\nmember: ${dir.rootDn}\n\n` +
        `dn: cn=managers,${dir.groupsDn}\nchangetype: modify\nadd: member\nmember: ${dir.personDn('alice')}\n`,
    );
    const moved = await ldapSignIn('alice', PASSWORDS.alice);
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.data.user.group.id, managersGroup);
    await dir.modify(`dn: cn=managers,${dir.groupsDn}\nchangetype: modify\ndelete: member\nmember: ${dir.personDn('alice')}\n`);
    const none = await ldapSignIn('alice', PASSWORDS.alice);
    const config = await api.get<{ default_group_id: number }>('/api/v4/admin/settings', { token: admin });
    assert.equal(none.body.data.user.group.id, config.body.data.default_group_id, 'no mapped group: the default group');
  });

  test('password_sign_in off still lets directory people in (it only limits Cirrus passwords)', async () => {
    await createUser(api, admin, 'erin@example.com');
    assert.equal((await api.patch('/api/v4/admin/settings', { password_sign_in: false }, { token: admin })).status, 200);
    try {
      assert.equal((await ldapSignIn('alice', PASSWORDS.alice)).status, 200);
      const local = await api.post('/api/v4/session/token', { email: 'erin@example.com', password: 'user-password-123' });
      assert.equal(local.status, 403);
      assert.equal(local.body.code, 40019);
    } finally {
      await api.patch('/api/v4/admin/settings', { password_sign_in: true }, { token: admin });
    }
  });

  test('a Cirrus account with the same address keeps its password; the directory does not take it over', async () => {
    const dave = await createUser(api, admin, 'dave@example.org', 'dave-cirrus-password');
    const local = await ldapSignIn('dave@example.org', 'dave-cirrus-password');
    assert.equal(local.status, 200, local.text);
    assert.equal(local.body.data.user.id, dave.user.id);
    // The directory's password for an entry whose mail is Dave's address: refused, not linked.
    for (const login of ['dave', 'dave@example.org']) {
      const viaDirectory = await ldapSignIn(login, PASSWORDS.dave);
      assert.equal(viaDirectory.status, 409, viaDirectory.text);
      assert.equal(viaDirectory.body.code, 40032);
    }
    const ids = await api.get<unknown[]>('/api/v4/user/identities', { token: dave.token.access_token });
    assert.deepEqual(ids.body.data, []);
  });

  test('a directory login is not an e-mail address: 400 when no directory is enabled', async () => {
    assert.equal((await api.patch(`/api/v4/admin/identity-providers/${providerId}`, { enabled: false }, { token: admin })).status, 200);
    try {
      await new Promise((r) => setTimeout(r, 2100)); // the provider cache (providers.ts)
      const res = await ldapSignIn('alice', PASSWORDS.alice);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 40001);
    } finally {
      await api.patch(`/api/v4/admin/identity-providers/${providerId}`, { enabled: true }, { token: admin });
    }
  });

  test('failed directory attempts are throttled like password sign-in (429 after 5)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await ldapSignIn('nobody-such', `guess-${i}`)).status);
    assert.deepEqual(codes.slice(0, 5), [401, 401, 401, 401, 401]);
    assert.equal(codes[6], 429, codes.join(','));
  });
});

describe('people the directory no longer has', { skip: slapdSkip }, () => {
  test('refused at the next sign-in, then banned by the periodic job with their sessions ended', async () => {
    const carol = await ldapSignIn('carol', PASSWORDS.carol);
    assert.equal(carol.status, 200, carol.text);
    const alice = (await ldapSignIn('alice', PASSWORDS.alice)).body.data;
    await dir.modify(`dn: ${dir.personDn('carol')}\nchangetype: delete\n`);
    const refused = await ldapSignIn('carol', PASSWORDS.carol);
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.body.code, 40080);
    // The job, run now instead of in 15 minutes.
    await server.built.services.jobs.run('ldap_check');
    const view = await api.get<{ status: string }>(`/api/v4/admin/user/${carol.body.data.user.id}`, { token: admin });
    assert.equal(view.body.data.status, 'banned');
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: carol.body.data.token.refresh_token });
    assert.notEqual(refresh.status, 200, 'her session has ended');
    const me = await api.get('/api/v4/user/me', { token: carol.body.data.token.access_token });
    assert.notEqual(me.status, 200, 'her access token no longer works');
    // Alice is still in the directory: untouched.
    assert.equal((await api.get('/api/v4/user/me', { token: alice.token.access_token })).status, 200);
  });
});

describe('the provider test route', { skip: slapdSkip }, () => {
  test('connect, bind and search: what worked, and never the bind password', async () => {
    const res = await api.post<{ ok: boolean; steps: { step: string; ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${providerId}/test`, {}, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.ok, true, res.text);
    assert.deepEqual(
      res.body.data.steps.map((s) => s.step),
      ['connect', 'bind', 'search'],
    );
    assert.match(res.body.data.steps[2]!.detail, /3 entries/);
  });

  test('a wrong bind password: the server\'s own error at the bind step', async () => {
    const wrong = await api.put<{ id: string }>(
      '/api/v4/admin/identity-providers',
      { type: 'ldap', name: 'Wrong bind', url: dir.url, bind_dn: dir.rootDn, bind_password: 'wrong-bind-secret-42', user_base: dir.peopleDn, enabled: false },
      { token: admin },
    );
    const res = await api.post<{ ok: boolean; steps: { step: string; ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${wrong.body.data.id}/test`, {}, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.ok, false);
    const bind = res.body.data.steps.find((s) => s.step === 'bind');
    assert.equal(bind?.ok, false, res.text);
    assert.match(bind!.detail, /invalid credentials/i);
    assert.ok(!res.text.includes('wrong-bind-secret-42'));
  });
});

describe('a directory that is down or silent', { skip: slapdSkip }, () => {
  test('down: a clear 503, quickly; the job bans nobody; the test route names the connection error', async () => {
    await dir.stop();
    try {
      const started = Date.now();
      const res = await ldapSignIn('alice', PASSWORDS.alice);
      assert.equal(res.status, 503, res.text);
      assert.match(res.body.msg, /Example Directory/);
      assert.ok(Date.now() - started < 4000);
      await server.built.services.jobs.run('ldap_check');
      const test = await api.post<{ ok: boolean; steps: { step: string; ok: boolean; detail: string }[] }>(`/api/v4/admin/identity-providers/${providerId}/test`, {}, { token: admin });
      assert.equal(test.body.data.ok, false);
      assert.deepEqual(test.body.data.steps.map((s) => [s.step, s.ok]), [['connect', false]]);
      assert.match(test.body.data.steps[0]!.detail, /ECONNREFUSED|connect/i);
    } finally {
      await dir.start();
    }
    assert.equal((await ldapSignIn('alice', PASSWORDS.alice)).status, 200, 'not banned by the outage');
  });

  test('silent (accepts and never answers): 503 after the short timeout, other requests not stalled', async () => {
    const sockets: net.Socket[] = [];
    const blackhole = net.createServer((s) => sockets.push(s));
    const port = await freePort('127.0.0.1');
    await new Promise<void>((r) => blackhole.listen(port, '127.0.0.1', r));
    const silent = await api.put<{ id: string }>(
      '/api/v4/admin/identity-providers',
      { type: 'ldap', name: 'Silent Directory', url: `ldap://127.0.0.1:${port}`, bind_dn: 'cn=x', bind_password: 'y', user_base: 'dc=silent' },
      { token: admin },
    );
    await api.patch(`/api/v4/admin/identity-providers/${providerId}`, { enabled: false }, { token: admin });
    await new Promise((r) => setTimeout(r, 2100)); // the provider cache
    try {
      const started = Date.now();
      const pending = ldapSignIn('someone', 'some-password');
      const other = await api.get('/api/v4/site/config');
      assert.equal(other.status, 200);
      assert.ok(Date.now() - started < 1000, 'another request answered while the directory is silent');
      const res = await pending;
      assert.equal(res.status, 503, res.text);
      assert.match(res.body.msg, /Silent Directory/);
      assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    } finally {
      await api.delete(`/api/v4/admin/identity-providers/${silent.body.data.id}`, undefined, { token: admin });
      await api.patch(`/api/v4/admin/identity-providers/${providerId}`, { enabled: true }, { token: admin });
      for (const s of sockets) s.destroy();
      blackhole.close();
    }
  });
});
