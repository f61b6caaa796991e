import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';

describe('site', () => {
  let server: InjectedServer;
  let api: Api;
  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
  });
  after(() => server.close());

  it('GET /api/v4/site/ping answers with the version in the envelope', async () => {
    const res = await api.get<string>('/api/v4/site/ping');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['code', 'data', 'msg']);
    assert.equal(res.body.code, 0);
    assert.equal(res.body.msg, '');
    assert.match(res.body.data, /^\d+\.\d+\.\d+/);
  });

  it('unknown /api/v4 routes are enveloped 404s', async () => {
    for (const [method, path] of [['GET', '/api/v4/nope'], ['POST', '/api/v4/user/nope'], ['DELETE', '/api/v4']] as const) {
      const res = await api.call(method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 404);
      assert.equal(typeof res.body.msg, 'string');
    }
  });

  it('errors raised before routing (bad percent-encoding, over-long path parameter) still get the envelope', async () => {
    const bad = await api.get('/api/v4/session/oauth/app/%E0%A4%A');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 40001);
    const long = await api.get(`/api/v4/session/oauth/app/${'a'.repeat(5000)}`);
    assert.ok(long.status === 414 || long.status === 400 || long.status === 404, `status ${long.status}`);
    assert.equal(typeof long.body.code, 'number');
    assert.notEqual(long.body.code, 0);
  });
});
