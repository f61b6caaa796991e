// Issue 19, defect 9: a user's bytes are never served in a type the app's
// pages could run or apply. Script-capable uploads (JavaScript, modules,
// HTML, SVG, XML, CSS, WebAssembly, JSON) go out as application/octet-stream
// and as attachments even when inline display is asked for, and every
// user-content answer has `X-Content-Type-Options: nosniff` and
// `Content-Security-Policy: sandbox; default-src 'none'`. With nosniff, the
// Fetch standard (§3.5, "should response to request be blocked due to
// nosniff") refuses a non-JavaScript type as a script and a non-CSS type as a
// stylesheet. The API part reads the OpenAPI document: every operation whose
// success answer is not JSON serves bytes and must be in BYTE_ROUTES; the rest
// (share links, WebDAV, the sync clients' /remote.php/ and /index.php/ routes)
// is listed here; the sync clients' OCS answers (XML or JSON naming what
// people chose) keep the baseline CSP. The browser test is
// server/test/browser/user-content.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, signIn, type ApiResponse } from '../helpers/client.js';
import { describe_, operations } from './openapi-walk.js';

/** Uploads whose own type a browser would run, apply or render as a page. */
const SCRIPT_CAPABLE: Record<string, string> = {
  'evil.js': 'window.__pwned = true;',
  'evil.mjs': 'window.__pwned = true;',
  'page.html': '<script>window.__pwned = true</script>',
  'page.htm': '<script>window.__pwned = true</script>',
  'pic.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>window.__pwned = true</script></svg>',
  'data.xml': '<?xml version="1.0"?><x/>',
  'style.css': 'body { background: red }',
  'mod.wasm': '\0asm\x01\0\0\0',
  'data.json': '{"a": 1}',
};

interface Ctx {
  api: Api;
  token: string;
}

type Fetcher = (c: Ctx, path: string) => Promise<ApiResponse>;

const body = { headers: { 'content-type': 'application/json' } };

async function signedUrl(c: Ctx, path: string): Promise<string> {
  const res = await c.api.post<{ url: string }>('/api/v4/file/url', { path, inline: true }, { token: c.token });
  assert.equal(res.status, 200, res.text);
  const url = new URL(res.body.data.url);
  return url.pathname + url.search;
}

async function signedArchiveUrl(c: Ctx, path: string): Promise<string> {
  const res = await c.api.post<{ url: string }>('/api/v4/file/archive/url', { paths: [path] }, { token: c.token });
  assert.equal(res.status, 200, res.text);
  const url = new URL(res.body.data.url);
  return url.pathname + url.search;
}

/**
 * Every API operation that answers bytes, and how to fetch a user's upload
 * (`path`) through it. `own: true` routes serve the file's own bytes (its type
 * matters); the others serve a zip or an image the server made.
 */
