// Login Flow v2 and v1 (api-contract §14, Nextcloud's "Login Flow v2" and
// "Login Flow" client documentation) through HTTP as the clients and the web
// app's grant page use it: start without credentials, 404 polls until the
// person grants, the credentials once (they work as Basic on /remote.php/dav/),
// 404 again; expiry, wrong tokens, hostile input, an application token refused,
// and v1's nc:// redirect.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, type Person } from '../files/helpers.js';
import { dav, emailOf, basicHeader } from '../webdav/helpers.js';
import { approve, createApp, exchange, startOAuthServer, PAGE_MARKER, type OAuthTestContext } from '../oauth/helpers.js';

const DESKTOP_UA = 'Mozilla/5.0 (Linux) mirall/3.13.0 (Nextcloud, ubuntu-6.8.0-45-generic ClientArchitecture: x86_64 OsArchitecture: x86_64)';

interface Started {
  poll: { token: string; endpoint: string };
  login: string;
}

interface Credentials {
  server: string;
  loginName: string;
  appPassword: string;
}

describe('Login Flow v2 and v1', () => {
  let ctx: OAuthTestContext;
  let api: Api;
  let clock: ManualClock;
  let person: Person;
  let email: string;
  const base = () => ctx.server.config.baseUrl;

  const start = async (ua = DESKTOP_UA): Promise<Started & { id: string }> => {
    const res = await api.raw('POST', '/index.php/login/v2', { headers: { 'user-agent': ua } });
    assert.equal(res.status, 200, res.text);
    const body = res.body as Started;
    const id = body.login.split('/').pop()!;
    return { ...body, id };
  };
  const poll = (token: string) => api.raw('POST', '/index.php/login/v2/poll', { form: { token } });

  before(async () => {
    clock = new ManualClock();
    ctx = await startOAuthServer({ clock, transport: 'socket' });
    api = ctx.api;
    person = await newUser(api, await adminToken(api));
    email = await emailOf(api, person.token);
  });
  after(async () => ctx?.server.close());

  it('v2: start, 404 until granted, the credentials once (working as Basic), then 404; the account is listed and revocable', async () => {
    const flow = await start();
    assert.equal(flow.poll.endpoint, `${base()}/index.php/login/v2/poll`);
    assert.match(flow.login, new RegExp(`^${base().replace(/[.]/g, '\\.')}/index\\.php/login/v2/flow/[A-Za-z0-9]+$`));
    assert.ok(flow.poll.token.length >= 43, 'a token of at least 256 bits');

    // The login URL is the web app's page.
    const page = await api.fetch(new URL(flow.login).pathname);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(PAGE_MARKER));

    const before = await poll(flow.poll.token);
    assert.equal(before.status, 404);
    assert.equal((before.body as { code: number }).code, 404);

    const view = await api.get<{ client_name: string }>(`/api/v4/sync/login-flows/${flow.id}`, { token: person.token });
    assert.equal(view.status, 200, view.text);
    assert.equal(view.body.data.client_name, 'Nextcloud desktop (Linux)');

    const granted = await api.post<{ account_id: string; name: string }>(`/api/v4/sync/login-flows/${flow.id}/grant`, undefined, { token: person.token });
    assert.equal(granted.status, 200, granted.text);
    assert.equal(granted.body.data.name, 'Nextcloud desktop (Linux)');
    // Granted once: a second grant (another tab) finds no open flow.
    assert.equal((await api.post(`/api/v4/sync/login-flows/${flow.id}/grant`, undefined, { token: person.token })).status, 404);

    const got = await poll(flow.poll.token);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.headers.get('cache-control'), 'no-store');
    const creds = got.body as Credentials;
    assert.deepEqual(Object.keys(creds).sort(), ['appPassword', 'loginName', 'server']);
    assert.equal(creds.server, base());
    assert.equal(creds.loginName, email);

    const basic = basicHeader(creds.loginName, creds.appPassword);
    const propfind = await dav(ctx.server, 'PROPFIND', `/remote.php/dav/files/${person.id}/`, basic, { headers: { depth: '0' } });
    assert.equal(propfind.status, 207, propfind.text);

    // Once only.
    assert.equal((await poll(flow.poll.token)).status, 404);

    // Listed in Settings → WebDAV under the client's name, and revocable at once.
    const listed = await api.get<{ accounts: { id: string; name: string }[] }>('/api/v4/devices/dav', { token: person.token });
    assert.ok(listed.body.data.accounts.some((a) => a.id === granted.body.data.account_id && a.name === 'Nextcloud desktop (Linux)'));
    assert.equal((await api.delete(`/api/v4/devices/dav/${granted.body.data.account_id}`, undefined, { token: person.token })).status, 200);
    assert.equal((await dav(ctx.server, 'PROPFIND', `/remote.php/dav/files/${person.id}/`, basic, { headers: { depth: '0' } })).status, 401);
  });

  it('v2: cancel ends the flow; a wrong token is 404; hostile input is 400/404, never 500', async () => {
    const flow = await start('');
    const view = await api.get<{ client_name: string }>(`/api/v4/sync/login-flows/${flow.id}`, { token: person.token });
    assert.equal(view.body.data.client_name, 'Sync client');
    assert.equal((await api.delete(`/api/v4/sync/login-flows/${flow.id}`, undefined, { token: person.token })).status, 200);
    assert.equal((await api.post(`/api/v4/sync/login-flows/${flow.id}/grant`, undefined, { token: person.token })).status, 404);
    assert.equal((await api.get(`/api/v4/sync/login-flows/${flow.id}`, { token: person.token })).status, 404);
    assert.equal((await poll(flow.poll.token)).status, 404);

    const other = await start();
    assert.equal((await poll(other.poll.token.slice(0, -2) + 'xx')).status, 404);
    assert.equal((await poll('x'.repeat(1000))).status, 404);
    const hostile: [string, Parameters<Api['raw']>[2]][] = [
      ['no body', {}],
      ['empty token', { form: { token: '' } }],
      ['JSON number', { json: { token: 5 } }],
      ['JSON array', { json: [1, 2] }],
      ['broken JSON', { body: '{"token":', headers: { 'content-type': 'application/json' } }],
      ['huge form', { body: 'token=' + 'a'.repeat(10_000), headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['other type', { body: 'token=a', headers: { 'content-type': 'text/plain' } }],
    ];
    for (const [label, opts] of hostile) {
      const res = await api.raw('POST', '/index.php/login/v2/poll', opts);
      assert.ok([400, 404, 413, 415].includes(res.status), `${label}: ${res.status} ${res.text}`);
      assert.equal(typeof (res.body as { code?: unknown }).code, 'number', `${label}: the envelope`);
    }
    for (const id of ['..%2F..', 'a'.repeat(65), '%00', 'nope']) {
      const res = await api.get(`/api/v4/sync/login-flows/${id}`, { token: person.token });
      assert.ok([400, 404].includes(res.status), `${id}: ${res.status}`);
    }
    // A hostile User-Agent is kept as text, bounded.
    const odd = await start('<script>alert(1)</script>\t' + 'x'.repeat(1000));
    const name = (await api.get<{ client_name: string }>(`/api/v4/sync/login-flows/${odd.id}`, { token: person.token })).body.data.client_name;
    assert.ok([...name].length <= 100);
    assert.ok(name.startsWith('<script>alert(1)</script> x'));
    // The other flow is still usable after all that.
    assert.equal((await api.post(`/api/v4/sync/login-flows/${other.id}/grant`, undefined, { token: person.token })).status, 200);
    assert.equal((await poll(other.poll.token)).status, 200);
  });

  it('v2: an application (OAuth) token cannot grant, nor a signed-out visitor', async () => {
    const flow = await start();
    const app = await createApp(ctx);
    const code = await approve(ctx, person.token, app);
    const appToken = (await exchange(ctx, app, code, { redirect_uri: 'https://client.example/callback' })).body.access_token!;
    assert.ok(appToken);
    const byApp = await api.post(`/api/v4/sync/login-flows/${flow.id}/grant`, undefined, { token: appToken });
    assert.equal(byApp.status, 403, byApp.text);
    assert.equal((await api.post(`/api/v4/sync/login-flows/${flow.id}/grant`)).status, 401);
    assert.equal((await poll(flow.poll.token)).status, 404);
  });

  it('v2: a flow expires after 20 minutes, granted or not', async () => {
    const open = await start();
    const granted = await start();
    assert.equal((await api.post(`/api/v4/sync/login-flows/${granted.id}/grant`, undefined, { token: person.token })).status, 200);
    clock.advance(20 * 60_000 + 1000);
    const fresh = await newUser(api, await adminToken(api));
    assert.equal((await api.post(`/api/v4/sync/login-flows/${open.id}/grant`, undefined, { token: fresh.token })).status, 404);
    assert.equal((await poll(open.poll.token)).status, 404);
    assert.equal((await poll(granted.poll.token)).status, 404);
    person = fresh;
    email = await emailOf(api, fresh.token);
  });

  it('v1: OCS-APIREQUEST start, the grant page, then the exact nc:// redirect once', async () => {
    assert.equal((await api.raw('GET', '/index.php/login/flow')).status, 400);
    const started = await api.raw('GET', '/index.php/login/flow', { headers: { 'ocs-apirequest': 'true', 'user-agent': 'Mozilla/5.0 (Android) Nextcloud-android/3.29.0' } });
    assert.equal(started.status, 302);
    const location = started.headers.get('location')!;
    const id = /^\/index\.php\/login\/flow\/([A-Za-z0-9]+)$/.exec(location)?.[1];
    assert.ok(id, location);
    const cookie = started.headers.get('set-cookie')!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    const pair = cookie.split(';')[0]!;

    // Before the grant the end of the flow sends the browser back to the page.
    const early = await api.raw('GET', `/index.php/login/flow/${id}/done`, { headers: { cookie: pair } });
    assert.equal(early.status, 302);
    assert.equal(early.headers.get('location'), `/index.php/login/flow/${id}`);

    const view = await api.get<{ client_name: string }>(`/api/v4/sync/login-flows/${id}`, { token: person.token });
    assert.equal(view.body.data.client_name, 'Nextcloud Android');
    const granted = await api.post<{ account_id: string }>(`/api/v4/sync/login-flows/${id}/grant`, undefined, { token: person.token });
    assert.equal(granted.status, 200, granted.text);

    // Without the cookie (another browser) nothing is handed over.
    assert.equal((await api.raw('GET', `/index.php/login/flow/${id}/done`)).headers.get('location'), `/index.php/login/flow/${id}`);
    const done = await api.raw('GET', `/index.php/login/flow/${id}/done`, { headers: { cookie: pair } });
    assert.equal(done.status, 302);
    const nc = done.headers.get('location')!;
    const m = /^nc:\/\/login\/server:(.+)&user:(.+)&password:(.+)$/.exec(nc);
    assert.ok(m, nc);
    assert.equal(m[1], base());
    assert.equal(m[2], encodeURIComponent(email));
    assert.match(m[2]!, /%40/, 'the @ of the e-mail is percent-encoded');
    const password = decodeURIComponent(m[3]!);
    assert.equal(nc, `nc://login/server:${base()}&user:${encodeURIComponent(email)}&password:${encodeURIComponent(password)}`);
    assert.equal((await dav(ctx.server, 'PROPFIND', `/remote.php/dav/files/${person.id}/`, basicHeader(email, password), { headers: { depth: '0' } })).status, 207);
    // Once.
    assert.equal((await api.raw('GET', `/index.php/login/flow/${id}/done`, { headers: { cookie: pair } })).headers.get('location'), `/index.php/login/flow/${id}`);
  });
  it('wrong poll tokens are counted per address: past the allowance the answer is 429 with Retry-After', async () => {
    let status = 0;
    let tries = 0;
    let res: Awaited<ReturnType<typeof poll>> | undefined;
    while (status !== 429 && tries < 60) {
      res = await poll(`wrong-${tries++}`);
      status = res.status;
    }
    assert.equal(status, 429, `after ${tries} wrong tokens`);
    assert.ok(tries <= 51);
    assert.ok(Number(res!.headers.get('retry-after')) >= 1);
  });
});
