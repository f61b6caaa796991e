// Three instances started at the same moment against one empty PostgreSQL
// database (api-contract §9): the advisory lock lets one of them migrate and
// create the site while the others wait, so every migration runs once, there
// is one administrator and one master key, and all three start.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Api, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { instancesSkipReason, startInstances, type Instances } from '../helpers/instances.js';
import { migrations } from '../../src/db/migrations/index.js';

const skip = await instancesSkipReason();

describe('three instances starting at once on one empty database', { skip }, () => {
  let site: Instances;

  before(async () => {
    site = await startInstances(3, {});
  });
  after(() => site?.close());

  it('all three started and each migration is recorded exactly once', async () => {
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
