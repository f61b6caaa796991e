// One authorization code exchanged by several requests at once: the exchange
// inserts its family before it consumes the code, so whichever request wins,
// the losers find the code used and revoke what the winner was issued.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser } from '../helpers/client.js';
import { approve, createApp, eventually, exchange, pkcePair, postForm, startOAuthServer, type AppView, type OAuthTestContext } from './helpers.js';

describe('concurrent code exchange', () => {
  let ctx: OAuthTestContext;
  let app: AppView & { secret: string };
  let userToken: string;

  before(async () => {
    ctx = await startOAuthServer();
    app = await createApp(ctx);
    userToken = (await createUser(ctx.api, ctx.adminToken, 'race@example.com')).token.access_token;
  });
  after(() => ctx.server.close());

  const accessWorks = async (token: string) => (await ctx.api.get('/api/v4/user/me', { token })).status === 200;

  async function race(code: string, extra: Record<string, string>) {
    const results = await Promise.all(Array.from({ length: 5 }, () => exchange(ctx, app, code, extra)));
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, `exactly one exchange gets tokens: ${results.map((r) => r.status).join(',')}`);
    for (const r of results.filter((x) => x.status !== 200)) {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'invalid_grant');
    }
    const won = winners[0]!.body;
    assert.ok(won.access_token && won.refresh_token && won.id_token);
    const refresh = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: won.refresh_token, client_id: app.id, client_secret: app.secret });
    assert.equal(refresh.status, 400, refresh.text);
    assert.equal(refresh.body.error, 'invalid_grant');
    assert.ok(await eventually(async () => !(await accessWorks(won.access_token!))), 'the access token dies within 5 s');
  }

  it('RFC 6749 §4.1.2: five parallel exchanges of one code (PKCE): one gets tokens, and those tokens are revoked', async () => {
    for (let round = 0; round < 3; round++) {
      const { verifier, challenge } = pkcePair();
      const code = await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' });
      await race(code, { code_verifier: verifier });
    }
  });

  it('RFC 6749 §4.1.2: five parallel exchanges of one code (no PKCE, redirect_uri given): one gets tokens, and those tokens are revoked', async () => {
    const code = await approve(ctx, userToken, app);
    await race(code, { redirect_uri: 'https://client.example/callback' });
  });

  it('RFC 6749 §4.1.2: after a race, a fresh code of the same user and app still exchanges and its refresh token rotates', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    await race(code, { code_verifier: verifier });
    const next = pkcePair();
    const fresh = await exchange(ctx, app, await approve(ctx, userToken, app, { code_challenge: next.challenge, code_challenge_method: 'S256' }), { code_verifier: next.verifier });
    assert.equal(fresh.status, 200, fresh.text);
    const rotated = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: fresh.body.refresh_token!, client_id: app.id, client_secret: app.secret });
    assert.equal(rotated.status, 200, rotated.text);
  });
});
