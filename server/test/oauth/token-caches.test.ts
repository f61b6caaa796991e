// The token endpoint answers most client lookups and throttle checks from
// memory (clients.ts, the throttle's clean-key memory in throttle/service.ts). Changes made on this instance
// must still take effect at once: each case warms the memory with a good
// request first, then changes something and expects the very next request to
// see it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser } from '../helpers/client.js';
import { approve, createApp, exchange, postForm, type AppView, type OAuthTestContext, startOAuthServer } from './helpers.js';

describe('token endpoint memory (client cache, clean throttle keys)', () => {
  let ctx: OAuthTestContext;
  let userToken: string;

  before(async () => {
    ctx = await startOAuthServer();
    userToken = (await createUser(ctx.api, ctx.adminToken, 'caches@example.com')).token.access_token;
  });
  after(() => ctx.server.close());

  const putApp = (id: string, client: Record<string, unknown>) => ctx.api.put<AppView>(`/api/v4/admin/oauthClient/${id}`, { client }, { token: ctx.adminToken });

  /** One successful exchange, so the client row and its throttle keys are in memory. */
  async function warm(app: { id: string; secret: string }): Promise<void> {
    const res = await exchange(ctx, app, await approve(ctx, userToken, app));
    assert.equal(res.status, 200, res.text);
  }

  it('RFC 6749 §3.2.1: disabling an app stops code exchange at once (a code issued before is refused)', async () => {
    const app = await createApp(ctx, { name: 'Disabled soon' });
    await warm(app);
    const code = await approve(ctx, userToken, app);
    assert.equal((await putApp(app.id, { is_enabled: false })).status, 200);
    const res = await exchange(ctx, app, code);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.body.error, 'invalid_client');
  });

  it('RFC 6749 §2.3.1: a regenerated secret replaces the old one at once', async () => {
    const app = await createApp(ctx, { name: 'New secret' });
    await warm(app);
    const res = await putApp(app.id, { regenerate_secret: true });
    assert.equal(res.status, 200, res.text);
    const fresh = res.body.data as AppView & { secret: string };
    assert.notEqual(fresh.secret, app.secret);
    const old = await exchange(ctx, app, await approve(ctx, userToken, app));
    assert.equal(old.status, 401, old.text);
    assert.equal(old.body.error, 'invalid_client');
    const ok = await exchange(ctx, { id: app.id, secret: fresh.secret }, await approve(ctx, userToken, app));
    assert.equal(ok.status, 200, ok.text);
  });

  it('RFC 6749 §3.2.1: a deleted app is refused at once', async () => {
    const app = await createApp(ctx, { name: 'Deleted soon' });
    await warm(app);
    const code = await approve(ctx, userToken, app);
    assert.equal((await ctx.api.delete(`/api/v4/admin/oauthClient/${app.id}`, undefined, { token: ctx.adminToken })).status, 200);
    const res = await exchange(ctx, app, code);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.body.error, 'invalid_client');
  });

  it('a re-enabled app is accepted again at once', async () => {
    const app = await createApp(ctx, { name: 'Back again' });
    await warm(app);
    assert.equal((await putApp(app.id, { is_enabled: false })).status, 200);
    assert.equal((await exchange(ctx, app, 'x')).status, 401);
    assert.equal((await putApp(app.id, { is_enabled: true })).status, 200);
    await warm(app);
  });

  it('the client-authentication throttle locks a client whose keys were known clean a moment before', async () => {
    const app = await createApp(ctx, { name: 'Clean then guessed' });
    await warm(app);
    let last: Awaited<ReturnType<typeof postForm>> | undefined;
    for (let i = 0; i < 8; i++) {
      last = await postForm(ctx, { grant_type: 'authorization_code', code: 'x', client_id: app.id, client_secret: `wrong-secret-${i}-xxxx` });
      if (last.status === 429) break;
      assert.equal(last.status, 401, last.text);
    }
    assert.equal(last!.status, 429, last!.text);
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    // The right secret with a valid code is refused while locked.
    const locked = await exchange(ctx, app, await approve(ctx, userToken, app));
    assert.equal(locked.status, 429, locked.text);
  });
});
