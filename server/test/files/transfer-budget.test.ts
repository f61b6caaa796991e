// Issue 32, every long-lived connection has a budget: one account holds a
// bounded number of upload bodies being received (tus PATCH, PUT, WebDAV PUT)
// and of responses streaming file bytes (downloads, WebDAV GET) at once;
// past it, 429 with Retry-After (RFC 6585 §4, api-contract §1). Through real
// sockets that hold bodies open. Share-link traffic is counted against the
// link, never the owner's own budget. /metrics shows the gauges.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, openPut, put, q, type OpenPut, type Person } from './helpers.js';

const METRICS = 'transfer-budget-metrics-token-0123456789';
const BIG = 24 * 1024 * 1024;

async function gauges(url: string): Promise<{ uploads: number; downloads: number }> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
  const text = await res.text();
  const read = (name: string) => Number(/^(\S+) (\d+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN);
  return { uploads: read('cirrus_uploads_in_flight'), downloads: read('cirrus_downloads_in_flight') };
}

/** A GET whose body the client does not read: the server's response stays open (its socket buffers full) until `close`. */
interface HeldGet {
  res: Promise<IncomingMessage>;
  close(): void;
}
function holdGet(url: string, path: string, headers: Record<string, string>): HeldGet {
  const u = new URL(url);
  let req!: ClientRequest;
  const res = new Promise<IncomingMessage>((resolve, reject) => {
    req = httpRequest({ host: u.hostname, port: u.port, path, headers, agent: false }, (r) => {
      r.pause();
      resolve(r);
    });
    req.on('error', reject);
    req.end();
  });
  return { res, close: () => req.destroy() };
}

async function refusal(res: Response): Promise<{ status: number; retryAfter: string | null; msg: string }> {
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), msg: text };
}

