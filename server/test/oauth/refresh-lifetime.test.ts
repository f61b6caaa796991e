// api-contract §3: an OAuth app may override the site's refresh-token
// lifetime; both refresh routes keep using the app's lifetime on rotation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, type TokenPair } from '../helpers/client.js';
import { approve, createApp, exchange, postForm, startOAuthServer, type OAuthTestContext } from './helpers.js';

const APP_TTL = 7200;
const DAY = 86400;

describe('per-app refresh-token lifetime', () => {
  let ctx: OAuthTestContext;
  let userToken: string;

  before(async () => {
    ctx = await startOAuthServer();
    userToken = (await createUser(ctx.api, ctx.adminToken, 'lifetime@example.com')).token.access_token;
  });
  after(() => ctx.server.close());

  it('the admin API stores, shows and clears refresh_token_ttl, and refuses values out of range', async () => {
    const app = await createApp(ctx, { refresh_token_ttl: APP_TTL });
    assert.equal((app as unknown as { refresh_token_ttl: number }).refresh_token_ttl, APP_TTL);
    for (const bad of [59, 0, -5, 401 * DAY, '7200', 1.5]) {
      const res = await ctx.api.put(`/api/v4/admin/oauthClient/${app.id}`, { client: { refresh_token_ttl: bad } }, { token: ctx.adminToken });
      assert.equal(res.status, 400, `value ${String(bad)}`);
      assert.equal(res.body.code, 40001);
    }
    const unchanged = await ctx.api.get<{ refresh_token_ttl: number | null }>(`/api/v4/admin/oauthClient/${app.id}`, { token: ctx.adminToken });
    assert.equal(unchanged.body.data.refresh_token_ttl, APP_TTL);
    const cleared = await ctx.api.put<{ refresh_token_ttl: number | null }>(`/api/v4/admin/oauthClient/${app.id}`, { client: { refresh_token_ttl: null } }, { token: ctx.adminToken });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.data.refresh_token_ttl, null);
  });

  it('the code exchange, the refresh grant and /session/token/refresh all use the app lifetime', async () => {
    const app = await createApp(ctx, { name: 'Short-lived', refresh_token_ttl: APP_TTL });
    const code = await approve(ctx, userToken, app, { scope: 'openid offline_access UserInfo.Read' });
    const first = await exchange(ctx, app, code);
    assert.equal(first.status, 200, first.text);
    // Issue 11: every lifetime in an answer counts from the one instant the tokens were signed at, so it is exact.
    assert.equal(first.body.refresh_token_expires_in, APP_TTL, 'exchange');

    const second = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: app.id, client_secret: app.secret });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.refresh_token_expires_in, APP_TTL, 'refresh grant');

    const third = await ctx.api.post<TokenPair>('/api/v4/session/token/refresh', { refresh_token: second.body.refresh_token });
    assert.equal(third.status, 200, third.text);
    const seconds = (Date.parse(third.body.data.refresh_expires) - Date.now()) / 1000;
    assert.ok(Math.abs(seconds - APP_TTL) <= 5, `interface refresh: ${seconds}`);
  });

  it('an app without an override uses the site setting (90 days by default)', async () => {
    const app = await createApp(ctx, { name: 'Default' });
    const res = await exchange(ctx, app, await approve(ctx, userToken, app, { scope: 'openid offline_access UserInfo.Read' }));
    assert.equal(res.status, 200, res.text);
    // Issue 11: exactly 7,776,000 (it was 7,775,999 whenever the clock was not on a whole second).
    assert.equal(res.body.refresh_token_expires_in, 7_776_000);
    assert.equal(90 * DAY, 7_776_000);
    const claims = JSON.parse(Buffer.from(res.body.refresh_token!.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    assert.equal(claims.exp - claims.iat, 7_776_000, 'the refresh token itself says the same');
  });
});
