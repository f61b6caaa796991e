// One authorization code exchanged by several requests at once: the exchange
// inserts its family before it consumes the code, so whichever request wins,
// the losers find the code used and revoke what the winner was issued.
// On PostgreSQL, exchanges that arrive while one is running go together as
// one statement (db/batches.ts): a burst of many codes, some sent twice and
// some wrong, must come out exactly as if each had run alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createUser, decodeJwt } from '../helpers/client.js';
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

  it('RFC 6749 §4.1.2, §4.1.3, RFC 7636 §4.6: a burst of 40 exchanges at once (batched on PostgreSQL): each good code gets tokens once, a code sent twice is revoked, a wrong verifier or another client is refused', async () => {
    const other = await createApp(ctx, { name: 'Other App' });
    type Case = { code: string; verifier: string; kind: 'good' | 'twice' | 'wrongVerifier' | 'otherClient' };
    const cases: Case[] = [];
    for (let i = 0; i < 28; i++) {
      const { verifier, challenge } = pkcePair();
      const kind = i < 20 ? 'good' : i < 24 ? 'twice' : i < 26 ? 'wrongVerifier' : 'otherClient';
      cases.push({ code: await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' }), verifier, kind });
    }
    const before = { ...ctx.server.built.services.oauth.exchangeBatches };
    const requests = cases.flatMap((c) => {
      if (c.kind === 'wrongVerifier') return [{ c, run: () => exchange(ctx, app, c.code, { code_verifier: pkcePair().verifier }) }];
      if (c.kind === 'otherClient') return [{ c, run: () => exchange(ctx, other, c.code, { code_verifier: c.verifier }) }];
      const one = { c, run: () => exchange(ctx, app, c.code, { code_verifier: c.verifier }) };
      return c.kind === 'twice' ? [one, one] : [one];
    });
    assert.equal(requests.length, 32);
    // Interleaved, so a code's two exchanges are not neighbours in the burst.
    const order = requests.map((r, i) => ({ r, k: (i * 17) % requests.length })).sort((a, b) => a.k - b.k).map((x) => x.r);
    const results = await Promise.all(order.map(async ({ c, run }) => ({ c, res: await run() })));
    for (const c of cases) {
      const mine = results.filter((r) => r.c === c).map((r) => r.res);
      const ok = mine.filter((r) => r.status === 200);
      if (c.kind === 'good') {
        assert.equal(ok.length, 1, mine[0]!.text);
        const rotated = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: ok[0]!.body.refresh_token!, client_id: app.id, client_secret: app.secret });
        assert.equal(rotated.status, 200, `a good code's refresh token rotates: ${rotated.text}`);
      } else if (c.kind === 'twice') {
        assert.equal(ok.length, 1, `one of the two gets tokens: ${mine.map((r) => r.status).join(',')}`);
        const loser = mine.find((r) => r.status !== 200)!;
        assert.equal(loser.body.error, 'invalid_grant');
        const refresh = await postForm(ctx, { grant_type: 'refresh_token', refresh_token: ok[0]!.body.refresh_token!, client_id: app.id, client_secret: app.secret });
        assert.equal(refresh.body.error, 'invalid_grant', 'the winner of a replayed code is revoked');
      } else {
        assert.equal(ok.length, 0);
        assert.equal(mine[0]!.status, 400);
        assert.equal(mine[0]!.body.error, 'invalid_grant');
        assert.match(mine[0]!.body.error_description ?? '', c.kind === 'wrongVerifier' ? /code_verifier/ : /another client/);
        // A refused code stays unspent for its own client.
        const later = await exchange(ctx, app, c.code, { code_verifier: c.verifier });
        assert.equal(later.status, 200, later.text);
      }
    }
    const stats = ctx.server.built.services.oauth.exchangeBatches;
    assert.equal(stats.failedBatches, before.failedBatches, 'no batch failed (a failure would have run its calls one by one)');
    if (process.env.CIRRUS_TEST_DATABASE_URL) assert.ok(stats.batchedCalls > before.batchedCalls, 'on PostgreSQL some exchanges went in batches');
  });

  it('RFC 6749 §6, RFC 9700 §4.14.2: a burst of 28 refreshes at once (batched on PostgreSQL): each family rotates once; a token sent twice at once gets the same new generation twice (grace window)', async () => {
    const jtiOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string }).jti;
    const families: { refresh: string; twice: boolean }[] = [];
    for (let i = 0; i < 24; i++) {
      const { verifier, challenge } = pkcePair();
      const res = await exchange(ctx, app, await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' }), { code_verifier: verifier });
      assert.equal(res.status, 200, res.text);
      families.push({ refresh: res.body.refresh_token!, twice: i >= 20 });
    }
    const before = { ...ctx.server.built.services.oauth.refreshBatches };
    const refresh = (token: string) => postForm(ctx, { grant_type: 'refresh_token', refresh_token: token, client_id: app.id, client_secret: app.secret });
    const results = await Promise.all(families.map(async (f) => ({ f, res: await Promise.all((f.twice ? [1, 2] : [1]).map(() => refresh(f.refresh))) })));
    for (const { f, res } of results) {
      for (const r of res) assert.equal(r.status, 200, r.text);
      if (f.twice) assert.equal(jtiOf(res[0]!.body.refresh_token!), jtiOf(res[1]!.body.refresh_token!), 'both get the generation the winner made');
      const next = await refresh(res[0]!.body.refresh_token!);
      assert.equal(next.status, 200, `the new generation rotates again: ${next.text}`);
    }
    const stats = ctx.server.built.services.oauth.refreshBatches;
    assert.equal(stats.failedBatches, before.failedBatches, 'no batch failed (a failure would have run its calls one by one)');
    if (process.env.CIRRUS_TEST_DATABASE_URL) assert.ok(stats.batchedCalls > before.batchedCalls, 'on PostgreSQL some refreshes went in batches');
  });

  it('PostgreSQL: a refresh waiting on a row lock another transaction holds does not hold back other families\' refreshes (decision 027, lanes)', { skip: !process.env.CIRRUS_TEST_DATABASE_URL }, async () => {
    const families: { refresh: string; sid: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const { verifier, challenge } = pkcePair();
      const res = await exchange(ctx, app, await approve(ctx, userToken, app, { code_challenge: challenge, code_challenge_method: 'S256' }), { code_verifier: verifier });
      assert.equal(res.status, 200, res.text);
      families.push({ refresh: res.body.refresh_token!, sid: String(decodeJwt(res.body.access_token!).sid) });
    }
    const refresh = (token: string) => postForm(ctx, { grant_type: 'refresh_token', refresh_token: token, client_id: app.id, client_secret: app.secret });
    const db = ctx.server.built.services.db;
    const waitingOnLocks = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]!.n);

    // Another transaction (an administrator's revocation, say) holds the first family's row.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM sessions WHERE id = ${families[0]!.sid} FOR UPDATE`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const blocked = refresh(families[0]!.refresh);
    try {
      assert.ok(await eventually(async () => (await waitingOnLocks()) > 0), 'the first family\'s refresh waits on the lock');

      // Meanwhile the other families rotate, one at a time and at once, within seconds.
      const late = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms).unref());
      const first = await Promise.race([refresh(families[1]!.refresh), late(5000)]);
      assert.notEqual(first, 'late', 'a refresh of another family answered while the lock was held');
      assert.equal(first === 'late' ? 0 : first.status, 200);
      const rest = await Promise.race([Promise.all(families.slice(2).map((f) => refresh(f.refresh))), late(5000)]);
      assert.notEqual(rest, 'late', 'refreshes of two more families answered while the lock was held');
      for (const r of rest === 'late' ? [] : rest) assert.equal(r.status, 200, r.text);
    } finally {
      release();
      await holder;
    }
    const after = await blocked;
    assert.equal(after.status, 200, `the waiting refresh goes through once the lock is released: ${after.text}`);
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
