// Activity retention (issue 37): the site setting activity_retention_days
// (default 365; 0 keeps everything), changed through the admin settings API,
// and the jobs runner's activity_retention job, which removes older events.
// Time is moved with a ManualClock rather than rows rewritten; on SQLite or
// PostgreSQL (CIRRUS_TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';

const DAY = 86_400_000;

describe('activity retention', () => {
  const clock = new ManualClock({ at: Date.now() });
  let server: InjectedServer;
  let api: Api;
  const admin = async () => (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  const alice = async () => (await signIn(api, 'alice@example.com', 'user-password-123')).token.access_token;

  const put = async (token: string, path: string) => {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { token, body: 'x', headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text);
  };
  const history = async (token: string) => {
    const res = await api.get<{ items: { type: string; path: string }[] }>('/api/v4/activity', { token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.items.map((i) => `${i.type} ${i.path}`);
  };

  before(async () => {
    server = await startInjectedServer({}, { clock });
    api = new Api(server);
    await createUser(api, await admin(), 'alice@example.com');
  });
  after(() => server.close());

  it('is 365 days unless changed; only administrators change it, within 0 to 36500', async () => {
    const token = await admin();
    const got = await api.get<{ activity_retention_days: number }>('/api/v4/admin/settings', { token });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.data.activity_retention_days, 365);
    for (const bad of [-1, 36501, 1.5, '30']) {
      const res = await api.patch('/api/v4/admin/settings', { activity_retention_days: bad }, { token });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
    }
    assert.equal((await api.patch('/api/v4/admin/settings', { activity_retention_days: 1 }, { token: await alice() })).status, 403);
    assert.equal((await api.get<{ activity_retention_days: number }>('/api/v4/admin/settings', { token })).body.data.activity_retention_days, 365);
  });

  it('the job removes events older than the setting and keeps the rest', async () => {
    await put(await alice(), '/old.txt');
    clock.advance(40 * DAY);
    const token = await alice();
    await put(token, '/new.txt');
    assert.deepEqual(await history(token), ['created /new.txt', 'created /old.txt']);

    // 365 days: nothing is old enough yet.
    await server.built.services.jobs.run('activity_retention');
    assert.deepEqual(await history(token), ['created /new.txt', 'created /old.txt']);

    const set = await api.patch<{ activity_retention_days: number }>('/api/v4/admin/settings', { activity_retention_days: 30 }, { token: await admin() });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.data.activity_retention_days, 30);
    clock.advance(3000); // past the settings cache
    await server.built.services.jobs.run('activity_retention');
    assert.deepEqual(await history(token), ['created /new.txt']);
  });

  it('0 keeps every event however old', async () => {
    const set = await api.patch('/api/v4/admin/settings', { activity_retention_days: 0 }, { token: await admin() });
    assert.equal(set.status, 200, set.text);
    clock.advance(1000 * DAY);
    const token = await alice();
    await server.built.services.jobs.run('activity_retention');
    assert.deepEqual(await history(token), ['created /new.txt']);
  });
});
