// Faults with two real instances on one PostgreSQL database, one s3rver
// bucket and one Redis of the test's own (api-contract §9): Redis killed and
// restarted, the object store stopped during an upload, SIGTERM during
// uploads, SIGKILL of one instance during 20 concurrent uploads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { instancesSkipReason, sleep, startInstances, type Instances } from '../helpers/instances.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const q = encodeURIComponent;

const skip = await instancesSkipReason();

interface Streamed {
  /** Bytes written so far. */
  sent(): number;
  /** The answer's status and text, or null when the connection broke without one. */
  result: Promise<{ status: number; text: string } | null>;
}

/** Sends `data` as a request body in `chunk`-sized writes `delayMs` apart (a slow client). */
function streamBody(base: string, method: string, path: string, headers: Record<string, string>, data: Buffer, chunk: number, delayMs: number): Streamed {
  let sent = 0;
  const req = httpRequest(new URL(path, base), { method, headers: { ...headers, 'content-length': String(data.length) }, agent: false });
  const result = new Promise<{ status: number; text: string } | null>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
  });
  void (async () => {
    while (sent < data.length && !req.destroyed) {
      const piece = data.subarray(sent, sent + chunk);
      sent += piece.length;
      if (!req.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            req.off('drain', done).off('close', done);
            resolve();
          };
          req.on('drain', done).on('close', done);
        });
      }
      if (sent < data.length) await sleep(delayMs);
    }
    if (!req.destroyed) req.end();
  })().catch(() => undefined);
  return { sent: () => sent, result };
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

