// Login Flow across instances (issue 33, api-contract §14): behind a load
// balancer the client's start, the browser's grant page and the client's
// polls each land on whichever instance; the flow lives in the database, so
// any of them answers. Two real processes on one site (one PostgreSQL
// database with CIRRUS_TEST_DATABASE_URL, else one SQLite file): v2 started
// on A, granted on B, polled on A (the credentials once, then 404 on either)
// and the app password works on B; v1 started on B, granted on A, its nc://
// redirect handed over on B.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Api, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startOneSite } from '../helpers/instances.js';
import { basicHeader } from '../webdav/helpers.js';
import { ROOT_DIR } from '../../src/paths.js';

const MAIN = path.join(ROOT_DIR, 'dist/server/src/main.js');
const skip = existsSync(MAIN) ? undefined : 'dist/server/src/main.js is missing: run `npm run build:server` first';
const DESKTOP_UA = 'Mozilla/5.0 (Linux) mirall/3.13.0 (Nextcloud, ubuntu-6.8.0-45-generic ClientArchitecture: x86_64 OsArchitecture: x86_64)';

describe('Login Flow with two instances', { skip }, () => {
  let site: Awaited<ReturnType<typeof startOneSite>> | undefined;
  let a: Api;
  let b: Api;
  let token: string;
  let adminId: string;

  before(async () => {
    site = await startOneSite(2);
    a = new Api(site.list[0]!.url);
    b = new Api(site.list[1]!.url);
    token = (await signIn(b, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    adminId = (await b.get<{ id: string }>('/api/v4/user/me', { token })).body.data.id;
  });
  after(async () => site?.close());

  it('v2: started on A, granted on B, the credentials polled once on A, then 404 on both; they work on B', async () => {
    const started = await a.raw('POST', '/index.php/login/v2', { headers: { 'user-agent': DESKTOP_UA } });
    assert.equal(started.status, 200, started.text);
    const flow = started.body as { poll: { token: string; endpoint: string }; login: string };
    assert.equal(flow.poll.endpoint, 'http://cirrus.test/index.php/login/v2/poll');
    const id = flow.login.split('/').pop()!;
    // Not granted yet, on either.
    for (const api of [a, b]) assert.equal((await api.raw('POST', '/index.php/login/v2/poll', { form: { token: flow.poll.token } })).status, 404);

    const view = await b.get<{ client_name: string }>(`/api/v4/sync/login-flows/${id}`, { token });
    assert.equal(view.status, 200, view.text);
    assert.equal(view.body.data.client_name, 'Nextcloud desktop (Linux)');
    assert.equal((await b.post(`/api/v4/sync/login-flows/${id}/grant`, undefined, { token })).status, 200);

    const got = await a.raw('POST', '/index.php/login/v2/poll', { form: { token: flow.poll.token } });
    assert.equal(got.status, 200, got.text);
    const creds = got.body as { server: string; loginName: string; appPassword: string };
    assert.equal(creds.server, 'http://cirrus.test');
    assert.equal(creds.loginName, ADMIN_EMAIL);
    // Handed over once: not again from A, nor from B.
    for (const api of [a, b]) assert.equal((await api.raw('POST', '/index.php/login/v2/poll', { form: { token: flow.poll.token } })).status, 404);

    const listed = await b.fetch(`/remote.php/dav/files/${adminId}/`, { method: 'PROPFIND', headers: { authorization: basicHeader(creds.loginName, creds.appPassword), depth: '0' } });
    assert.equal(listed.status, 207);
  });

  it('v1: started on B, granted on A, the nc:// redirect handed over once on B', async () => {
    const started = await b.raw('GET', '/index.php/login/flow', { headers: { 'ocs-apirequest': 'true', 'user-agent': 'Mozilla/5.0 (Android) Nextcloud-android/3.29.0' } });
    assert.equal(started.status, 302);
    const id = /^\/index\.php\/login\/flow\/([A-Za-z0-9]+)$/.exec(started.headers.get('location')!)![1]!;
    const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
    assert.equal((await a.post(`/api/v4/sync/login-flows/${id}/grant`, undefined, { token })).status, 200);
    const done = await b.raw('GET', `/index.php/login/flow/${id}/done`, { headers: { cookie } });
    assert.equal(done.status, 302);
    const m = /^nc:\/\/login\/server:(.+)&user:(.+)&password:(.+)$/.exec(done.headers.get('location')!);
    assert.ok(m, done.headers.get('location')!);
    assert.equal(decodeURIComponent(m[2]!), ADMIN_EMAIL);
    const listed = await a.fetch(`/remote.php/dav/files/${adminId}/`, { method: 'PROPFIND', headers: { authorization: basicHeader(ADMIN_EMAIL, decodeURIComponent(m[3]!)), depth: '0' } });
    assert.equal(listed.status, 207);
    // Once, on either instance.
    for (const api of [a, b]) assert.equal((await api.raw('GET', `/index.php/login/flow/${id}/done`, { headers: { cookie } })).headers.get('location'), `/index.php/login/flow/${id}`);
  });
});
