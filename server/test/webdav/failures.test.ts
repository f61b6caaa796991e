// Each failure a WebDAV client can meet, driven with curl (a real client, the
// way an operator would reproduce it), checking the status, the headers and
// that nothing changed: wrong password, read-only account, escaping the
// account's folder, over quota, a lock held by someone else, an OAuth token
// without Files.Write, malformed XML, throttled guessing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, download, names, put } from '../files/helpers.js';
import { approve, createApp, exchange, type OAuthTestContext } from '../oauth/helpers.js';
import { basicHeader, createAccount, davPerson, hasTool, type DavPerson } from './helpers.js';

interface Curl {
  status: number;
  headers: string;
  body: string;
}

/**
 * `curl -X METHOD` with headers and an optional body; returns status, raw
 * headers and body. Asynchronous: the server runs in this process.
 */
async function curl(method: string, url: string, headers: Record<string, string>, body?: string, extra: string[] = []): Promise<Curl> {
  const args = ['-s', '-S', '-i', '--path-as-is', '-X', method, ...extra];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  // The body goes through stdin (`@-`): some are larger than an argument may be.
  if (body !== undefined) args.push('--data-binary', '@-');
  args.push(url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`curl failed (${code}): ${stderr}`))));
    child.stdin.end(body ?? '');
  });
  let rest = out;
  // Interim answers (100 Continue for large bodies) come first.
  while (/^HTTP\/[\d.]+ 1\d\d/.test(rest)) rest = rest.slice(rest.indexOf('\r\n\r\n') + 4);
  const split = rest.indexOf('\r\n\r\n');
  const head = rest.slice(0, split);
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]), headers: head, body: rest.slice(split + 4) };
}

