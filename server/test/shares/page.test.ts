// api-contract §10: /s/:id opened by a browser (Accept: text/html, no path or
// download parameter) gets the share page; tools (curl, wget, scripts) and the
// page's own download links keep getting the bytes from the same URL.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetchBytes, newUser, setUp, share, upload, type Ctx, type Person } from './support.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('shares: /s/:id for browsers and for tools', () => {
  let ctx: Ctx;
  let alice: Person;
  const content = 'bytes for tools';

  before(async () => {
    ctx = await setUp();
    alice = await newUser(ctx, 'Alice');
    await upload(ctx, alice, '/notes.txt', content);
    await upload(ctx, alice, '/dir/a.txt', 'a');
  });
  after(() => ctx.server.close());

  it('a browser navigation gets the page with the page security headers, and counts no download', async () => {
    const s = await share(ctx, alice, { path: '/notes.txt', download_limit: 1 });
    const res = await fetchBytes(ctx, `/s/${s.id}`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.body.toString('utf8'), /<div id="root">/);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    // The page did not use the only download the limit allows: a tool still gets the bytes.
    const bytes = await fetchBytes(ctx, `/s/${s.id}`);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.body.toString('utf8'), content);
  });

  it('curl and wget (Accept */* or none) get the bytes, as before', async () => {
    const s = await share(ctx, alice, { path: '/notes.txt' });
    const tools: Record<string, string>[] = [{ accept: '*/*', 'user-agent': 'curl/8.5.0' }, { 'user-agent': 'Wget/1.21.4' }, {}];
    for (const headers of tools) {
      const res = await fetchBytes(ctx, `/s/${s.id}`, { headers });
      assert.equal(res.status, 200);
      assert.equal(res.body.toString('utf8'), content, JSON.stringify(headers));
      assert.match(res.headers.get('content-disposition') ?? '', /attachment/);
    }
  });

  it('with download=1, inline=1 or a path, a browser gets the bytes too (the page\'s own links)', async () => {
    const file = await share(ctx, alice, { path: '/notes.txt' });
    const dl = await fetchBytes(ctx, `/s/${file.id}?download=1`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(dl.body.toString('utf8'), content);
    const inline = await fetchBytes(ctx, `/s/${file.id}?inline=1`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(inline.body.toString('utf8'), content);
    assert.match(inline.headers.get('content-disposition') ?? '', /inline/);
    const folder = await share(ctx, alice, { path: '/dir' });
    const inner = await fetchBytes(ctx, `/s/${folder.id}?path=%2Fa.txt`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(inner.body.toString('utf8'), 'a');
  });

  it('a malformed download parameter is a 400 envelope, not the page', async () => {
    const s = await share(ctx, alice, { path: '/notes.txt' });
    const res = await fetchBytes(ctx, `/s/${s.id}?download=maybe`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.status, 400);
    assert.equal(res.json?.code, 40001);
  });

  it('HEAD from a browser keeps the download headers (only GET navigations get the page)', async () => {
    const s = await share(ctx, alice, { path: '/notes.txt' });
    const res = await fetchBytes(ctx, `/s/${s.id}`, { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(content)));
  });
});