describe('faults with two instances', { skip }, () => {
  let s3: TestS3;
  let redis: TestRedis;
  let site: Instances;
  let n = 0;
  const api = (i: number) => new Api(site.list[i]!.url);

  before(async () => {
    s3 = await startS3('cirrus-faults');
    redis = await startRedis();
    site = await startInstances(2, { ...s3.env, CIRRUS_REDIS_URL: redis.url });
  });
  after(async () => {
    await site?.close();
    await redis?.close();
    await s3?.close();
  });

  const person = async () => {
    n++;
    const email = `fault-${process.pid}-${n}@example.com`;
    const admin = (await signIn(api(0), ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const made = await createUser(api(0), admin, email);
    return { id: made.user.id, email, password: made.password, token: made.token.access_token };
  };
  const health = async (i: number) => {
    const res = await api(i).raw('GET', '/api/v4/site/health');
    return { status: res.status, body: res.body as Record<string, unknown>, text: res.text };
  };
  const me = (i: number, token: string) => api(i).get('/api/v4/user/me', { token }).then((r) => r.status);
  const used = async (token: string, i = 0) => (await api(i).get<{ used: number }>('/api/v4/user/capacity', { token })).body.data.used;
  /** Bytes reserved for uploads in progress and the upload rows holding them: both 0 when nothing is left over. */
  const leftovers = async (userId: string) => {
    const [usage] = await site.query<{ reserved: string }>('SELECT reserved FROM storage_usage WHERE user_id = $1', [userId]);
    const [uploads] = await site.query<{ n: string }>("SELECT COUNT(*) AS n FROM uploads WHERE owner_id = $1 AND kind = 'put'", [userId]);
    return { reserved: Number(usage?.reserved ?? 0), uploads: Number(uploads!.n) };
  };
  const download = async (i: number, token: string, path: string) => {
    const res = await fetch(`${site.list[i]!.url}/api/v4/file/content?path=${q(path)}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };

  it('Redis killed and restarted: no revoked token is accepted, requests keep working, health 503 names Redis, then recovers', { timeout: 90_000 }, async () => {
    const p = await person();
    const early = await signIn(api(0), p.email, p.password);
    assert.equal((await api(0).call('DELETE', '/api/v4/session/token', { json: { refresh_token: early.token.refresh_token } })).status, 200);
    await until('the early sign-out to reach instance 1', 2_000, async () => ((await me(1, early.token.access_token)) === 401 ? true : undefined));

    await redis.stop();
    for (const i of [0, 1]) {
      const h = await until(`health ${i} to name Redis`, 10_000, async () => {
        const got = await health(i);
        return got.status === 503 ? got : undefined;
      });
      assert.equal(h.body.redis, 'error', h.text);
      assert.equal(h.body.database, 'ok');
      assert.equal(h.body.storage, 'ok');
      assert.ok(!/redis:\/\/|127\.0\.0\.1|ECONNREFUSED/i.test(h.text), `no connection detail in health: ${h.text}`);
    }

    // Requests do not fail for want of Redis: sign-in, use, sign-out all answer.
    const during = await signIn(api(1), p.email, p.password);
    assert.equal(await me(0, during.token.access_token), 200);
    const out = await api(0).call('DELETE', '/api/v4/session/token', { json: { refresh_token: during.token.refresh_token } });
    assert.equal(out.status, 200, out.text);
    // The database poll carries the revocation instead (once a second; the contract allows 5 s).
    const started = Date.now();
    await until('the sign-out made during the outage to reach instance 1', 8_000, async () => ((await me(1, during.token.access_token)) === 401 ? true : undefined));
    const lag = Date.now() - started;
    // The contract's bound; on an idle machine it takes up to about one poll period.
    assert.ok(lag < 5_000, `refused on the other instance after ${lag} ms without Redis`);
    console.log(`# sign-out propagated in ${lag} ms through the database while Redis was down`);
    // Once refused, never accepted again, on either instance, during the outage and after it.
    const neverAgain = async () => {
      for (const i of [0, 1]) for (const t of [early.token.access_token, during.token.access_token]) assert.equal(await me(i, t), 401);
    };
    for (let k = 0; k < 5; k++) {
      await neverAgain();
      await sleep(200);
    }

    await redis.start();
    for (const i of [0, 1]) await until(`health ${i} ok after Redis returned`, 20_000, async () => ((await health(i)).status === 200 ? true : undefined));
    await neverAgain();
    // The fast path is back: a settings change is seen on the other instance well before its cache would expire.
    const admin = (await signIn(api(0), ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const name = `After outage ${Date.now()}`;
    await api(1).get('/api/v4/site/config');
    assert.equal((await api(0).call('PATCH', '/api/v4/admin/settings', { token: admin, json: { site_name: name } })).status, 200);
    const t0 = Date.now();
    await until('the new site name on instance 1', 3_000, async () => ((await api(1).get<{ site_name: string }>('/api/v4/site/config')).body.data.site_name === name ? true : undefined));
    assert.ok(Date.now() - t0 < 1_000, `settings change took ${Date.now() - t0} ms to reach the other instance`);
  });

  it('an instance started while Redis is down joins the Redis fast path once Redis returns', { timeout: 90_000 }, async () => {
    await redis.stop();
    assert.deepEqual(await site.list[1]!.signal('SIGTERM'), { code: 0, signal: null });
    await site.list[1]!.start();
    assert.equal((await health(1)).body.redis, 'error');
    await redis.start();
    for (const i of [0, 1]) await until(`health ${i} ok after Redis returned`, 20_000, async () => ((await health(i)).status === 200 ? true : undefined));
    const p = await person();
    const lags: number[] = [];
    for (let k = 0; k < 5; k++) {
      const signed = await signIn(api(1), p.email, p.password);
      assert.equal(await me(1, signed.token.access_token), 200);
      assert.equal((await api(0).call('DELETE', '/api/v4/session/token', { json: { refresh_token: signed.token.refresh_token } })).status, 200);
      const t0 = Date.now();
      await until('the sign-out to reach the late instance', 5_000, async () => ((await me(1, signed.token.access_token)) === 401 ? true : undefined));
      lags.push(Date.now() - t0);
    }
    lags.sort((x, y) => x - y);
    console.log(`# sign-outs reached the instance started during the outage in ${lags.join(', ')} ms`);
    // The database poll alone would give a median near 500 ms: only the Redis subscription makes this.
    assert.ok(lags[2]! < 250, `median ${lags[2]} ms: the late instance is not subscribed`);
  });

  it('the object store stopped during an upload: a clear error, no visible file, quota unchanged; nothing left after the sweep once it returns', { timeout: 90_000 }, async () => {
    const p = await person();
    const usedBefore = await used(p.token);
    const blobsBefore = (await s3.keys('blobs/')).length;
    const data = randomBytes(16 * MiB);
    const up = streamBody(site.list[0]!.url, 'PUT', `/api/v4/file/content?path=${q('/fault/s3-cut.bin')}`, { authorization: `Bearer ${p.token}`, 'content-type': 'application/octet-stream' }, data, 256 * 1024, 20);
    await until('6 MiB sent', 30_000, async () => (up.sent() >= 6 * MiB ? true : undefined));
    await s3.stop();
    const res = await up.result;
    // A clear answer: 503 saying the store is unavailable, with a time to retry; never a success.
    assert.ok(res, 'an answer, not a dropped connection');
    assert.equal(res.status, 503, res.text);
    const body = JSON.parse(res.text) as { code: number; msg: string };
    assert.match(body.msg, /file store is unavailable/);
    console.log(`# answer while the store was down: ${res.status} ${res.text}`);
    const h = await health(0);
    assert.equal(h.status, 503);
    assert.equal(h.body.storage, 'error', h.text);
    for (const i of [0, 1]) assert.equal((await download(i, p.token, '/fault/s3-cut.bin')).status, 404);
    assert.equal(await used(p.token), usedBefore);
    assert.deepEqual(await leftovers(p.id), { reserved: 0, uploads: 0 });

    await s3.start();
    await until('health ok with the store back', 20_000, async () => ((await health(0)).status === 200 ? true : undefined));
    for (const i of [0, 1]) assert.equal((await download(i, p.token, '/fault/s3-cut.bin')).status, 404);
    assert.equal((await s3.keys('blobs/')).length, blobsBefore);
    assert.equal(await used(p.token, 1), usedBefore);
    // What the store could not be told to delete while it was down (the multipart upload, its marker) is an
    // orphan the sweep removes: it runs every 10 minutes and 5 s after a start, so restart the other instance.
    console.log(`# staging objects left when the store returned: ${(await s3.keys('staging/')).length}`);
    assert.deepEqual(await site.list[1]!.signal('SIGTERM'), { code: 0, signal: null });
    await site.list[1]!.start();
    await until('the sweep to remove the orphaned staging area', 30_000, async () => ((await s3.keys('staging/')).length === 0 ? true : undefined));
  });

  it('SIGTERM during uploads: both finish (a PUT and a tus PATCH), new connections are refused, the process exits 0', { timeout: 120_000 }, async () => {
    const p = await person();
    const target = site.list[1]!;
    const putData = randomBytes(6 * MiB + 11);
    const tusData = randomBytes(6 * MiB + 7);
    const created = await fetch(`${target.url}/api/v4/file/upload`, {
      method: 'POST',
      headers: { ...TUS, authorization: `Bearer ${p.token}`, 'upload-length': String(tusData.length), 'upload-metadata': `path ${b64('/term/tus.bin')}` },
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    const auth = { authorization: `Bearer ${p.token}` };
    const put = streamBody(target.url, 'PUT', `/api/v4/file/content?path=${q('/term/put.bin')}`, { ...auth, 'content-type': 'application/octet-stream' }, putData, 256 * 1024, 60);
    const patch = streamBody(target.url, 'PATCH', location, { ...auth, ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, tusData, 256 * 1024, 60);
    await until('2 MiB of each sent', 30_000, async () => (put.sent() >= 2 * MiB && patch.sent() >= 2 * MiB ? true : undefined));
    const exited = target.signal('SIGTERM');
    await sleep(300);
    // Stopped accepting: a new connection is refused (or answered 503) while the uploads go on.
    const fresh = await fetch(`${target.url}/api/v4/site/ping`).then((r) => r.status).catch(() => 'refused' as const);
    assert.ok(fresh === 'refused' || fresh === 503, `a new request during shutdown got ${fresh}`);
    assert.ok(put.sent() < putData.length && patch.sent() < tusData.length, 'the uploads were still running at SIGTERM');
    const [putRes, patchRes, exit] = await Promise.all([put.result, patch.result, exited]);
    assert.equal(putRes?.status, 200, putRes?.text);
    assert.equal(patchRes?.status, 204, patchRes?.text);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.equal(sha((await download(0, p.token, '/term/put.bin')).body), sha(putData));
    assert.equal(sha((await download(0, p.token, '/term/tus.bin')).body), sha(tusData));
    assert.equal(await used(p.token), putData.length + tusData.length);
    await target.start();
  });

  it('SIGKILL of one instance during 20 concurrent uploads: the other serves every acknowledged file, and the quota is exact', { timeout: 150_000 }, async () => {
    const p = await person();
    const [a, b] = [site.list[0]!, site.list[1]!];
    const base = await used(p.token, 1);
    const files = Array.from({ length: 20 }, (_, i) => ({ i, on: i % 2, path: `/kill/f${i}.bin`, data: randomBytes(MiB + i * 37_001) }));
    const runs = files.map(async (f) => {
      await sleep(f.i * 50);
      const up = streamBody(f.on === 0 ? a.url : b.url, 'PUT', `/api/v4/file/content?path=${q(f.path)}`, { authorization: `Bearer ${p.token}`, 'content-type': 'application/octet-stream' }, f.data, 128 * 1024, 80);
      return { f, up, res: await up.result };
    });
    const settled: { f: (typeof files)[number]; res: { status: number } | null }[] = [];
    for (const r of runs) void r.then((x) => settled.push(x));
    // Kill when instance 0 has acknowledged some uploads and is in the middle of others.
    await until('instance 0 to acknowledge two uploads', 60_000, async () => (settled.filter((s) => s.f.on === 0 && s.res?.status === 200).length >= 2 ? true : undefined));
    assert.deepEqual(await a.signal('SIGKILL'), { code: null, signal: 'SIGKILL' });
    const results = await Promise.all(runs);

    const acked = results.filter((r) => r.res?.status === 200);
    const cut = results.filter((r) => r.res?.status !== 200);
    assert.ok(cut.some((r) => r.f.on === 0), 'some uploads were cut by the kill');
    for (const r of results.filter((x) => x.f.on === 1)) assert.equal(r.res?.status, 200, `upload ${r.f.i} on the live instance`);
    for (const r of acked) {
      const got = await download(1, p.token, r.f.path);
      assert.equal(got.status, 200, `acknowledged ${r.f.path} is served by the other instance`);
      assert.equal(sha(got.body), sha(r.f.data));
    }
    // A cut upload is either absent or whole (the kill may fall between the commit and the answer).
    let present = acked.reduce((s, r) => s + r.f.data.length, 0);
    for (const r of cut) {
      const got = await download(1, p.token, r.f.path);
      assert.ok(got.status === 404 || (got.status === 200 && sha(got.body) === sha(r.f.data)), `${r.f.path}: ${got.status}`);
      if (got.status === 200) present += r.f.data.length;
    }
    console.log(`# ${acked.length} acknowledged, ${cut.length} cut by SIGKILL`);
    // The dead instance's reservations are reclaimed by the live one once its heartbeat is stale.
    const t0 = Date.now();
    await until('the dead instance\'s reservations to be reclaimed', 60_000, async () => {
      const left = await leftovers(p.id);
      return left.reserved === 0 && left.uploads === 0 ? true : undefined;
    });
    console.log(`# reservations of the killed instance reclaimed ${Date.now() - t0} ms after the uploads ended`);
    assert.equal(await used(p.token, 1), base + present);
    const listed = await api(1).get<{ files: { name: string; size: number }[] }>(`/api/v4/file?path=${q('/kill')}&page_size=1000`, { token: p.token });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(
      listed.body.data.files.reduce((s, f) => s + f.size, 0),
      present,
    );
  });
});
