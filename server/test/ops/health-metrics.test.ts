// GET /api/v4/site/health and GET /metrics (api-contract §9) on a single
// instance without Redis (the default set-up): health names each part, 503
// naming the failing one; metrics only with the configured bearer token.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import path from 'node:path';
import { startServer, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('health and metrics', () => {
  let server: TestServer;
  let api: Api;

  before(async () => {
    server = await startServer({ CIRRUS_METRICS_TOKEN: METRICS_TOKEN });
    api = new Api(server.url);
  });
  after(() => server.close());

  it('health: 200 with every part named, Redis disabled, no secret or connection string in it', async () => {
    const res = await api.raw('GET', '/api/v4/site/health');
    assert.equal(res.status, 200, res.text);
    const body = res.body as Record<string, unknown>;
    assert.equal(body.status, 'ok');
    assert.equal(body.database, 'ok');
    assert.equal(body.storage, 'ok');
    assert.equal(body.redis, 'disabled');
    assert.equal(typeof body.revocation_lag_ms, 'number');
    assert.ok((body.revocation_lag_ms as number) < 5000);
    assert.ok(!/postgres:|password|secret|\/tmp\//i.test(res.text), res.text);
    // The background jobs (core/jobs.ts, issue 13 item 3) are named with their state, never their error text.
    const jobs = body.jobs as Record<string, { state: string; failures: number; last_success_at: string | null }>;
    for (const name of ['prune', 'oauth_code_prune', 'upload_sweep', 'upload_reclaim']) {
      assert.equal(jobs[name]?.state, 'ok', `${name}: ${JSON.stringify(jobs[name])}`);
      assert.equal(jobs[name]!.failures, 0);
    }
  });

  it('metrics: 401 without or with a wrong token, Prometheus text with the right one', async () => {
    assert.equal((await api.raw('GET', '/metrics')).status, 401);
    assert.equal((await api.raw('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status, 401);
    // A sign-in failure, a sign-in, a refused token: each must show.
    assert.equal((await api.post('/api/v4/session/token', { email: ADMIN_EMAIL, password: 'not-the-password' })).status, 401);
    await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal((await api.get('/api/v4/user/me', { token: 'garbage.token.here' })).status, 401);
    const res = await api.raw('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = res.text;
    assert.match(text, /cirrus_http_requests_total\{route="\/api\/v4\/session\/token",method="POST",status="401"\} 1/);
    assert.match(text, /cirrus_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/v4\/site\/health"|cirrus_http_request_duration_seconds_bucket\{.*route=/);
    assert.match(text, /cirrus_sign_in_failures_total 1/);
    assert.match(text, /cirrus_tokens_issued_total\{kind="sign_in"\} 1/);
    assert.match(text, /cirrus_tokens_refused_total\{kind="access",reason="invalid"\} 1/);
    assert.match(text, /cirrus_bytes_received_total \d+/);
    assert.match(text, /cirrus_bytes_sent_total \d+/);
    assert.match(text, /cirrus_nodejs_eventloop_lag_seconds/);
    assert.match(text, /cirrus_background_job_failures_total/);
    if (server.dialect === 'postgres') assert.match(text, /cirrus_db_pool_total \d+/);
    assert.ok(!text.includes(METRICS_TOKEN));
  });

  it('metrics: throttled requests are counted', async () => {
    for (let i = 0; i < 7; i++) await api.post('/api/v4/session/token', { email: 'nobody-metrics@example.com', password: 'wrong-password-1' });
    const text = (await api.raw('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
    assert.match(text, /cirrus_throttled_requests_total\{route="\/api\/v4\/session\/token"\} \d+/);
  });

  it('health: 503 naming storage when the store cannot be used, 200 again once it can', async () => {
    const blobs = path.join(server.config.dataDir, 'files', 'blobs');
    renameSync(blobs, `${blobs}.away`);
    try {
      const res = await api.raw('GET', '/api/v4/site/health');
      assert.equal(res.status, 503);
      assert.deepEqual({ ...(res.body as Record<string, unknown>), revocation_lag_ms: 0, jobs: undefined }, { status: 'error', database: 'ok', storage: 'error', redis: 'disabled', revocation: 'ok', revocation_lag_ms: 0, jobs: undefined });
    } finally {
      renameSync(`${blobs}.away`, blobs);
    }
    assert.equal((await api.raw('GET', '/api/v4/site/health')).status, 200);
  });
});

describe('metrics without CIRRUS_METRICS_TOKEN', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('GET /metrics is 404, whatever the Authorization header', async () => {
    const api = new Api(server.url);
    assert.equal((await api.raw('GET', '/metrics')).status, 404);
    assert.equal((await api.raw('GET', '/metrics', { headers: { authorization: 'Bearer anything-at-all-here' } })).status, 404);
  });
});
