// Sign-in throttling (api-contract §3): failures are counted per account and
// per client address; past the allowance the answer is 429 with Retry-After.
// Addresses come from the socket (trustProxy is off), so the test talks from
// two loopback addresses, 127.0.0.1 and 127.0.0.2.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { postFrom } from './support.js';

function assertTooMany(res: { status: number; headers: Headers; body: { code: number; data: unknown } }, what: string): number {
  assert.equal(res.status, 429, what);
  assert.equal(res.body.code, 429, what);
  assert.equal(res.body.data, null);
  const retryAfter = res.headers.get('retry-after');
  assert.match(retryAfter ?? '', /^\d+$/, `${what}: Retry-After in whole seconds (RFC 9110 §10.2.3)`);
  const seconds = Number(retryAfter);
  assert.ok(seconds >= 1 && seconds <= 900, `${what}: Retry-After ${seconds}`);
  return seconds;
}

describe('sign-in throttling', () => {
  let server: InjectedServer;
  let api: Api;
  let adminToken: string;
  // Runs with real time; the lock waits move it forward instead of sleeping.
  const clock = new ManualClock();
  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  it('repeated wrong passwords for one account lead to 429 with Retry-After; after it the right password works and clears the count', async () => {
    const u = await createUser(api, adminToken, 'guessed@example.com');
    let res = await api.post('/api/v4/session/token', { email: u.user.email, password: 'wrong-guess-0' });
    let attempts = 1;
    while (res.status === 401 && attempts < 15) {
      res = await api.post('/api/v4/session/token', { email: u.user.email, password: `wrong-guess-${attempts}` });
      attempts++;
    }
    assertTooMany(res, 'after wrong passwords');
    assert.ok(attempts > 5, `a few honest typos are free (${attempts} attempts)`);
    const wait = Number(res.headers.get('retry-after'));
    assertTooMany(await api.post('/api/v4/session/token', { email: u.user.email, password: u.password }), 'the right password while the lock lasts');
    clock.advance(wait * 1000 + 100);
    const after = await api.post('/api/v4/session/token', { email: u.user.email, password: u.password });
    assert.equal(after.status, 200, 'once the lock runs out the right password works');
    // A success clears the account's count: the next typo is a plain 401.
    const typo = await api.post('/api/v4/session/token', { email: u.user.email, password: 'one-more-typo' });
    assert.equal(typo.status, 401);
    assert.equal(typo.body.code, 40080);
  });

  it('guesses sent in parallel are reserved before the password is checked: only the allowance is checked, the rest is 429 at once', async () => {
    const u = await createUser(api, adminToken, 'parallel@example.com');
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post('/api/v4/session/token', { email: u.user.email, password: `parallel-guess-${i}` })));
    const elapsed = Date.now() - started;
    assert.ok(burst.every((r) => r.status === 401 || r.status === 429));
    const checked = burst.filter((r) => r.status === 401).length;
    // 5 free, the 6th locks for 1 s, then one more per lock that ran out (1, 2, 4 s ...).
    let allowed = 6;
    for (let lock = 1000, t = lock; t <= elapsed; lock *= 2, t += lock) allowed++;
    assert.ok(checked <= allowed, `${checked} checked in ${elapsed} ms, at most ${allowed}`);
    for (const r of burst.filter((x) => x.status === 429)) assertTooMany(r, 'a refused guess');
  });

  it("an address that guesses many accounts is locked, and an account's right password from another address still signs in", async () => {
    const victim = await createUser(api, adminToken, 'victim@example.com');
    // Spread over unknown accounts, so that only the address counter grows.
    let locked: Awaited<ReturnType<typeof postFrom>> | undefined;
    for (let i = 0; i < 30 && !locked; i++) {
      const batch = await Promise.all([0, 1, 2].map((j) => postFrom('127.0.0.2', server, '/api/v4/session/token', { email: `spray-${i}-${j}@example.com`, password: 'spray-password' })));
      for (const r of batch) assert.ok(r.status === 401 || r.status === 429, `spray: ${r.status}`);
      locked = batch.find((r) => r.status === 429);
    }
    assert.ok(locked, 'the spraying address is locked');
    let retry = assertTooMany(locked, 'spraying address');
    // The first locks last a second or two; lengthen it so the checks below
    // run inside it even on a slow machine.
    for (let round = 0; retry < 8 && round < 5; round++) {
      clock.advance(retry * 1000 + 50);
      await Promise.all([0, 1, 2, 3, 4, 5].map((j) => postFrom('127.0.0.2', server, '/api/v4/session/token', { email: `spray-more-${round}-${j}@example.com`, password: 'spray-password' })));
      retry = assertTooMany(await postFrom('127.0.0.2', server, '/api/v4/session/token', { email: 'spray-probe@example.com', password: 'spray-password' }), 'spraying address, longer lock');
    }
    const fromSprayer = await postFrom('127.0.0.2', server, '/api/v4/session/token', { email: victim.user.email, password: victim.password });
    assertTooMany(fromSprayer, 'any sign-in from the locked address');

    const fromElsewhere = await postFrom('127.0.0.1', server, '/api/v4/session/token', { email: victim.user.email, password: victim.password });
    assert.equal(fromElsewhere.status, 200, 'the victim signs in from their own address');
    assert.equal(fromElsewhere.body.code, 0);
  });
});
