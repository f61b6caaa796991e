// Log hygiene: with logging on (level trace), no password, refresh token,
// access token or the master key reaches a log line, whatever the request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { readMasterKey, startLoggedServer, type LoggedServer } from './support.js';

describe('log hygiene', () => {
  let server: LoggedServer;
  let api: Api;
  before(async () => {
    server = await startLoggedServer();
    api = new Api(server);
  });
  after(() => server.close());

  it('sign-in, refresh, password change, sign-out and failed requests log no secret', async () => {
    const secrets: [string, string][] = [['admin password', ADMIN_PASSWORD]];
    const remember = (name: string, pair: TokenPair) => {
      secrets.push([`${name} access token`, pair.access_token], [`${name} refresh token`, pair.refresh_token]);
      // A token cut short is still a leak of its signature.
      secrets.push([`${name} access signature`, pair.access_token.split('.')[2]!], [`${name} refresh signature`, pair.refresh_token.split('.')[2]!]);
    };

    const { token: first } = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    remember('first', first);
    const refreshed = await api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: first.refresh_token });
    assert.equal(refreshed.status, 200);
    remember('refreshed', refreshed.body.data);
    const token = refreshed.body.data.access_token;

    const wrongPassword = 'wrong-password-in-log-test';
    secrets.push(['wrong password', wrongPassword]);
    assert.equal((await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: wrongPassword })).status, 401);

    const malformedSecret = 'password-inside-malformed-json';
    secrets.push(['password in malformed JSON', malformedSecret]);
    const malformed = await api.call('POST', '/api/v4/session/token', { body: `{"email":"${ADMIN_EMAIL}","password":"${malformedSecret}"`, headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);

    const signUpSecret = 'sign-up-password-secret';
    secrets.push(['sign-up password', signUpSecret]);
    assert.equal((await api.post('/api/v4/user', { email: 'closed@example.com', password: signUpSecret })).status, 403);

    // A bad token, a refresh token sent as access token, and an access token in the URL (RFC 6750 §2.3, not supported).
    assert.equal((await api.get('/api/v4/user/me', { headers: { authorization: `Bearer ${token}x` } })).status, 401);
    assert.equal((await api.get('/api/v4/user/me', { token: first.refresh_token })).status, 401);
    assert.equal((await api.get(`/api/v4/user/me?access_token=${token}`)).status, 401);
    assert.equal((await api.get(`/api/v4/no-such-route?refresh_token=${refreshed.body.data.refresh_token}`)).status, 404);
    assert.equal((await api.post('/api/v4/session/token/refresh', { refresh_token: token })).status, 401);

    const newPassword = 'new-admin-password-in-log-test';
    secrets.push(['new password', newPassword]);
    const change = await api.patch('/api/v4/user/setting', { current_password: ADMIN_PASSWORD, new_password: newPassword }, { token });
    assert.equal(change.status, 200);
    const wrongCurrent = await api.patch('/api/v4/user/setting', { current_password: 'wrong-current-password', new_password: 'another-new-password' }, { token });
    assert.equal(wrongCurrent.status, 400);
    secrets.push(['wrong current password', 'wrong-current-password'], ['rejected new password', 'another-new-password']);

    const out = await api.delete('/api/v4/session/token', { refresh_token: refreshed.body.data.refresh_token });
    assert.equal(out.status, 200);

    secrets.push(['master key', await readMasterKey(server)]);
    await new Promise((r) => setTimeout(r, 50));
    const logs = server.logs();
    const lines = logs.trim().split('\n');
    assert.ok(lines.length > 20, `the log was captured (${lines.length} lines)`);
    assert.ok(logs.includes('"request completed"'), 'request lines are there');
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), 'every line is JSON');
    for (const [name, value] of secrets) assert.ok(!logs.includes(value), `the ${name} is not in the log`);
  });
});
