// Several selected items as one ZIP: POST /file/archive (streamed to a token
// holder) and POST /file/archive/url (a signed GET link for browsers). The
// archives are unpacked with the system's unzip, an independent reader, and
// every file compared byte for byte with what was uploaded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api } from '../helpers/client.js';
import { adminToken, newUser, put, type Person } from './helpers.js';

/** Unpacks a zip with /usr/bin/unzip and returns every file (relative path → bytes) and every directory. */
function unzip(zip: Buffer): { files: Map<string, Buffer>; dirs: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-unzip-'));
  try {
    const file = path.join(dir, 'a.zip');
    writeFileSync(file, zip);
    const out = path.join(dir, 'out');
    execFileSync('unzip', ['-q', file, '-d', out]);
    const files = new Map<string, Buffer>();
    const dirs: string[] = [];
    const walk = (rel: string) => {
      for (const name of readdirSync(path.join(out, rel))) {
        const r = rel ? `${rel}/${name}` : name;
        if (statSync(path.join(out, r)).isDirectory()) {
          dirs.push(r);
          walk(r);
        } else files.set(r, readFileSync(path.join(out, r)));
      }
    };
    walk('');
    return { files, dirs: dirs.sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('several items as one ZIP', () => {
  let server: InjectedServer;
  let api: Api;
  let alice: Person;
  let bob: Person;
  const bin = randomBytes(200_000);

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const admin = await adminToken(api);
    alice = await newUser(api, admin);
    bob = await newUser(api, admin);
    await put(api, alice.token, '/docs/report.txt', 'the report');
    await put(api, alice.token, '/docs/data.bin', bin);
    await put(api, alice.token, '/docs/photos/日本 1.txt', 'nihon');
    await put(api, alice.token, '/docs/photos/deep/empty', '');
    await api.post('/api/v4/file/create', { path: '/docs/photos/nothing-here', type: 'folder' }, { token: alice.token });
    await put(api, alice.token, '/other/report.txt', 'another report');
    // A folder cannot hold both (issue 23): the case clash comes from a third folder.
    await put(api, alice.token, '/third/REPORT.TXT', 'shouting');
    await put(api, bob.token, '/secret.txt', 'bob only');
  });
  after(() => server.close());

  const post = (token: string, body: unknown) =>
    server.fetch(`/api/v4/file/archive`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sign = (token: string, body: unknown) => api.post<{ url: string; expires_at: string }>('/api/v4/file/archive/url', body, { token });

  it('POST streams files and folders (with their subtrees) at the top of one archive, bytes intact', async () => {
    const res = await post(alice.token, { paths: ['/docs/report.txt', '/docs/data.bin', '/docs/photos'], name: 'docs' });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition')!, /filename="docs\.zip"/);
    const zip = Buffer.from(await res.arrayBuffer());
    assert.equal(res.headers.get('content-length'), String(zip.length));
    const { files, dirs } = unzip(zip);
    assert.deepEqual([...files.keys()].sort(), ['data.bin', 'photos/deep/empty', 'photos/日本 1.txt', 'report.txt']);
    assert.ok(files.get('data.bin')!.equals(bin));
    assert.equal(files.get('report.txt')!.toString(), 'the report');
    assert.equal(files.get('photos/日本 1.txt')!.toString(), 'nihon');
    assert.equal(files.get('photos/deep/empty')!.length, 0);
    assert.deepEqual(dirs, ['photos', 'photos/deep', 'photos/nothing-here']);
  });

  it('names that collide (also only by case) get " (2)", " (3)" before the extension', async () => {
    const res = await post(alice.token, { paths: ['/docs/report.txt', '/other/report.txt', '/third/REPORT.TXT'] });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition')!, /filename="files\.zip"/);
    const { files } = unzip(Buffer.from(await res.arrayBuffer()));
    assert.deepEqual(
      [...files.entries()].map(([k, v]) => [k, v.toString()]).sort(),
      [['REPORT (3).TXT', 'shouting'], ['report (2).txt', 'another report'], ['report.txt', 'the report']],
    );
  });

  it('a signed URL downloads the same archive without a token, honours Range, and fails once tampered with', async () => {
    const signed = await sign(alice.token, { paths: ['/docs/report.txt', '/docs/photos'], name: 'pick' });
    assert.equal(signed.status, 200, signed.text);
    const url = signed.body.data.url;
    assert.match(url, /\/api\/v4\/file\/archive\/signed\/pick\.zip\?/);
    const res = await server.fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition')!, /filename="pick\.zip"/);
    const zip = Buffer.from(await res.arrayBuffer());
    const { files } = unzip(zip);
    assert.deepEqual([...files.keys()].sort(), ['photos/deep/empty', 'photos/日本 1.txt', 'report.txt']);
    const direct = Buffer.from(await (await post(alice.token, { paths: ['/docs/report.txt', '/docs/photos'] })).arrayBuffer());
    assert.ok(direct.equals(zip), 'the signed link and POST give the same bytes');

    const part = await server.fetch(url, { headers: { range: 'bytes=10-' } });
    assert.equal(part.status, 206);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(zip.subarray(10)));

    // Another id added to the list, or the owner swapped: the signature no longer matches.
    const bobFile = (await api.get<{ id: string }>('/api/v4/file/info?path=%2Fsecret.txt', { token: bob.token })).body.data;
    const widened = new URL(url);
    widened.searchParams.set('ids', `${widened.searchParams.get('ids')},${bobFile.id}`);
    assert.equal((await server.fetch(widened)).status, 403);
    const other = new URL(url);
    other.searchParams.set('owner', bob.id);
    assert.equal((await server.fetch(other)).status, 403);
    const expired = new URL(url);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 5));
    assert.equal((await server.fetch(expired)).status, 403);
  });

  it('an item trashed after signing makes the link 404', async () => {
    await put(api, alice.token, '/tmp/soon-gone.txt', 'x');
    const { url } = (await sign(alice.token, { paths: ['/tmp/soon-gone.txt', '/docs/report.txt'] })).body.data;
    assert.equal((await server.fetch(url, { method: 'HEAD' })).status, 200);
    await api.delete('/api/v4/file', { paths: ['/tmp/soon-gone.txt'] }, { token: alice.token });
    assert.equal((await server.fetch(url)).status, 404);
  });

  it("needs a token with Files.Read, finds only the caller's items, and names a missing path", async () => {
    const anon = await server.fetch(`/api/v4/file/archive`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['/docs'] }) });
    assert.equal(anon.status, 401);
    assert.equal((await sign('', { paths: ['/docs'] })).status, 401);
    // Bob asking for Alice's path gets his own tree, where it does not exist.
    const res = await post(bob.token, { paths: ['/secret.txt', '/docs/report.txt'] });
    assert.equal(res.status, 404);
    assert.match(((await res.json()) as { msg: string }).msg, /not found/i);
    assert.equal((await post(alice.token, { paths: [] })).status, 400);
    assert.equal((await post(alice.token, { paths: ['/docs'], name: 'a/b' })).status, 400);
    assert.equal((await sign(alice.token, { paths: Array.from({ length: 401 }, (_, i) => `/n${i}`) })).status, 400);
  });
});