const MALFORMED = ['<D:propfind xmlns:D="DAV:"><D:prop>', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><x:y/></D:prop></D:propfind>', 'not xml at all', '<a></b>'];

describe('WebDAV failures (curl)', { skip: hasTool('curl') ? false : 'curl missing' }, () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let p: DavPerson;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    admin = await adminToken(api);
    p = await davPerson(server);
    await put(api, p.token, '/keep.txt', 'keep');
  });
  after(() => server.close());

  it('RFC 7617 §3, RFC 6750 §3: a wrong password is 401 with WWW-Authenticate Basic realm="Cirrus" and Bearer', async () => {
    const res = await curl('PROPFIND', `${server.url}/dav/`, { depth: '0' }, undefined, ['-u', `${p.email}:wrong-password`]);
    assert.equal(res.status, 401);
    assert.match(res.headers, /^www-authenticate: Basic realm="Cirrus"/im);
    assert.match(res.headers, /^www-authenticate: Bearer realm="Cirrus"/im);
    const none = await curl('GET', `${server.url}/dav/keep.txt`, {});
    assert.equal(none.status, 401);
    assert.match(none.headers, /^www-authenticate: Basic/im);
    const badToken = await curl('GET', `${server.url}/dav/keep.txt`, { authorization: 'Bearer not.a.token' });
    assert.equal(badToken.status, 401);
    assert.match(badToken.headers, /error="invalid_token"/);
  });

  it('a read-only account writing gets 403 and nothing changes', async () => {
    const ro = await createAccount(api, p.token, { name: 'ro', readonly: true });
    const res = await curl('PUT', `${server.url}/dav/keep.txt`, {}, 'overwritten', ['-u', `${p.email}:${ro.password}`]);
    assert.equal(res.status, 403);
    assert.equal((await download(api, p.token, '/keep.txt')).body.toString(), 'keep');
  });

  it('RFC 4918 §9.8.5, §9.9.4: a folder account cannot escape with ".." (403) nor with a Destination outside (403/502)', async () => {
    const q = await davPerson(server, { path: '/Shared' });
    await put(api, q.token, '/private.txt', 'private');
    await put(api, q.token, '/Shared/in.txt', 'in');
    const auth = { authorization: q.basic };
    for (const path of ['/dav/../private.txt', '/dav/%2e%2e/private.txt', '/dav/a/../../private.txt', '/dav/%2E%2E%2Fprivate.txt']) {
      const res = await curl('GET', server.url + path, auth);
      assert.ok(res.status === 403 || res.status === 400, `${path}: ${res.status}`);
      assert.doesNotMatch(res.body, /private/);
    }
    const escapes: [string, number][] = [
      [`${server.url}/dav/../private2.txt`, 403],
      ['/dav/%2e%2e/private2.txt', 403],
      [`${server.url}/api/v4/file`, 502],
      ['http://elsewhere.example/dav/x.txt', 502],
    ];
    for (const [destination, status] of escapes) {
      for (const method of ['COPY', 'MOVE']) {
        const res = await curl(method, `${server.url}/dav/in.txt`, { ...auth, destination });
        assert.equal(res.status, status, `${method} -> ${destination}`);
      }
    }
    assert.deepEqual(await names(api, q.token, '/'), ['Shared', 'private.txt']);
    assert.deepEqual(await names(api, q.token, '/Shared'), ['in.txt']);
  });

  it('RFC 4918 §11.5: over quota is 507 and leaves nothing behind', async () => {
    const q = await davPerson(server);
    await api.put(`/api/v4/admin/user/${q.id}`, { storage_quota: 1024 }, { token: admin });
    const big = 'x'.repeat(4096);
    const res = await curl('PUT', `${server.url}/dav/big.bin`, { authorization: q.basic, 'content-type': 'application/octet-stream' }, big);
    assert.equal(res.status, 507);
    const chunked = await curl('PUT', `${server.url}/dav/big2.bin`, { authorization: q.basic, 'transfer-encoding': 'chunked' }, big);
    assert.equal(chunked.status, 507);
    assert.deepEqual(await names(api, q.token, '/'), []);
    const copy = await curl('PUT', `${server.url}/dav/small.bin`, { authorization: q.basic }, 'x'.repeat(600));
    assert.equal(copy.status, 201);
    assert.equal((await curl('COPY', `${server.url}/dav/small.bin`, { authorization: q.basic, destination: '/dav/copy.bin' })).status, 507);
  });

  it('RFC 4918 §9.10.6: a lock held by another device of the person is 423 without its token', async () => {
    const other = await createAccount(api, p.token, { name: 'second device' });
    const lockinfo = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const lock = await curl('LOCK', `${server.url}/dav/keep.txt`, { authorization: p.basic, 'content-type': 'application/xml' }, lockinfo);
    assert.equal(lock.status, 200);
    const auth2 = { authorization: basicHeader(p.email, other.password) };
    for (const [method, headers, body] of [
      ['PUT', {}, 'stolen'],
      ['DELETE', {}, undefined],
      ['MOVE', { destination: '/dav/moved.txt' }, undefined],
      ['PROPPATCH', { 'content-type': 'application/xml' }, '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><z xmlns="urn:z">1</z></D:prop></D:set></D:propertyupdate>'],
      ['LOCK', { 'content-type': 'application/xml' }, lockinfo],
    ] as [string, Record<string, string>, string | undefined][]) {
      const res = await curl(method, `${server.url}/dav/keep.txt`, { ...auth2, ...headers }, body);
      assert.equal(res.status, 423, method);
    }
    assert.equal((await download(api, p.token, '/keep.txt')).body.toString(), 'keep');
    const token = /lock-token: <([^>]+)>/i.exec(lock.headers)![1]!;
    assert.equal((await curl('UNLOCK', `${server.url}/dav/keep.txt`, { authorization: p.basic, 'lock-token': `<${token}>` })).status, 204);
  });

  it('RFC 6750 §3.1: an OAuth token with Files.Read only reads; writes are 403 insufficient_scope; without Files.* it cannot read', async () => {
    const ctx: OAuthTestContext = { server, api, adminToken: admin };
    const app = await createApp(ctx, { scopes: ['Files.Read', 'Files.Write', 'UserInfo.Read'] });
    const tokenFor = async (scope: string) => (await exchange(ctx, app, await approve(ctx, p.token, app, { scope }))).body.access_token!;
    const reader = { authorization: `Bearer ${await tokenFor('Files.Read')}` };
    assert.equal((await curl('GET', `${server.url}/dav/keep.txt`, reader)).status, 200);
    assert.equal((await curl('PROPFIND', `${server.url}/dav/`, { ...reader, depth: '1' })).status, 207);
    for (const [method, headers] of [['PUT', {}], ['DELETE', {}], ['MKCOL', {}], ['MOVE', { destination: '/dav/x.txt' }]] as [string, Record<string, string>][]) {
      const res = await curl(method, `${server.url}/dav/keep.txt`, { ...reader, ...headers }, method === 'PUT' ? 'x' : undefined);
      assert.equal(res.status, 403, method);
      assert.match(res.headers, /insufficient_scope.*Files\.Write/i);
    }
    const none = { authorization: `Bearer ${await tokenFor('UserInfo.Read')}` };
    assert.equal((await curl('GET', `${server.url}/dav/keep.txt`, none)).status, 403);
    const writer = { authorization: `Bearer ${await tokenFor('Files.Write')}` };
    assert.equal((await curl('PUT', `${server.url}/dav/by-app.txt`, writer, 'app')).status, 201);
    assert.equal((await download(api, p.token, '/keep.txt')).body.toString(), 'keep');
  });

  it('RFC 4918 §8.2: malformed XML bodies are 400 and change nothing', async () => {
    await put(api, p.token, '/xml.txt', 'xml');
    for (const body of MALFORMED) {
      for (const method of ['PROPFIND', 'PROPPATCH', 'LOCK']) {
        const res = await curl(method, `${server.url}/dav/xml.txt`, { authorization: p.basic, depth: '0', 'content-type': 'application/xml' }, body);
        assert.equal(res.status, 400, `${method} ${body}`);
      }
    }
    const locks = await curl('PROPFIND', `${server.url}/dav/xml.txt`, { authorization: p.basic, depth: '0' });
    assert.match(locks.body, /<D:lockdiscovery\/>/);
    assert.equal((await download(api, p.token, '/xml.txt')).body.toString(), 'xml');
    // Wrong root elements are 400 too, and a huge body 413.
    assert.equal((await curl('PROPFIND', `${server.url}/dav/xml.txt`, { authorization: p.basic, depth: '0' }, '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"/>')).status, 400);
    assert.equal((await curl('PROPPATCH', `${server.url}/dav/xml.txt`, { authorization: p.basic }, `<?xml version="1.0"?><x>${'a'.repeat(1_100_000)}</x>`)).status, 413);
  });

  it('failed Basic attempts are throttled like sign-in: 429 with Retry-After, and the right password waits too', async () => {
    const q = await davPerson(server);
    let last: Curl | undefined;
    for (let i = 0; i < 8; i++) last = await curl('PROPFIND', `${server.url}/dav/`, { depth: '0' }, undefined, ['-u', `${q.email}:${q.account.password.slice(0, 8)}guess${i}`]);
    assert.equal(last!.status, 429);
    assert.match(last!.headers, /^retry-after: \d+/im);
    const right = await curl('PROPFIND', `${server.url}/dav/`, { depth: '0', authorization: q.basic });
    assert.equal(right.status, 429);
    // The person's sign-in is not locked by WebDAV guessing (keys of its own).
    const signIn = await api.post('/api/v4/session/token', { email: q.email, password: 'user-password-123' });
    assert.equal(signIn.status, 200);
  });
});
