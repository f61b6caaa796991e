// Three instances started at the same moment against one empty PostgreSQL
// database (api-contract §9): migrations and the site's creation run under an
// advisory lock, so every migration runs once, there is one administrator and
// one master key, and all three start. To make the three meet for certain
// (process start-up times differ by more than a migration takes), the test
// holds that lock itself while they start: all three must be found waiting on
// it with nothing migrated, then released at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Api, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { createInstances, instancesSkipReason, sleep, type Instances } from '../helpers/instances.js';
import { migrations } from '../../src/db/migrations/index.js';
import { INIT_LOCK } from '../../src/db/migrate.js';

const skip = await instancesSkipReason();

describe('three instances starting at once on one empty database', { skip }, () => {
  let site: Instances;
  let holder: pg.Client;
  let waitersSeen = 0;
  let tablesWhileHeld: string[] = [];

  before(async () => {
    site = await createInstances(3, {});
    holder = new pg.Client({ connectionString: site.dbUrl });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [INIT_LOCK]);
    let started = false;
    const starting = site.startAll().finally(() => (started = true));
    starting.catch(() => undefined);
    try {
      const deadline = Date.now() + 60_000;
      // Instances that start without waiting end the watch early (and fail the first test).
      while (Date.now() < deadline && !started) {
        const [row] = await site.query<{ n: string }>("SELECT COUNT(*) AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted");
        waitersSeen = Number(row!.n);
        if (waitersSeen >= 3) break;
        await sleep(100);
      }
      tablesWhileHeld = (await site.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).map((r) => r.tablename);
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [INIT_LOCK]);
    }
    await starting;
  });
  after(async () => {
    await holder?.end().catch(() => undefined);
    await site?.close();
  });

  it('while the lock is held elsewhere, all three wait on it and nothing is migrated', () => {
    assert.equal(waitersSeen, 3);
    assert.deepEqual(tablesWhileHeld, []);
  });

  it('released together, all three start and each migration is recorded exactly once', async () => {
    assert.equal(site.list.filter((i) => i.running).length, 3);
    const rows = await site.query<{ name: string; n: string }>('SELECT name, COUNT(*) AS n FROM kysely_migration GROUP BY name ORDER BY name');
    assert.deepEqual(
      rows.map((r) => [r.name, Number(r.n)]),
      Object.keys(migrations)
        .sort()
        .map((name) => [name, 1]),
    );
  });

  it('one administrator and one master key: a token from any instance is accepted by every other', async () => {
    const admins = await site.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN_EMAIL]);
    assert.equal(admins.length, 1);
    for (const from of site.list) {
      const token = (await signIn(new Api(from.url), ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
      for (const to of site.list) assert.equal((await new Api(to.url).get('/api/v4/user/me', { token })).status, 200);
    }
  });
});
