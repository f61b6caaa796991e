// A single-page app on another origin, in a real browser (issue 11): a page
// served from a second local server runs the authorization code flow with
// PKCE (RFC 7636) using oauth4webapi, as a public client (RFC 6749 §2.1), then
// calls the files API with the Bearer token (RFC 6750 §2.1). Every request
// the page makes to Cirrus is cross-origin, so the flow works only if CORS
// answers the page's origin (the origin of its registered redirect URI), and
// a page on an origin no client registered must be refused by the browser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openPage, screenshot } from './support.js';
import { ROOT_DIR } from '../../src/paths.js';

const OAUTH4WEBAPI = readFileSync(path.join(ROOT_DIR, 'node_modules/oauth4webapi/build/index.js'), 'utf8');

/** The app's page: starts the flow at /, finishes it at /callback, then lists the person's files. */
function appPage(issuer: string, clientId: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Cross-origin app</title><pre id="out">working</pre>
<script type="module">
import * as oauth from '/oauth4webapi.js';
const issuer = new URL(${JSON.stringify(issuer)});
const client = { client_id: ${JSON.stringify(clientId)}, token_endpoint_auth_method: 'none' };
const redirectUri = location.origin + '/callback';
// The issuer is plain http on loopback in this test.
const insecure = { [oauth.allowInsecureRequests]: true };
const out = document.getElementById('out');
try {
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  if (location.pathname === '/') {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', 'openid Files.Read');
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    location.assign(url.href);
  } else {
    const { verifier, state } = JSON.parse(sessionStorage.getItem('pkce'));
    const params = oauth.validateAuthResponse(as, client, new URL(location.href), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    const files = await fetch(new URL('/api/v4/file?path=%2F', issuer), { headers: { authorization: 'Bearer ' + tokens.access_token } });
    const body = await files.json();
    out.textContent = JSON.stringify({ status: files.status, names: body.data.files.map((f) => f.name), token: tokens.access_token });
  }
} catch (err) {
  out.textContent = JSON.stringify({ error: String(err && err.stack || err) });
}
</script>`;
}

/** A page on an origin no client registered: tries what the app did, and reports what the browser let it read. */
function probePage(issuer: string, clientId: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Unregistered origin</title><pre id="out">working</pre>
<script type="module">
const issuer = ${JSON.stringify(issuer)};
const token = location.hash.slice(1);
async function attempt(url, init) {
  try {
    const res = await fetch(url, init);
    return 'read ' + res.status;
  } catch (err) {
    return 'refused ' + err.name;
  }
}
const report = {
  discovery: await attempt(issuer + '/.well-known/openid-configuration'),
  files: await attempt(issuer + '/api/v4/file?path=%2F', { headers: { authorization: 'Bearer ' + token } }),
  userinfo: await attempt(issuer + '/api/v4/session/oauth/userinfo', { headers: { authorization: 'Bearer ' + token } }),
  token: await attempt(issuer + '/api/v4/session/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: ${JSON.stringify(clientId)} }) }),
};
document.getElementById('out').textContent = JSON.stringify(report);
</script>`;
}

interface Site {
  origin: string;
  close(): Promise<void>;
}

async function serve(pages: (pathname: string) => string | undefined): Promise<Site> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/oauth4webapi.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(OAUTH4WEBAPI);
      return;
    }
    const html = pages(pathname);
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('browser: a single-page app on another origin (CORS, PKCE, oauth4webapi)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let app: Site;
  let stranger: Site;
  let clientId = '';
  let api: Api;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    app = await serve((p) => (p === '/' || p === '/callback' ? appPage(server.url, clientId) : undefined));
    // Another port on the same host is another origin (RFC 6454 §4), and this one no client registered.
    stranger = await serve((p) => (p === '/probe' ? probePage(server.url, clientId) : undefined));
    assert.notEqual(app.origin, stranger.origin);
    const adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const created = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Cross-origin SPA', icon: 'cloud', is_public: true, redirect_uris: [`${app.origin}/callback`], scopes: ['openid', 'Files.Read'] } },
      { token: adminToken },
    );
    assert.equal(created.body.code, 0, created.text);
    clientId = created.body.data.id;
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await stranger?.close();
    await server?.close();
  });

  it('the app exchanges its code and lists files from its own origin; an unregistered origin is refused by the browser', async () => {
    const adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const person = await createUser(api, adminToken, 'spa-person@example.com');
    const upload = await api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/from-the-spa.txt')}`, {
      token: person.token.access_token,
      body: 'hello',
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(upload.body.code, 0, upload.text);

    const { page, context, requests } = await openPage(browser);
    // The person is signed in to Cirrus (the web app keeps its session in localStorage).
    await page.goto(`${server.url}/`);
    await page.evaluate((pair) => localStorage.setItem('cirrus.session', JSON.stringify(pair)), person.token);

    await page.goto(`${app.origin}/`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${app.origin}/callback`));
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'working', undefined, { timeout: 15_000 });
    const result = JSON.parse((await page.locator('#out').textContent()) ?? '{}') as { status?: number; names?: string[]; token?: string; error?: string };
    await screenshot(page, 'cors-spa-callback');
    assert.equal(result.error, undefined, `the flow failed in the page: ${result.error}`);
    assert.equal(result.status, 200);
    assert.deepEqual(result.names, ['from-the-spa.txt']);
    // The page talked to Cirrus itself (cross-origin fetches), not through its own server.
    assert.ok(requests.some((u) => u.startsWith(`${server.url}/api/v4/session/oauth/token`)), 'the code exchange came from the page');
    assert.ok(requests.some((u) => u.startsWith(`${server.url}/api/v4/file?`)), 'the files call came from the page');

    // Same token, same browser, an origin no client registered.
    await page.goto(`${stranger.origin}/probe#${result.token}`);
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'working', undefined, { timeout: 15_000 });
    const report = JSON.parse((await page.locator('#out').textContent()) ?? '{}') as Record<string, string>;
    assert.equal(report.discovery, 'read 200', 'discovery is public');
    assert.equal(report.files, 'refused TypeError', 'the files API is not readable from an unregistered origin');
    assert.equal(report.userinfo, 'refused TypeError', 'nor userinfo');
    assert.equal(report.token, 'refused TypeError', 'nor the token endpoint');
    await context.close();
  });
});
