// Two real instances (child processes of the built server) on one PostgreSQL
// database, one S3 bucket and one Redis (api-contract §9), with requests
// alternating between them: any request may reach any instance and the site
// behaves as one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { instancesSkipReason, startInstances, type Instances } from '../helpers/instances.js';
import { REDIRECT_URI, pkcePair } from '../oauth/helpers.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const MiB = 1024 * 1024;

const skip = await instancesSkipReason();

describe('two instances behind one load balancer', { skip }, () => {
  let s3: TestS3;
  let redis: TestRedis;
  let site: Instances;
  let a: Api;
  let b: Api;
  let admin: string;
  let n = 0;

  before(async () => {
    s3 = await startS3('cirrus-two');
    redis = await startRedis();
    site = await startInstances(2, { ...s3.env, CIRRUS_REDIS_URL: redis.url });
    a = new Api(site.list[0]!.url);
    b = new Api(site.list[1]!.url);
    admin = (await signIn(a, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await site?.close();
    await redis?.close();
    await s3?.close();
  });

  const person = async () => {
    n++;
    const email = `two-${process.pid}-${n}@example.com`;
    const made = await createUser(a, admin, email);
    return { id: made.user.id, email, password: made.password, token: made.token.access_token, refresh: made.token.refresh_token };
  };

  it('signs in on one and refreshes on the other; the new access token works on both', async () => {
    const p = await person();
    const signed = await signIn(a, p.email, p.password);
    const refreshed = await b.post<{ access_token: string; refresh_token: string }>('/api/v4/session/token/refresh', { refresh_token: signed.token.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    for (const api of [a, b]) assert.equal((await api.get('/api/v4/user/me', { token: refreshed.body.data.access_token })).status, 200);
  });

  it('a sign-out on one instance stops the access token on the other within 1 s (auth-interface: revocation)', async () => {
    const p = await person();
    const lags: number[] = [];
    for (let k = 0; k < 5; k++) {
      const signed = await signIn(a, p.email, p.password);
      const token = signed.token.access_token;
      assert.equal((await b.get('/api/v4/user/me', { token })).status, 200);
      const out = await a.call('DELETE', '/api/v4/session/token', { json: { refresh_token: signed.token.refresh_token } });
      assert.equal(out.status, 200, out.text);
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < 3000) status = (await b.get('/api/v4/user/me', { token })).status;
      assert.equal(status, 401);
      lags.push(Date.now() - started);
    }
    lags.sort((x, y) => x - y);
    console.log(`# sign-out propagated in ${lags.join(', ')} ms`);
    assert.ok(lags[4]! < 1000, `slowest ${lags[4]} ms`);
    // Through Redis it takes milliseconds; the once-a-second database poll alone would give a median near 500 ms.
    assert.ok(lags[2]! < 250, `median ${lags[2]} ms: is the Redis fan-out working?`);
  });

  it('an OAuth code issued on one instance is exchanged on the other (RFC 6749 §4.1.3)', async () => {
    const app = await a.put<{ id: string; secret: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Two', icon: 'cloud', redirect_uris: [REDIRECT_URI], scopes: ['openid', 'offline_access', 'UserInfo.Read'] } },
      { token: admin },
    );
    assert.equal(app.status, 200, app.text);
    const p = await person();
    const pkce = pkcePair();
    const consent = await a.post<{ code: string }>(
      '/api/v4/session/oauth/consent',
      { response_type: 'code', client_id: app.body.data.id, redirect_uri: REDIRECT_URI, scope: 'openid offline_access UserInfo.Read', code_challenge: pkce.challenge, code_challenge_method: 'S256' },
      { token: p.token },
    );
    assert.equal(consent.status, 200, consent.text);
    const exchanged = await b.raw('POST', '/api/v4/session/oauth/token', {
      form: { grant_type: 'authorization_code', code: consent.body.data.code, client_id: app.body.data.id, client_secret: app.body.data.secret, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier },
    });
    assert.equal(exchanged.status, 200, exchanged.text);
    const tokens = exchanged.body as { access_token: string };
    assert.equal((await a.get('/api/v4/user/me', { token: tokens.access_token })).status, 200);
  });

  it('a tus upload created on one instance, PATCHed on both, is finished on the other (tus §Core)', async () => {
    const p = await person();
    const data = randomBytes(13 * MiB + 5);
    const created = await fetch(`${site.list[0]!.url}/api/v4/file/upload`, {
      method: 'POST',
      headers: { ...TUS, authorization: `Bearer ${p.token}`, 'upload-length': String(data.length), 'upload-metadata': `path ${b64('/two/tus.bin')}` },
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    let offset = 0;
    const sizes = [2 * MiB + 1, 6 * MiB, 3 * MiB, data.length - (11 * MiB + 1)];
    for (const [i, size] of sizes.entries()) {
      const base = site.list[(i + 1) % 2]!.url;
      const head = await fetch(base + location, { method: 'HEAD', headers: { ...TUS, authorization: `Bearer ${p.token}` } });
      assert.equal(head.headers.get('upload-offset'), String(offset));
      const res = await fetch(base + location, {
        method: 'PATCH',
        headers: { ...TUS, authorization: `Bearer ${p.token}`, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: data.subarray(offset, offset + size),
      });
      assert.equal(res.status, 204, await res.text());
      offset += size;
    }
    const got = await fetch(`${site.list[1]!.url}/api/v4/file/content?path=${encodeURIComponent('/two/tus.bin')}`, { headers: { authorization: `Bearer ${p.token}` } });
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(data));
    assert.deepEqual(await s3.keys('staging/'), []);
  });

  it('a share unlocked on one instance is downloaded from the other', async () => {
    const p = await person();
    await a.call('PUT', '/api/v4/file/content?path=%2Fshared.txt', { token: p.token, body: 'shared bytes', headers: { 'content-type': 'application/octet-stream' } });
    const share = await a.put<{ id: string }>('/api/v4/share', { path: '/shared.txt', password: 'open sesame' }, { token: p.token });
    assert.equal(share.status, 200, share.text);
    const unlocked = await a.post<{ token: string }>(`/api/v4/share/unlock/${share.body.data.id}`, { password: 'open sesame' });
    assert.equal(unlocked.status, 200, unlocked.text);
    const locked = await fetch(`${site.list[1]!.url}/s/${share.body.data.id}`);
    assert.notEqual(locked.status, 200);
    const dl = await fetch(`${site.list[1]!.url}/s/${share.body.data.id}`, { headers: { 'x-share-token': unlocked.body.data.token } });
    assert.equal(dl.status, 200);
    assert.equal(await dl.text(), 'shared bytes');
  });

  it('sign-in failures on both instances count against one allowance: spreading guesses does not multiply them', async () => {
    // Wrong passwords until the lock answer (429), sent to one instance only or alternating between both:
    // a per-instance count would let the alternating guesser twice as far. Only the HTTP API is used,
    // so this holds whatever the throttle's storage is.
    const guessesUntilLocked = async (email: string, apis: Api[]) => {
      for (let i = 0; i < 60; i++) {
        const res = await apis[i % apis.length]!.post('/api/v4/session/token', { email, password: `wrong-password-${i}` });
        if (res.status === 429) return i;
        assert.equal(res.status, 401, res.text);
      }
      assert.fail(`${email} was never locked`);
    };
    const alone = await person();
    const spread = await person();
    const allowance = await guessesUntilLocked(alone.email, [a]);
    assert.equal(await guessesUntilLocked(spread.email, [a, b]), allowance);
    // Locked on both: even the right password is refused until the lock ends.
    assert.equal((await a.post('/api/v4/session/token', { email: spread.email, password: spread.password })).status, 429);
    assert.equal((await b.post('/api/v4/session/token', { email: spread.email, password: spread.password })).status, 429);
  });

  it('a settings change on one instance is seen on the other at once (cache invalidation through Redis)', async () => {
    const name = `Site ${Date.now()}`;
    assert.equal((await b.get('/api/v4/site/config')).status, 200); // b has the old settings cached now
    const patched = await a.call('PATCH', '/api/v4/admin/settings', { token: admin, json: { site_name: name } });
    assert.equal(patched.status, 200, patched.text);
    let seen = '';
    const started = Date.now();
    while (seen !== name && Date.now() - started < 1500) seen = (await b.get<{ site_name: string }>('/api/v4/site/config')).body.data.site_name;
    assert.equal(seen, name);
    // Without Redis the other instance's settings cache would serve the old name for up to 2 s.
    assert.ok(Date.now() - started < 1000);
  });

  it('a ban on one instance is enforced on the other', async () => {
    const p = await person();
    assert.equal((await b.get('/api/v4/user/me', { token: p.token })).status, 200);
    const banned = await a.put(`/api/v4/admin/user/${p.id}`, { status: 'banned' }, { token: admin });
    assert.ok([200].includes(banned.status), banned.text);
    let status = 200;
    const started = Date.now();
    while (status === 200 && Date.now() - started < 3000) status = (await b.get('/api/v4/user/me', { token: p.token })).status;
    assert.equal(status, 401);
  });

  it('a group losing administrator rights on one instance loses them on the other at once (cache invalidation through Redis)', async () => {
    const group = await a.put<{ id: number }>('/api/v4/admin/group', { name: `Ops ${Date.now()}`, is_admin: true }, { token: admin });
    assert.equal(group.status, 200, group.text);
    const p = await person();
    assert.equal((await a.put(`/api/v4/admin/user/${p.id}`, { group_id: group.body.data.id }, { token: admin })).status, 200);
    let status = 0;
    const warm = Date.now();
    while (status !== 200 && Date.now() - warm < 5000) status = (await b.get('/api/v4/admin/group', { token: p.token })).status;
    assert.equal(status, 200, 'an administrator on the other instance');
    assert.equal((await a.put(`/api/v4/admin/group/${group.body.data.id}`, { is_admin: false }, { token: admin })).status, 200);
    const started = Date.now();
    while (status === 200 && Date.now() - started < 5000) status = (await b.get('/api/v4/admin/group', { token: p.token })).status;
    assert.equal(status, 403);
    // The user cache would keep the old rights for up to 3 s without the broadcast.
    assert.ok(Date.now() - started < 1000, `rights dropped on the other instance after ${Date.now() - started} ms`);
  });

  it('health on both instances names every part ok', async () => {
    for (const api of [a, b]) {
      const res = await api.raw('GET', '/api/v4/site/health');
      assert.equal(res.status, 200, res.text);
      const { jobs, ...parts } = res.body as { jobs: Record<string, { state: string; failures: number }> } & Record<string, unknown>;
      assert.deepEqual({ ...parts, revocation_lag_ms: 0 }, { status: 'ok', database: 'ok', storage: 'ok', redis: 'ok', revocation: 'ok', revocation_lag_ms: 0 });
      // The background jobs (core/jobs.ts) are reported too, by name, none failing.
      assert.ok(jobs.revocation_sync, res.text);
      for (const [name, job] of Object.entries(jobs)) assert.deepEqual([name, job.state, job.failures], [name, 'ok', 0]);
    }
  });
});
