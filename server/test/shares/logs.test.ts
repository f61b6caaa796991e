// Log hygiene for share links: with logging on (level trace), no share
// password and no unlock token reaches a log line, whether it travels in a
// body, the query string or the X-Share-Token header.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { startLoggedServer, type LoggedServer } from '../foundation/support.js';
import { fetchBytes, newUser, share, unlock, upload, type Ctx } from './support.js';

describe('shares: log hygiene', () => {
  let server: LoggedServer;
  let ctx: Ctx;
  before(async () => {
    server = await startLoggedServer();
    const api = new Api(server);
    ctx = { server, api, admin: (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token };
  });
  after(() => server.close());

  it('share passwords and unlock tokens are never logged', async () => {
    const owner = await newUser(ctx);
    await upload(ctx, owner, '/f.txt', 'content');
    const password = 'share-password-in-log-test';
    const changed = 'changed-share-password-in-log-test';
    const wrong = 'wrong-share-password-in-log-test';
    const s = await share(ctx, owner, { path: '/f.txt', password });
    assert.equal((await ctx.api.post(`/api/v4/share/unlock/${s.id}`, { password: wrong })).status, 403);
    const token = await unlock(ctx, s.id, password);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}?token=${encodeURIComponent(token)}`)).status, 200);
    assert.equal((await fetchBytes(ctx, `/s/${s.id}`, { headers: { 'x-share-token': token } })).status, 200);
    assert.equal((await ctx.api.get(`/api/v4/share/info/${s.id}?token=${encodeURIComponent(token)}`)).status, 200);
    assert.equal((await ctx.api.patch(`/api/v4/share/${s.id}`, { password: changed }, { token: owner.token })).status, 200);

    const logs = server.logs();
    assert.ok(logs.includes(`/s/${s.id}`), 'the requests were logged');
    for (const [name, secret] of [['password', password], ['changed password', changed], ['wrong password', wrong], ['unlock token', token], ['token MAC', token.split('.')[1]!]]) {
      assert.ok(!logs.includes(secret!), `${name} appears in the logs`);
    }
  });
});
