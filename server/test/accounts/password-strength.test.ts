// Password strength (api-contract §11): every new password (sign-up, change,
// admin create and reset; reset is in reset.test.ts) with a zxcvbn score
// below 3 is refused with 400/40001 and a message saying why.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';

const WEAK = ['password1', 'qwertyuiop', '12345678', 'iloveyou123'];

describe('password strength', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    assert.equal((await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: admin })).status, 200);
  });
  after(() => server.close());

  function assertRefused(res: { status: number; body: { code: number; msg: string } }, label: string) {
    assert.equal(res.status, 400, label);
    assert.equal(res.body.code, 40001, label);
    assert.match(res.body.msg, /password: too easy to guess \(strength [0-2] of 4, at least 3 needed\)\. \S/, label);
  }

  it('sign-up refuses guessable passwords and creates nothing; a strong one works', async () => {
    for (const password of WEAK) assertRefused(await api.post('/api/v4/user', { email: 'weak-signup@example.com', password }), password);
    // A password made of the person's own address is guessable too.
    assertRefused(await api.post('/api/v4/user', { email: 'jonathan.smithers@example.com', password: 'jonathan.smithers' }), 'own address');
    assert.equal((await api.post('/api/v4/session/token', { email: 'weak-signup@example.com', password: 'password1' })).status, 401);
    assert.equal((await api.post('/api/v4/user', { email: 'weak-signup@example.com', password: 'violet-harbor-lantern-42' })).status, 200);
  });

  it('an administrator creating or editing a user is held to the same rule', async () => {
    for (const password of WEAK) assertRefused(await api.put('/api/v4/admin/user', { email: 'weak-admin@example.com', password }, { token: admin }), password);
    const u = await createUser(api, admin, 'edited@example.com', 'violet-harbor-lantern-42');
    assertRefused(await api.put(`/api/v4/admin/user/${u.user.id}`, { password: 'password1' }, { token: admin }), 'admin edit');
    await signIn(api, 'edited@example.com', 'violet-harbor-lantern-42');
  });

  it('changing one\'s password refuses a guessable new one and keeps the old', async () => {
    const u = await createUser(api, admin, 'changer@example.com', 'violet-harbor-lantern-42');
    const res = await api.patch('/api/v4/user/setting', { current_password: 'violet-harbor-lantern-42', new_password: 'password1' }, { token: u.token.access_token });
    assertRefused(res, 'change');
    await signIn(api, 'changer@example.com', 'violet-harbor-lantern-42');
  });
});
