// The throttle helper itself (throttle/service.ts) on the real store of the
// database under test, with the clock held still so that no lock runs out:
// 200 parallel attempts with a slow check, 199 wrong and the right one last.
// Exactly the policy's allowance is checked (5 free + the 6th that locks),
// whatever the concurrency, and the right guess is refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SqlThrottleStore } from '../../src/throttle/repository.js';
import { ACCOUNT_POLICY, ADDRESS_POLICY, Throttle } from '../../src/throttle/service.js';
import { freshDatabase, type FreshDatabase } from './support.js';
import { ClientAuthenticator } from '../../src/oauth/token/client-auth.js';
import type { Client, ClientService } from '../../src/oauth/clients.js';

describe('throttle helper: reserve before the check', () => {
  let fresh: FreshDatabase;
  let db: Db;
  before(async () => {
    fresh = await freshDatabase();
    db = createDb(loadConfig(fresh.env).database);
    await migrateToLatest(db);
  });
  after(async () => {
    await db.destroy();
    await fresh.drop();
  });

  async function burst(throttle: Throttle, key: string): Promise<{ checked: number; refused: number; rightAccepted: boolean }> {
    let checked = 0;
    let refused = 0;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        throttle
          .attempt([{ key, policy: ACCOUNT_POLICY, clearOnSuccess: true }, { key: `${key}:addr`, policy: ADDRESS_POLICY }], async () => {
            checked++;
            await delay(20); // a slow check (argon2): every attempt is in flight at once
            return i === 199;
          })
          .catch((err: Error) => {
            assert.match(err.message, /Too many failed attempts; try again in 1 second/);
            refused++;
            return 'refused' as const;
          }),
      ),
    );
    return { checked, refused, rightAccepted: results[199] === true };
  }

  it('200 parallel attempts: exactly 6 checked, the right one last refused (database store)', async () => {
    const now = Date.now();
    const r = await burst(new Throttle(new SqlThrottleStore(db), { clock: { now: () => now } }), 'burst:store');
    assert.deepEqual(r, { checked: 6, refused: 194, rightAccepted: false });
  });

  it('200 parallel attempts: exactly 6 checked with the clean-key memory too (one instance)', async () => {
    const now = Date.now();
    const r = await burst(new Throttle(new SqlThrottleStore(db), { clock: { now: () => now }, rememberCleanMs: 1000 }), 'burst:memory');
    assert.deepEqual(r, { checked: 6, refused: 194, rightAccepted: false });
  });

  it('a right guess gives its attempt back: the address count is unchanged and the account count is cleared', async () => {
    const now = Date.now();
    const throttle = new Throttle(new SqlThrottleStore(db), { clock: { now: () => now } });
    const targets = [
      { key: 'ok:acct', policy: ACCOUNT_POLICY, clearOnSuccess: true },
      { key: 'ok:addr', policy: ADDRESS_POLICY },
    ];
    assert.equal(await throttle.attempt(targets, () => false), false);
    assert.equal(await throttle.attempt(targets, () => 'user'), 'user');
    const rows = await db.selectFrom('login_throttle').select(['key', 'failures']).where('key', 'like', 'ok:%').orderBy('key').execute();
    assert.deepEqual(rows.map((r) => [r.key, Number(r.failures)]), [['ok:addr', 1]]);
    // An exception in the check is not a guess: nothing is counted.
    await assert.rejects(throttle.attempt(targets, () => Promise.reject(new Error('database down'))), /database down/);
    const after = await db.selectFrom('login_throttle').select(['key', 'failures']).where('key', 'like', 'ok:%').orderBy('key').execute();
    assert.deepEqual(after.map((r) => [r.key, Number(r.failures)]).filter(([, n]) => n !== 0), [['ok:addr', 1]]);
  });

  it('after a lock runs out one more guess is checked, and its failure doubles the lock', async () => {
    let now = Date.now();
    const throttle = new Throttle(new SqlThrottleStore(db), { clock: { now: () => now } });
    const t = [{ key: 'double:acct', policy: ACCOUNT_POLICY }];
    for (let i = 0; i < 6; i++) assert.equal(await throttle.attempt(t, () => false), false);
    await assert.rejects(throttle.attempt(t, () => true), /try again in 1 second/);
    now += 1000;
    assert.equal(await throttle.attempt(t, () => false), false);
    await assert.rejects(throttle.attempt(t, () => true), /try again in 2 seconds/);
  });
  it('a busy confidential client is not taken for a guesser: 50 parallel right secrets, each read slowly, are all authenticated; 50 wrong ones check at most 6 (RFC 6749 §2.3.1)', async () => {
    const throttle = new Throttle(new SqlThrottleStore(db), { rememberCleanMs: 1000 });
    const client = { id: 'busy-client', isPublic: false, secretHash: 'stored' } as unknown as Client;
    const clients = {
      // A slow read (a cache miss on a loaded database): every request is in flight at once.
      findEnabled: async () => {
        await delay(20);
        return client;
      },
      secrets: { verify: (secret: string) => secret === 'the-right-secret' },
    } as unknown as ClientService;
    const auth = new ClientAuthenticator(clients, throttle);
    const form = (secret: string) => new Map([['client_id', 'busy-client'], ['client_secret', secret]]) as unknown as Parameters<ClientAuthenticator['authenticate']>[1];
    const right = await Promise.all(Array.from({ length: 50 }, () => auth.authenticate(undefined, form('the-right-secret'), '192.0.2.10').then(() => 'ok', (e: Error) => e.message)));
    assert.deepEqual(right.filter((r) => r !== 'ok'), [], 'no right secret refused');
    // Wrong secrets from other addresses still meet the bound: at most 6 answered as wrong, the rest 429.
    // Rounds with jittered reads, so that store reads overlap the writes of
    // earlier failures (a read made before a failure's record lands must not
    // call the key clean again: that race once let 7 or 8 through).
    const jittered = new ClientAuthenticator(
      {
        findEnabled: async () => {
          await delay(Math.random() * 20);
          return client;
        },
        secrets: clients.secrets,
      } as unknown as ClientService,
      throttle,
    );
    for (let round = 0; round < 20; round++) {
      const address = `198.51.100.${round + 1}`;
      const wrong = await Promise.all(Array.from({ length: 50 }, (_, i) => jittered.authenticate(undefined, form(`wrong-${i}`), address).then(() => 'ok', (e: Error) => e.message)));
      assert.ok(!wrong.includes('ok'));
      const answered401 = wrong.filter((m) => /authentication failed/i.test(m)).length;
      assert.ok(answered401 <= 6, `round ${round + 1}: at most 6 wrong secrets answered as wrong, got ${answered401}`);
    }
  });
  it('a failure whose record() fails still ends its in-flight hold: the key is not left looking busy', async () => {
    const store = new SqlThrottleStore(db);
    let reserves = 0;
    let failRecords = true;
    const flaky = Object.create(store) as SqlThrottleStore;
    flaky.record = (...args: Parameters<SqlThrottleStore['record']>) => (failRecords ? Promise.reject(new Error('store down')) : store.record(...args));
    flaky.reserve = (...args: Parameters<SqlThrottleStore['reserve']>) => {
      reserves++;
      return store.reserve(...args);
    };
    const throttle = new Throttle(flaky, { rememberCleanMs: 1000 });
    const t = [{ key: 'flaky:acct', policy: ACCOUNT_POLICY }];
    // Five wrong guesses admitted locally, each record() failing: the error reaches the caller.
    for (let i = 0; i < 5; i++) await assert.rejects(throttle.attempt(t, () => false), /store down/);
    failRecords = false;
    // The store holds nothing for the key, so it is clean again; had the five
    // holds stayed in flight, this attempt would have had to go to reserve().
    assert.equal(await throttle.attempt(t, () => 'ok'), 'ok');
    assert.equal(reserves, 0, 'the attempt was admitted locally: no hold leaked');
  });
  it('attemptKnown reads the store at most once per call, also when the key has failures counted (the right answer then clears it)', async () => {
    const store = new SqlThrottleStore(db);
    let reads = 0;
    const counting = Object.create(store) as SqlThrottleStore;
    counting.present = (keys: string[]) => {
      reads++;
      return store.present(keys);
    };
    const throttle = new Throttle(counting, { rememberCleanMs: 1000 });
    const t = [{ key: 'known:acct', policy: ACCOUNT_POLICY, clearOnSuccess: true }];
    assert.equal(await throttle.attemptKnown(t, false), false, 'a wrong answer is returned as such');
    reads = 0;
    assert.equal(await throttle.attemptKnown(t, true), true, 'the right answer passes on a key with one failure');
    assert.equal(reads, 1, 'one read of the store for the call');
    reads = 0;
    assert.equal(await throttle.attemptKnown(t, true), true);
    assert.ok(reads <= 1, 'the key is clean again after the right answer');
  });
});
