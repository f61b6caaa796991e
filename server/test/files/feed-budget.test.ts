// Issue 32, change-feed streams: one account cannot hold the instance. An
// account and a token hold a bounded number of streams (429 with
// Retry-After beyond it: RFC 6585 §4, api-contract §1), a burst of parallel
// opens cannot pass the bound, a refused or failed open gives its slot back;
// and holding streams open costs no database reads, however many share a
// token or an account (counted with the server's own statement counter,
// `cirrus_db_statements_total` on /metrics).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { adminToken } from './helpers.js';
import { readMasterKey, signJwt } from '../foundation/support.js';
import { openEvents, type SseStream } from './sse.js';

const METRICS = 'feed-budget-metrics-token-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function statements(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  assert.equal(res.status, 200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('cirrus_db_statements_total '));
  assert.ok(line, 'the statement counter is exported');
  return Number(line.split(' ')[1]);
}

/** An open attempt that is expected to be refused: its whole answer. */
async function refusal(url: string, token: string, headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | null; body: { code?: number; msg?: string } }> {
  const res = await fetch(`${url}/api/v4/file/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers } });
  if (res.status === 200) {
    // An accepted stream never ends by itself: read it as the SSE helper does, and close it.
    const s = openEvents(url, token);
    await res.body?.cancel();
    await s.close();
    return { status: 200, retryAfter: null, body: {} };
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { code?: number; msg?: string } };
}

describe('change-feed streams have a budget per account and per token (issue 32)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let n = 0;
  const open: SseStream[] = [];

  before(async () => {
    server = await startServer({ CIRRUS_MAX_STREAMS_PER_ACCOUNT: '4', CIRRUS_MAX_STREAMS_PER_TOKEN: '3', CIRRUS_METRICS_TOKEN: METRICS });
    api = new Api(server.url);
    admin = await adminToken(api);
  });
  after(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    await server.close();
  });

  const person = async () => {
    n++;
    const email = `budget-${process.pid}-${n}@example.com`;
    const made = await createUser(api, admin, email);
    return { email, password: made.password, token: made.token.access_token };
  };
  const stream = async (token: string) => {
    const s = openEvents(server.url, token);
    open.push(s);
    await s.ready;
    assert.equal(s.status, 200);
    return s;
  };

  it('a token past its streams gets 429 with Retry-After in the envelope (RFC 6585 §4); another token of the account the rest; another account is not touched', async () => {
    const alice = await person();
    const mine = [await stream(alice.token), await stream(alice.token), await stream(alice.token)];
    const refused = await refusal(server.url, alice.token);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 429);
    assert.match(refused.body.msg ?? '', /token already holds 3 event streams/);
    assert.ok(Number(refused.retryAfter) > 0, `Retry-After: ${refused.retryAfter}`);

    // A second device of the same account: one more fits the account's 4, the next does not.
    const phone = (await signIn(api, alice.email, alice.password)).token.access_token;
    await stream(phone);
    const full = await refusal(server.url, phone);
    assert.equal(full.status, 429);
    assert.match(full.body.msg ?? '', /account already holds 4 event streams/);

    const bob = await person();
    for (let i = 0; i < 3; i++) await stream(bob.token);

    // A stream that ends gives its slot back.
    await mine[0]!.close();
    let again = openEvents(server.url, phone);
    await again.ready;
    for (let i = 0; i < 50 && again.status === 429; i++) {
      await sleep(20);
      again = openEvents(server.url, phone);
      await again.ready;
    }
    open.push(again);
    assert.equal(again.status, 200);
  });

  it('a burst of 30 parallel opens with one token gets exactly the token\'s 3 streams', async () => {
    const carol = await person();
    const tries = Array.from({ length: 30 }, () => openEvents(server.url, carol.token));
    open.push(...tries);
    await Promise.all(tries.map((t) => t.ready));
    assert.deepEqual(
      tries.map((t) => t.status).sort(),
      [...Array(3).fill(200), ...Array(27).fill(429)],
    );
  });

  it('opens refused for a bad Last-Event-ID (400) hold no slot', async () => {
    const dave = await person();
    for (let i = 0; i < 5; i++) {
      const bad = await refusal(server.url, dave.token, { 'last-event-id': 'not-a-cursor' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 40001);
    }
    for (let i = 0; i < 3; i++) await stream(dave.token);
  });
});

describe('idle streams cost no database reads (issue 32)', () => {
  // Frozen: a user cache entry expires only when the test moves the clock.
  const clock = new ManualClock({ at: Date.now() });
  let server: TestServer;
  let api: Api;
  const open: SseStream[] = [];

  before(async () => {
    server = await startServer({ CIRRUS_MAX_STREAMS_PER_ACCOUNT: '1000', CIRRUS_MAX_STREAMS_PER_TOKEN: '1000', CIRRUS_METRICS_TOKEN: METRICS }, { clock });
    api = new Api(server.url);
  });
  after(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    await server.close();
  });

  /** Statements run during `ms` of real time after `before` (the check round runs every second). */
  const during = async (ms: number, beforeWindow: () => void = () => undefined) => {
    beforeWindow();
    const start = await statements(server.url);
    await sleep(ms);
    return (await statements(server.url)) - start;
  };

  it('60 streams of 20 people, each person\'s user cache entry expired: the check rounds read no user', async () => {
    const admin = await adminToken(api);
    for (let i = 0; i < 20; i++) {
      const made = await createUser(api, admin, `idle-${process.pid}-${i}@example.com`);
      for (let k = 0; k < 3; k++) {
        const s = openEvents(server.url, made.token.access_token);
        open.push(s);
      }
    }
    await Promise.all(open.map((s) => s.ready));
    assert.ok(open.every((s) => s.status === 200));
    // The same window twice: with every user's entry fresh, then with all of them past the cache's 3 s.
    const fresh = await during(2500);
    const expired = await during(2500, () => clock.advance(10_000));
    // Before: each stream re-read its user once the entry expired (60 reads); one read per person would be 20.
    // Other timers (revocation poll, the hub's head poll) put a few statements of noise in each window.
    assert.ok(expired - fresh < 12, `statements with fresh entries ${fresh}, with expired ones ${expired}`);
    assert.ok(open.every((s) => !s.done), 'every stream is still open');
  });

  it('30 streams of one person on 30 tokens without a session (method C), the entry expired: one read of the user, not one per token', async () => {
    const admin = await adminToken(api);
    const made = await createUser(api, admin, `flight-${process.pid}@example.com`);
    const key = await readMasterKey(server);
    const now = Math.floor(clock.now() / 1000);
    // api-contract §4: a developer's tokens, signed with the master key; no `sid`, so the user row (tokens_valid_after) is what ends them.
    const tokens = Array.from({ length: 30 }, (_, i) => signJwt(key, { token_type: 'access', sub: made.user.id, iat: now, nbf: now, exp: now + 3600 + i }));
    const streams = tokens.map((t) => openEvents(server.url, t));
    open.push(...streams);
    await Promise.all(streams.map((s) => s.ready));
    assert.ok(streams.every((s) => s.status === 200));
    const fresh = await during(2500);
    const expired = await during(2500, () => clock.advance(10_000));
    // Before: the 30 checks of a round missed together and each read the row.
    assert.ok(expired - fresh < 15, `statements with a fresh entry ${fresh}, with an expired one ${expired}`);
    assert.ok(streams.every((s) => !s.done), 'every stream is still open');
  });

  it('a held stream still ends within the revocation poll when its session is signed out', async () => {
    const admin = await adminToken(api);
    const made = await createUser(api, admin, `held-${process.pid}@example.com`);
    const live = openEvents(server.url, made.token.access_token);
    open.push(live);
    await live.ready;
    clock.advance(10_000);
    await sleep(1200);
    const out = await api.call('DELETE', '/api/v4/session/token', { json: { refresh_token: made.token.refresh_token } });
    assert.equal(out.status, 200, out.text);
    const started = Date.now();
    await live.ended;
    assert.ok(Date.now() - started < 3000);
    assert.deepEqual(live.events.at(-1), { id: undefined, event: 'end', data: JSON.stringify({ reason: 'token_revoked' }) });
  });
});
