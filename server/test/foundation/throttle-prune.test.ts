// The hourly pruning of sign-in throttle rows (throttle/repository.ts):
// a key whose window has long ended and whose lock is over is forgotten; a
// key still counting or still locked is kept, so pruning never shortens a lock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SqlThrottleStore } from '../../src/throttle/repository.js';
import { ACCOUNT_POLICY, Throttle, THROTTLE_RETENTION_MS } from '../../src/throttle/service.js';
import { freshDatabase, type FreshDatabase } from './support.js';

describe('sign-in throttle pruning', () => {
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

  it('forgets old keys whose lock is over and keeps counting or locked ones', async () => {
    const store = new SqlThrottleStore(db);
    const now = Date.now();
    const old = now - THROTTLE_RETENTION_MS - 60_000;
    await store.record('prune:old-unlocked', ACCOUNT_POLICY, old);
    await store.record('prune:recent', ACCOUNT_POLICY, now - 60_000);
    await store.record('prune:old-locked', ACCOUNT_POLICY, old);
    // A lock that outlives its window (set directly: the policy's longest lock is shorter than the retention).
    await db.updateTable('login_throttle').set({ locked_until: now + 600_000 }).where('key', '=', 'prune:old-locked').execute();

    await store.prune(now - THROTTLE_RETENTION_MS, now);

    const left = (await db.selectFrom('login_throttle').select('key').where('key', 'like', 'prune:%').orderBy('key').execute()).map((r) => r.key);
    assert.deepEqual(left, ['prune:old-locked', 'prune:recent']);
    // The locked key still answers 429.
    const throttle = new Throttle(store, { clock: { now: () => now } });
    await assert.rejects(
      throttle.attempt([{ key: 'prune:old-locked', policy: ACCOUNT_POLICY }], () => true),
      /Too many failed attempts/,
    );
  });
});