const BYTE_ROUTES: Record<string, { own: boolean; fetch: Fetcher }> = {
  'GET /api/v4/file/content': { own: true, fetch: (c, p) => c.api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent(p)}&inline=1`, { token: c.token }) },
  'HEAD /api/v4/file/content': { own: true, fetch: (c, p) => c.api.raw('HEAD', `/api/v4/file/content?path=${encodeURIComponent(p)}&inline=1`, { token: c.token }) },
  'GET /api/v4/file/signed/{id}/{name}': { own: true, fetch: async (c, p) => c.api.raw('GET', await signedUrl(c, p)) },
  'HEAD /api/v4/file/signed/{id}/{name}': { own: true, fetch: async (c, p) => c.api.raw('HEAD', await signedUrl(c, p)) },
  'GET /api/v4/file/archive': { own: false, fetch: (c, p) => c.api.raw('GET', `/api/v4/file/archive?path=${encodeURIComponent(p.slice(0, p.lastIndexOf('/')) || '/')}`, { token: c.token }) },
  'HEAD /api/v4/file/archive': { own: false, fetch: (c, p) => c.api.raw('HEAD', `/api/v4/file/archive?path=${encodeURIComponent(p.slice(0, p.lastIndexOf('/')) || '/')}`, { token: c.token }) },
  'POST /api/v4/file/archive': { own: false, fetch: (c, p) => c.api.raw('POST', '/api/v4/file/archive', { token: c.token, body: JSON.stringify({ paths: [p] }), ...body }) },
  'GET /api/v4/file/archive/signed/{name}': { own: false, fetch: async (c, p) => c.api.raw('GET', await signedArchiveUrl(c, p)) },
  'HEAD /api/v4/file/archive/signed/{name}': { own: false, fetch: async (c, p) => c.api.raw('HEAD', await signedArchiveUrl(c, p)) },
  'GET /api/v4/file/versions/{id}/content': { own: true, fetch: async (c, p) => c.api.raw('GET', `/api/v4/file/versions/${await versionOf(c, p)}/content?inline=1`, { token: c.token }) },
  'HEAD /api/v4/file/versions/{id}/content': { own: true, fetch: async (c, p) => c.api.raw('HEAD', `/api/v4/file/versions/${await versionOf(c, p)}/content?inline=1`, { token: c.token }) },
  'GET /api/v4/file/thumb': { own: false, fetch: (c) => c.api.raw('GET', '/api/v4/file/thumb?path=/uc/pic.png', { token: c.token }) },
  'GET /api/v4/user/avatar/{id}': { own: false, fetch: async (c) => c.api.raw('GET', (await c.api.get<{ avatar_url: string }>('/api/v4/user/me', { token: c.token })).body.data.avatar_url) },
  // Rows hold what clients sent (a user agent is anyone's to choose); CSV here, JSON lines checked below.
  'GET /api/v4/admin/audit/export': { own: false, fetch: (c) => c.api.raw('GET', '/api/v4/admin/audit/export?format=csv', { token: c.token }) },
};

/** User-content routes outside the document. */
const OTHER_ROUTES: Record<string, Fetcher> = {
  'GET /s/:id (download)': async (c, p) => c.api.raw('GET', `/s/${await share(c, p)}?download=1&inline=1`),
  'GET /s/:id (inline)': async (c, p) => c.api.raw('GET', `/s/${await share(c, p)}?inline=1`, { headers: { accept: '*/*' } }),
  'HEAD /s/:id': async (c, p) => c.api.raw('HEAD', `/s/${await share(c, p)}?download=1`),
  'GET /dav/…': (c, p) => c.api.raw('GET', `/dav${p}`, { token: c.token }),
  'HEAD /dav/…': (c, p) => c.api.raw('HEAD', `/dav${p}`, { token: c.token }),
  // The sync clients' doors (api-contract §14).
  'GET /remote.php/webdav/…': (c, p) => c.api.raw('GET', `/remote.php/webdav${p}`, { token: c.token }),
  'HEAD /remote.php/webdav/…': (c, p) => c.api.raw('HEAD', `/remote.php/webdav${p}`, { token: c.token }),
  'GET /remote.php/dav/files/<uid>/…': async (c, p) => c.api.raw('GET', `/remote.php/dav/files/${await uidOf(c)}${p}`, { token: c.token }),
  'HEAD /remote.php/dav/files/<uid>/…': async (c, p) => c.api.raw('HEAD', `/remote.php/dav/files/${await uidOf(c)}${p}`, { token: c.token }),
  'GET /remote.php/dav/versions/<uid>/versions/<fileid>/<version>': async (c, p) => c.api.raw('GET', await davVersionUrl(c, p), { token: c.token }),
};

/** Routes outside the document that serve an image the server made (not the upload's own bytes). */
const OTHER_BYTE_ROUTES: Record<string, Fetcher> = {
  'GET /index.php/core/preview': async (c) => c.api.raw('GET', `/index.php/core/preview?fileId=${await davFileId(c, '/uc/pic.png')}&x=64&y=64&a=1`, { token: c.token }),
  'GET /index.php/core/preview.png': (c) => c.api.raw('GET', '/index.php/core/preview.png?file=/uc/pic.png&x=64&y=64', { token: c.token }),
};

async function uidOf(c: Ctx): Promise<string> {
  return (await c.api.get<{ id: string }>('/api/v4/user/me', { token: c.token })).body.data.id;
}

/** The oc:fileid of the upload at `path`, as a sync client reads it. */
async function davFileId(c: Ctx, path: string): Promise<string> {
  const res = await c.api.raw('PROPFIND', `/remote.php/dav/files/${await uidOf(c)}${path}`, {
    token: c.token,
    headers: { depth: '0', 'content-type': 'application/xml' },
    body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/></d:prop></d:propfind>',
  });
  assert.equal(res.status, 207, res.text);
  return /<oc:fileid>(\d+)<\/oc:fileid>/.exec(res.text)![1]!;
}

/** The URL of an older version of the upload at `path` on the sync clients' versions door. */
async function davVersionUrl(c: Ctx, path: string): Promise<string> {
  const version = await versionOf(c, path);
  return `/remote.php/dav/versions/${await uidOf(c)}/versions/${await davFileId(c, path)}/${encodeURIComponent(version)}`;
}

/** A version of the upload at `path` with its same bytes (written again over itself), answered by its id. */
async function versionOf(c: Ctx, path: string): Promise<string> {
  const bytes = Buffer.from(await (await c.api.fetch(`/api/v4/file/content?path=${encodeURIComponent(path)}`, { headers: { authorization: `Bearer ${c.token}` } })).arrayBuffer());
  const put = await c.api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { token: c.token, body: bytes, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(put.status, 200, put.text);
  const list = await c.api.get<{ id: string; current: boolean }[]>(`/api/v4/file/versions?path=${encodeURIComponent(path)}`, { token: c.token });
  return list.body.data.find((v) => !v.current)!.id;
}

async function share(c: Ctx, path: string): Promise<string> {
  const res = await c.api.put<{ id: string }>('/api/v4/share', { path }, { token: c.token });
  assert.equal(res.status, 200, res.text);
  return res.body.data.id;
}

function assertUserContentHeaders(res: ApiResponse, what: string): void {
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /(^|;)\s*sandbox\s*(;|$)/, `${what}: CSP sandbox (${csp})`);
  assert.match(csp, /default-src 'none'/, `${what}: CSP default-src 'none' (${csp})`);
}

const SCRIPT_TYPES = /javascript|ecmascript|html|svg|xml|css|wasm|json/i;

describe('issue 19 #9: user content is never served as something a page can run', () => {
  let server: InjectedServer;
  let ctx: Ctx;

  before(async () => {
    server = await startInjectedServer();
    const api = new Api(server);
    ctx = { api, token: (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token };
    const put = async (path: string, bytes: string | Buffer) => {
      const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { token: ctx.token, body: bytes, headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(res.status, 200, res.text);
    };
    for (const [name, text] of Object.entries(SCRIPT_CAPABLE)) await put(`/uc/${name}`, text);
    await put('/uc/notes.txt', 'plain notes');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 128, b: 255 } } }).png().toBuffer();
    await put('/uc/pic.png', png);
    const avatar = await server.fetch('/api/v4/user/avatar', { method: 'PUT', headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'image/png' }, body: new Uint8Array(png) });
    assert.equal(avatar.status, 200, await avatar.text());
  });
  after(() => server.close());

  it('every operation of the document that answers bytes is covered here', async () => {
    // The change feed's text/event-stream carries events the server writes (JSON per event), never a user's bytes.
    const byteOps = (await operations(ctx.api)).filter((op) => op.successTypes.some((t) => t !== 'application/json' && t !== 'text/event-stream')).map(describe_);
    assert.deepEqual(byteOps.filter((k) => !(k in BYTE_ROUTES)), [], 'add these to BYTE_ROUTES');
    for (const key of Object.keys(BYTE_ROUTES)) assert.ok(byteOps.includes(key), `${key} no longer answers bytes`);
  });

  it('every user-content answer has nosniff and a sandbox CSP, and none has a script-capable type', async () => {
    const all: [string, Fetcher][] = [...Object.entries(BYTE_ROUTES).map(([k, v]) => [k, v.fetch] as [string, Fetcher]), ...Object.entries(OTHER_BYTE_ROUTES), ...Object.entries(OTHER_ROUTES)];
    for (const [key, fetcher] of all) {
      for (const name of [...Object.keys(SCRIPT_CAPABLE), 'notes.txt', 'pic.png']) {
        const res = await fetcher(ctx, `/uc/${name}`);
        const what = `${key} for ${name}`;
        assert.ok(res.status === 200 || res.status === 206, `${what}: ${res.status} ${res.text.slice(0, 200)}`);
        assertUserContentHeaders(res, what);
        assert.doesNotMatch(res.headers.get('content-type') ?? '', SCRIPT_TYPES, `${what}: Content-Type ${res.headers.get('content-type')}`);
      }
    }
  });

  it('a script-capable upload is application/octet-stream and an attachment on every route that serves its own bytes, inline asked or not', async () => {
    const own: [string, Fetcher][] = [...Object.entries(BYTE_ROUTES).filter(([, v]) => v.own).map(([k, v]) => [k, v.fetch] as [string, Fetcher]), ...Object.entries(OTHER_ROUTES)];
    for (const [key, fetcher] of own) {
      for (const name of Object.keys(SCRIPT_CAPABLE)) {
        const res = await fetcher(ctx, `/uc/${name}`);
        const what = `${key} for ${name}`;
        assert.equal(res.headers.get('content-type'), 'application/octet-stream', what);
        assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/, what);
      }
      // Inert types keep their type, so previews still work.
      const text = await fetcher(ctx, '/uc/notes.txt');
      assert.match(text.headers.get('content-type') ?? '', /^text\/plain/, `${key} for notes.txt`);
      assert.equal((await fetcher(ctx, '/uc/pic.png')).headers.get('content-type'), 'image/png', `${key} for pic.png`);
    }
  });

  it('OCS answers, which show names people chose, are never run: nosniff and a CSP that allows nothing', async () => {
    for (const url of ['/ocs/v2.php/cloud/user', '/ocs/v1.php/cloud/user?format=json', '/ocs/v2.php/apps/files_sharing/api/v1/shares', '/ocs/v2.php/no/such/route']) {
      const res = await ctx.api.raw('GET', url, { token: ctx.token, headers: { 'OCS-APIRequest': 'true' } });
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', url);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/, url);
      assert.doesNotMatch(res.headers.get('content-type') ?? '', /html|javascript/i, url);
    }
  });

  it('the audit export as JSON lines is an attachment with nosniff and a sandbox CSP', async () => {
    const res = await ctx.api.raw('GET', '/api/v4/admin/audit/export?format=jsonl', { token: ctx.token });
    assert.equal(res.status, 200, res.text);
    assertUserContentHeaders(res, 'audit export (jsonl)');
    assert.match(res.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/);
  });

  it('the file metadata still names its real type (only the served type changes)', async () => {
    const info = await ctx.api.get<{ mime_type: string }>('/api/v4/file/info?path=/uc/evil.js', { token: ctx.token });
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.data.mime_type, 'text/javascript');
  });
});
