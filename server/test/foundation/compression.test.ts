// Compression (issue 23, item 13): the web app's assets are sent as the
// build's precompressed .br/.gz copies (RFC 9110 §8.4 Content-Encoding,
// §12.5.3 Accept-Encoding, §12.5.5 Vary); JSON answers of 1 KB or more are
// compressed when Accept-Encoding allows it; file bytes never are.
// Requests go through node:http, which (unlike fetch) shows the bytes as sent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put, q, type Person } from '../files/helpers.js';
import { basicHeader, createAccount, emailOf } from '../webdav/helpers.js';
import { ROOT_DIR } from '../../src/paths.js';

const ASSETS = path.join(ROOT_DIR, 'web/dist/assets');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(server: TestServer, url: string, headers: Record<string, string>): Promise<Raw> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: 'GET', path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (res: Raw): Buffer =>
  res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body;
const varies = (res: Raw) => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(res.headers.vary ?? ''));

describe('compression: precompressed assets, JSON answers, never file bytes', () => {
  let server: TestServer;
  let api: Api;
  let alice: Person;
  const auth = () => ({ authorization: `Bearer ${alice.token}` });

  before(async () => {
    assert.ok(existsSync(ASSETS), 'web/dist is built (npm run build:web)');
    server = await startServer();
    api = new Api(server);
    alice = await newUser(api, await adminToken(api));
    // A folder whose listing is well over 1 KB of JSON.
    for (let i = 0; i < 20; i++) await put(api, alice.token, `/many/file-${i}.txt`, `body ${i}`);
  });
  after(() => server.close());

  it('RFC 9110 §12.5.3: assets are sent as the build\'s .br or .gz copy, whichever the client accepts, with Vary: Accept-Encoding', async () => {
    const files = readdirSync(ASSETS).filter((f) => /\.(js|css)$/.test(f) && existsSync(path.join(ASSETS, f + '.br')));
    assert.ok(files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')), 'the build wrote .br copies of scripts and stylesheets');
    for (const file of [files.find((f) => f.startsWith('index-') && f.endsWith('.js'))!, files.find((f) => f.endsWith('.css'))!]) {
      const original = readFileSync(path.join(ASSETS, file));
      const type = file.endsWith('.js') ? /javascript/ : /text\/css/;
      const br = await get(server, `/assets/${file}`, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-encoding'], 'br', file);
      assert.ok(br.body.equals(readFileSync(path.join(ASSETS, file + '.br'))), 'the precompressed copy as it is');
      assert.ok(decode(br).equals(original));
      assert.ok(br.body.length < original.length / 2);
      assert.match(String(br.headers['content-type']), type);
      assert.match(String(br.headers['cache-control']), /immutable/);
      assert.ok(varies(br), 'Vary: Accept-Encoding');

      const gz = await get(server, `/assets/${file}`, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.ok(decode(gz).equals(original));
      assert.match(String(gz.headers['content-type']), type);
      assert.ok(varies(gz));

      const plain = await get(server, `/assets/${file}`, {});
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.body.equals(original));
      assert.ok(varies(plain), 'the identity answer varies on Accept-Encoding too');

      const refused = await get(server, `/assets/${file}`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
      assert.equal(refused.headers['content-encoding'], undefined);
    }
  });

  it('the web app\'s page is sent precompressed too, with its security headers', async () => {
    const br = await get(server, '/', { 'accept-encoding': 'br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(varies(br));
    assert.equal(br.headers['x-frame-options'], 'DENY');
    assert.match(decode(br).toString('utf8'), /<div id="root">/);
    const plain = await get(server, '/', {});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(decode(br).equals(plain.body));
  });

  it('a JSON answer over 1 KB is compressed as Accept-Encoding allows, envelope and headers unchanged', async () => {
    const url = `/api/v4/file?path=${q('/many')}&page_size=100`;
    const plain = await get(server, url, auth());
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > 1024, 'the listing is over 1 KB');
    const envelope = JSON.parse(plain.body.toString('utf8'));
    assert.equal(envelope.code, 0);
    assert.equal(envelope.data.files.length, 20);
    for (const encoding of ['br', 'gzip']) {
      const res = await get(server, url, { ...auth(), 'accept-encoding': encoding });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], encoding);
      assert.ok(res.body.length < plain.body.length / 2, `${encoding} is smaller`);
      assert.ok(varies(res));
      assert.equal(res.headers['content-length'], String(res.body.length));
      assert.deepEqual(JSON.parse(decode(res).toString('utf8')), envelope);
      const skip = new Set(['content-length', 'content-encoding', 'vary', 'date', 'x-request-id', 'keep-alive', 'connection']);
      for (const [name, value] of Object.entries(plain.headers)) if (!skip.has(name)) assert.deepEqual(res.headers[name], value, `${name} kept`);
    }
  });

  it('a JSON answer under 1 KB goes out as it is', async () => {
    const res = await get(server, '/api/v4/user/me', { ...auth(), 'accept-encoding': 'br, gzip' });
    assert.equal(res.status, 200);
    assert.ok(res.body.length < 1024);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(res.body.toString('utf8')).code, 0);
  });

  it('file downloads are never compressed: whole, ranges, ZIPs, WebDAV GET, even of a JSON file', async () => {
    const bytes = Buffer.from(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i, text: 'compressible text' })) }));
    assert.equal((await put(api, alice.token, '/dl/data.json', bytes)).status, 200);
    const accept = { 'accept-encoding': 'br, gzip, deflate' };

    const whole = await get(server, `/api/v4/file/content?path=${q('/dl/data.json')}`, { ...auth(), ...accept });
    assert.equal(whole.status, 200);
    assert.equal(whole.headers['content-encoding'], undefined);
    assert.equal(whole.headers['content-length'], String(bytes.length));
    assert.ok(whole.body.equals(bytes));

    const part = await get(server, `/api/v4/file/content?path=${q('/dl/data.json')}`, { ...auth(), ...accept, range: 'bytes=10-2009' });
    assert.equal(part.status, 206);
    assert.equal(part.headers['content-encoding'], undefined);
    assert.equal(part.headers['content-length'], '2000');
    assert.ok(part.body.equals(bytes.subarray(10, 2010)));

    const zip = await get(server, `/api/v4/file/archive?path=${q('/dl')}`, { ...auth(), ...accept });
    assert.equal(zip.status, 200);
    assert.equal(zip.headers['content-encoding'], undefined);
    assert.equal(zip.headers['content-length'], String(zip.body.length));

    const account = await createAccount(api, alice.token, { name: 'compression' });
    const basic = basicHeader(await emailOf(api, alice.token), account.password);
    const dav = await get(server, '/dav/dl/data.json', { authorization: basic, ...accept });
    assert.equal(dav.status, 200);
    assert.equal(dav.headers['content-encoding'], undefined);
    assert.equal(dav.headers['content-length'], String(bytes.length));
    assert.ok(dav.body.equals(bytes));
  });
});
