// A step of the clock (an NTP correction, a VM resumed after a pause, the
// tests' ManualClock) makes this process's last liveness beat look older than
// the 6 s after which an instance counts as dead, until its next beat. The
// reclaim job must not take the process's own in-flight uploads for a dead
// instance's in that window: the person's PUT would fail. Seen
// as a flaky versions test in CI (a PUT right after the test clock moved a
// day, while the job ran). Other instances' uploads are still reclaimed when
// they stop beating (robustness/put-crash-release.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { emailOf } from '../webdav/helpers.js';
import { ManualClock } from '../../src/core/clock.js';
import { adminToken, download, newUser, openPut, type Person } from './helpers.js';

const DAY = 86_400_000;

describe('a clock step does not make the process reclaim its own uploads', () => {
  let server: TestServer;
  let api: Api;
  let alice: Person;
  const clock = new ManualClock();
  const uploads = () => server.built.services.db.selectFrom('uploads').select(['id', 'kind', 'upload_offset']);

  before(async () => {
    server = await startServer({}, { clock });
    api = new Api(server.url);
    alice = await newUser(api, await adminToken(api));
  });
  after(() => server.close());

  it('a streamed PUT in flight while the clock jumps a day and the reclaim job runs still stores every byte', async () => {
    const email = await emailOf(api, alice.token);
    const body = randomBytes(256 * 1024);
    const half = body.length / 2;
    const { req, status } = openPut(server.url, alice.token, '/jump.bin', body.length, body.subarray(0, half));
    // The upload row exists (with this process as its lock owner) once the body is streaming.
    for (let i = 0; i < 200 && !(await uploads().where('kind', '=', 'put').executeTakeFirst()); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(await uploads().where('kind', '=', 'put').executeTakeFirst(), 'the PUT is in flight');

    clock.advance(DAY);
    await server.built.services.jobs.run('upload_reclaim');
    assert.ok(await uploads().where('kind', '=', 'put').executeTakeFirst(), 'the reclaim job left the PUT alone');

    req.end(body.subarray(half));
    assert.equal(await status, 200);
    // The access token expired with the day that passed: sign in again to read the file back.
    const token = (await signIn(api, email, 'user-password-123')).token.access_token;
    const got = await download(api, token, '/jump.bin');
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(body), 'every byte arrived');
  });
});
