// Issue 19, defect 10: every answer carries the same baseline headers
// (`X-Content-Type-Options: nosniff`, a `Referrer-Policy`, and a
// `Content-Security-Policy`), whichever part of the server sent it. The API
// part walks the OpenAPI document, so routes added later are covered; the
// rest takes one or more answers of each other class: errors (404, 415, 400,
// Node's parser), OAuth endpoints and discovery, /api/docs and its assets,
// the web app's pages and assets, WebDAV, share pages, health and metrics.
// Served on a socket, since the HTTP parser's own answers are one class.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { concretePath, describe_, operations } from './openapi-walk.js';

const METRICS_TOKEN = 'metrics-token-for-the-baseline-test';

function assertBaseline(headers: Headers, what: string): void {
  assert.equal(headers.get('x-content-type-options'), 'nosniff', `${what}: X-Content-Type-Options`);
  assert.match(headers.get('referrer-policy') ?? '', /^(no-referrer|same-origin|strict-origin)$/, `${what}: Referrer-Policy`);
  assert.ok(headers.get('content-security-policy'), `${what}: Content-Security-Policy`);
}

/** The status line and headers of an answer read off the socket, for what Node's parser answers itself. */
function rawExchange(server: TestServer, request: string): Promise<{ status: number; headers: Headers }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head] = text.split('\r\n\r\n');
      const lines = head!.split('\r\n');
      const headers = new Headers();
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
      }
      resolve({ status: Number(lines[0]!.split(' ')[1]), headers });
    });
  });
}

describe('issue 19 #10: baseline headers on every answer', () => {
  let server: TestServer;
  let api: Api;
  let token: string;

  before(async () => {
    // A stand-in web build: a page and an asset, as Vite writes them.
    const webDir = mkdtempSync(path.join(tmpdir(), 'cirrus-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Cirrus</title><script type="module" src="/assets/app-abc123.js"></script>');
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startServer({ CIRRUS_WEB_DIR: webDir, CIRRUS_METRICS_TOKEN: METRICS_TOKEN });
    api = new Api(server.url);
    token = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(() => server.close());

  it('every operation of the OpenAPI document, anonymous and signed in (answers and errors)', async () => {
    let checked = 0;
    for (const op of await operations(api)) {
      // Requests that may change something carry a body nothing parses (415): nothing changes.
      const inert = !['GET', 'HEAD', 'OPTIONS'].includes(op.method) ? { body: '?', headers: { 'content-type': 'application/x-cirrus-probe' } } : {};
      for (const auth of [{}, { token }]) {
        const res = await api.raw(op.method, concretePath(op), { ...inert, ...auth });
        assertBaseline(res.headers, `${describe_(op)} (${'token' in auth ? 'signed in' : 'anonymous'}) ${res.status}`);
        checked++;
      }
    }
    assert.ok(checked > 150, `checked ${checked}`);
  });

  it('API errors: unknown route 404, wrong media type 415, malformed JSON 400, too large 413, and a parser-level 400', async () => {
    assertBaseline((await api.raw('GET', '/api/v4/no/such/route')).headers, '404');
    const unsupported = await api.raw('POST', '/api/v4/session/token', { body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(unsupported.status, 415);
    assertBaseline(unsupported.headers, '415');
    const malformed = await api.raw('POST', '/api/v4/session/token', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assertBaseline(malformed.headers, 'malformed JSON');
    const big = await api.raw('POST', '/api/v4/session/token', { body: `{"email":"${'a'.repeat(2 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
    assert.equal(big.status, 413);
    assertBaseline(big.headers, '413');
    const badUrl = await api.raw('GET', '/api/v4/file?path=%E0%A4%A');
    assertBaseline(badUrl.headers, `bad URL encoding ${badUrl.status}`);
    // Node's HTTP parser refuses this line; http/client-errors.ts writes the answer on the socket.
    const parser = await rawExchange(server, 'GET /api/v4/site/ping HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n');
    assert.equal(parser.status, 400);
    assertBaseline(parser.headers, 'HTTP parser error');
  });

  it('OAuth endpoints, discovery and the authorization page', async () => {
    for (const [method, url, init] of [
      ['POST', '/api/v4/session/oauth/token', { form: { grant_type: 'authorization_code', code: 'x', client_id: 'nobody' } }],
      ['POST', '/api/v4/session/oauth/introspect', { form: { token: 'x' } }],
      ['GET', '/.well-known/openid-configuration', {}],
      ['GET', '/.well-known/oauth-authorization-server', {}],
      ['GET', '/api/v4/session/oauth/jwks', {}],
      ['GET', '/session/authorize?client_id=nobody', {}],
    ] as const) {
      const res = await api.raw(method, url, init);
      assertBaseline(res.headers, `${method} ${url} ${res.status}`);
    }
  });

  it('/api/docs and every script and stylesheet it loads', async () => {
    const page = await fetch(`${server.url}/api/docs`, { redirect: 'follow' });
    const html = await page.text();
    assert.equal(page.status, 200);
    assertBaseline(page.headers, '/api/docs');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, page.url).toString()).filter((u) => u.startsWith(server.url));
    assert.ok(assets.length >= 2, html);
    for (const url of assets) {
      const res = await fetch(url);
      assertBaseline(res.headers, `${url} ${res.status}`);
    }
  });

  it('the web app: its pages, its assets, and an unknown asset', async () => {
    for (const url of ['/', '/files/', '/settings', '/assets/app-abc123.js', '/assets/missing.js']) {
      const res = await api.raw('GET', url);
      assertBaseline(res.headers, `${url} ${res.status}`);
    }
  });

  it('WebDAV: a 401, OPTIONS, PROPFIND, GET and a 404', async () => {
    await api.raw('PUT', '/api/v4/file/content?path=/dav.txt', { token, body: 'hello', headers: { 'content-type': 'text/plain' } });
    for (const [method, url, auth] of [
      ['PROPFIND', '/dav/', false],
      ['OPTIONS', '/dav/', false],
      ['PROPFIND', '/dav/', true],
      ['GET', '/dav/dav.txt', true],
      ['GET', '/dav/missing.txt', true],
    ] as const) {
      const res = await api.raw(method, url, { ...(auth ? { token } : {}), headers: { depth: '0' } });
      assertBaseline(res.headers, `${method} ${url} ${res.status}`);
    }
  });

  it('share pages and downloads (/s/:id), an unknown share, health and metrics', async () => {
    await api.raw('PUT', '/api/v4/file/content?path=/shared.txt', { token, body: 'shared', headers: { 'content-type': 'text/plain' } });
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/shared.txt' }, { token });
    assert.equal(share.status, 200, share.text);
    const id = share.body.data.id;
    for (const [url, headers] of [
      [`/s/${id}`, { accept: 'text/html' }],
      [`/s/${id}?download=1`, {}],
      ['/s/zzNoSuchShare', {}],
      ['/api/v4/site/health', {}],
      ['/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }],
      ['/metrics', {}],
    ] as const) {
      const res = await api.raw('GET', url, { headers });
      assertBaseline(res.headers, `${url} ${res.status}`);
    }
  });
});