describe('uploads and downloads in flight have a budget per account (issue 32)', () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  const held: OpenPut[] = [];
  const gets: HeldGet[] = [];

  before(async () => {
    server = await startServer({ CIRRUS_MAX_UPLOADS_PER_ACCOUNT: '3', CIRRUS_MAX_DOWNLOADS_PER_ACCOUNT: '2', CIRRUS_METRICS_TOKEN: METRICS });
    api = new Api(server.url);
    admin = await adminToken(api);
  });
  after(async () => {
    for (const p of held.splice(0)) p.req.destroy();
    for (const g of gets.splice(0)) g.close();
    await server.close();
  });

  const tusCreate = async (who: Person, name: string, length: number) => {
    const res = await fetch(`${server.url}/api/v4/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${who.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': `filename ${Buffer.from(name).toString('base64')}` } });
    assert.equal(res.status, 201, await res.text());
    return new URL(res.headers.get('location')!, server.url).pathname;
  };

  it('an account sending 3 bodies at once gets 429 with Retry-After for a 4th PUT, tus PATCH or WebDAV PUT (RFC 6585 §4); another account is not touched; a body that ends gives its slot back', async () => {
    const alice = await newUser(api, admin);
    const bob = await newUser(api, admin);
    const patchPath = await tusCreate(alice, 'later.bin', 5);
    for (let i = 0; i < 3; i++) held.push(openPut(server.url, alice.token, `/slow-${i}.bin`, 1000, Buffer.alloc(10)));
    // The three bodies are being received once the gauge says so (each took its slot on arrival).
    for (let i = 0; i < 100 && (await gauges(server.url)).uploads < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await gauges(server.url)).uploads, 3);

    const refused = await refusal(await fetch(`${server.url}/api/v4/file/content?path=${q('/one-more.txt')}`, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}` }, body: 'hello' }));
    assert.equal(refused.status, 429, refused.msg);
    assert.ok(Number(refused.retryAfter) > 0, `Retry-After: ${refused.retryAfter}`);
    assert.match(refused.msg, /already has 3 uploads in progress/);
    const patch = await fetch(`${server.url}${patchPath}`, { method: 'PATCH', headers: { authorization: `Bearer ${alice.token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'abcde' });
    assert.equal(patch.status, 429, await patch.text());
    const davPut = await fetch(`${server.url}/dav/dav-one-more.txt`, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}` }, body: 'hello' });
    assert.equal(davPut.status, 429, await davPut.text());
    assert.ok(Number(davPut.headers.get('retry-after')) > 0);

    assert.equal((await put(api, bob.token, '/mine.txt', 'bob is not touched')).status, 200);

    // One held body finishes: its slot is free again, and the tus upload goes through.
    const first = held.shift()!;
    first.req.end(Buffer.alloc(990));
    assert.equal(await first.status, 200);
    const again = await fetch(`${server.url}${patchPath}`, { method: 'PATCH', headers: { authorization: `Bearer ${alice.token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'abcde' });
    assert.equal(again.status, 204, await again.text());
    for (const p of held.splice(0)) {
      p.req.end(Buffer.alloc(990));
      assert.equal(await p.status, 200);
    }
    assert.equal((await gauges(server.url)).uploads, 0);
  });

  it('a burst of 10 parallel PUTs of one account gets exactly 3 bodies received, 7 refused', async () => {
    const carol = await newUser(api, admin);
    const tries = Array.from({ length: 10 }, (_, i) => openPut(server.url, carol.token, `/burst-${i}.bin`, 100, Buffer.alloc(10)));
    held.push(...tries);
    const statuses: (number | null)[] = [];
    await new Promise<void>((resolve) => {
      for (const t of tries) void t.status.then((s) => { statuses.push(s); if (statuses.length === 7) resolve(); });
    });
    assert.deepEqual(statuses, Array(7).fill(429));
    assert.equal((await gauges(server.url)).uploads, 3);
    // Ending every request: the 3 held bodies complete (the refused ones were answered already).
    for (const t of tries) t.req.end(Buffer.alloc(90));
    const all = await Promise.all(tries.map((t) => t.status));
    assert.deepEqual(all.filter((s) => s === 200).length, 3);
    held.splice(0);
  });

  it('an account with 2 downloads streaming (API and WebDAV GET) gets 429 for a 3rd; HEAD takes no slot; share-link downloads count against the link, not the owner', async () => {
    const dave = await newUser(api, admin);
    assert.equal((await put(api, dave.token, '/big.bin', Buffer.alloc(BIG, 7))).status, 200);
    const auth = { authorization: `Bearer ${dave.token}` };
    gets.push(holdGet(server.url, `/api/v4/file/content?path=${q('/big.bin')}`, auth), holdGet(server.url, '/dav/big.bin', auth));
    assert.deepEqual(await Promise.all(gets.map(async (g) => (await g.res).statusCode)), [200, 200]);
    assert.equal((await gauges(server.url)).downloads, 2);

    const third = await refusal(await fetch(`${server.url}/api/v4/file/content?path=${q('/big.bin')}`, { headers: auth }));
    assert.equal(third.status, 429);
    assert.ok(Number(third.retryAfter) > 0);
    assert.match(third.msg, /already has 2 downloads in progress/);
    const davThird = await fetch(`${server.url}/dav/big.bin`, { headers: auth });
    assert.equal(davThird.status, 429);
    await davThird.body?.cancel();
    assert.equal((await fetch(`${server.url}/api/v4/file/content?path=${q('/big.bin')}`, { method: 'HEAD', headers: auth })).status, 200, 'HEAD sends no body');

    // A share link of dave's: strangers' downloads are the link's (2), and dave's own are untouched by them.
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/big.bin' }, { token: dave.token });
    assert.equal(share.status, 200, share.text);
    for (const g of gets.splice(0)) g.close();
    for (let i = 0; i < 100 && (await gauges(server.url)).downloads > 0; i++) await new Promise((r) => setTimeout(r, 20));
    const strangers = [holdGet(server.url, `/s/${share.body.data.id}?download=1`, {}), holdGet(server.url, `/s/${share.body.data.id}?download=1`, {})];
    gets.push(...strangers);
    assert.deepEqual(await Promise.all(strangers.map(async (g) => (await g.res).statusCode)), [200, 200]);
    const linkThird = await fetch(`${server.url}/s/${share.body.data.id}?download=1`);
    assert.equal(linkThird.status, 429, 'the link holds 2');
    await linkThird.body?.cancel();
    const own = await fetch(`${server.url}/api/v4/file/content?path=${q('/big.bin')}`, { headers: auth });
    assert.equal(own.status, 200, 'the owner\'s own budget is untouched by the link');
    await own.body?.cancel();

    // Closed downloads give their slots back.
    for (const g of gets.splice(0)) g.close();
    let after = await fetch(`${server.url}/s/${share.body.data.id}?download=1`);
    for (let i = 0; i < 100 && after.status === 429; i++) {
      await after.body?.cancel();
      await new Promise((r) => setTimeout(r, 20));
      after = await fetch(`${server.url}/s/${share.body.data.id}?download=1`);
    }
    assert.equal(after.status, 200);
    await after.body?.cancel();
  });
});
