// Notifications live on every instance (issue 37, api-contract §17): two app
// instances on one database (the same SQLite file, or one PostgreSQL
// database); a notification raised on A reaches a stream open on B within
// 2 s, through Redis when configured and by the per-instance poll otherwise.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { freePort } from '../../src/ops/free-port.js';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser } from '../helpers/client.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { adminToken } from '../files/helpers.js';
import { SseStream } from '../files/sse.js';

async function secondInstance(first: TestServer): Promise<{ url: string; built: BuiltApp }> {
  const built = await buildApp(first.config, { logger: false });
  const port = await freePort('127.0.0.1');
  await built.app.listen({ host: '127.0.0.1', port });
  return { url: `http://127.0.0.1:${port}`, built };
}

const backends = process.env.CIRRUS_TEST_DATABASE_URL ? [false, true] : [false];

for (const withRedis of backends) {
  describe(`notifications on two instances ${withRedis ? 'with Redis' : 'without Redis (database poll)'}`, () => {
    let redis: TestRedis | undefined;
    let a: TestServer;
    let b: { url: string; built: BuiltApp };
    let apiA: Api;
    let admin: string;

    before(async () => {
      if (withRedis) redis = await startRedis();
      a = await startServer(redis ? { CIRRUS_REDIS_URL: redis.url } : {});
      b = await secondInstance(a);
      apiA = new Api(a.url);
      admin = await adminToken(apiA);
    });
    after(async () => {
      await b?.built.app.close();
      await a?.close();
      await redis?.close();
    });

    it('a share made on A reaches the recipient\'s stream on B within 2 s, once, with the unread count right after', async () => {
      const tag = `${withRedis}-${process.pid}-${Date.now()}`;
      const owner = await createUser(apiA, admin, `ni-owner-${tag}@example.com`);
      const reader = await createUser(apiA, admin, `ni-reader-${tag}@example.com`);
      const stream = new SseStream(`${b.url}/api/v4/notifications/events`, { authorization: `Bearer ${reader.token.access_token}` });
      await stream.ready;
      assert.equal(stream.status, 200);
      const lags: number[] = [];
      for (let i = 0; i < 3; i++) {
        const name = `Folder ${i}`;
        assert.equal((await apiA.post('/api/v4/file/create', { path: `/${name}`, type: 'folder' }, { token: owner.token.access_token })).status, 200);
        const started = Date.now();
        const res = await apiA.put('/api/v4/file/access', { path: `/${name}`, user: reader.user.email, permission: 'read' }, { token: owner.token.access_token });
        assert.equal(res.status, 200, res.text);
        const arrived = await stream.until(() => stream.events.some((e) => e.event === 'notification' && (JSON.parse(e.data) as { data: { name: string } }).data.name === name), 3000);
        assert.ok(arrived, `${name} arrived on B`);
        lags.push(Date.now() - started);
      }
      const events = stream.events.filter((e) => e.event === 'notification').map((e) => JSON.parse(e.data) as { id: string; type: string; read: boolean });
      assert.equal(events.length, 3, 'each once');
      assert.ok(events.every((e) => e.type === 'shared_with_me' && e.read === false));
      console.log(`# ${withRedis ? 'redis' : 'poll'}: A -> B in ${lags.join(', ')} ms`);
      assert.ok(Math.max(...lags) < 2000, `slowest ${Math.max(...lags)} ms`);
      const page = await new Api(b.url).get<{ unread: number }>('/api/v4/notifications', { token: reader.token.access_token });
      assert.equal(page.body.data.unread, 3);
      await stream.close();
    });

    it('the stream obeys the per-token cap of the change feed (20 here, 429 past it)', async () => {
      const u = await createUser(apiA, admin, `ni-cap-${withRedis}-${process.pid}-${Date.now()}@example.com`);
      const open: SseStream[] = [];
      for (let i = 0; i < 20; i++) open.push(new SseStream(`${b.url}/api/v4/notifications/events`, { authorization: `Bearer ${u.token.access_token}` }));
      await Promise.all(open.map((s) => s.ready));
      assert.ok(open.every((s) => s.status === 200));
      const refused = await fetch(`${b.url}/api/v4/notifications/events`, { headers: { authorization: `Bearer ${u.token.access_token}` } });
      assert.equal(refused.status, 429);
      assert.ok(refused.headers.get('retry-after'));
      await refused.body?.cancel();
      await Promise.all(open.map((s) => s.close()));
    });
  });
}
