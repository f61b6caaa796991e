// Upload requests (issue 22, api-contract §13): a share with upload_only on a
// folder receives files from people without an account, resumably (tus 1.0),
// never shows what the folder holds, never overwrites, and enforces its limits,
// the owner's quota, its expiry, its password and the owner's ban on every
// request. Through the real HTTP transport: a broken connection is part of it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ManualClock } from '../../src/core/clock.js';
import { startServer, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { download, rawRequest } from '../files/helpers.js';
import { operations, concretePath } from '../security/openapi-walk.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const meta = (filename: string, uploader?: string) => [`filename ${b64(filename)}`, ...(uploader !== undefined ? [`uploader ${b64(uploader)}`] : [])].join(',');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Person { id: string; token: string; email: string }
interface ShareView { id: string; type: string; upload_only: boolean; max_file_size: number | null; max_files: number | null; uploads: number; status: string }
interface Received { id: string; name: string; size: number; uploader: string | null; uploaded_at: string }

/** The folder's existing contents: no public answer may ever carry one of these names. */
const SECRETS = ['secret-plans-7f3a.txt', 'hidden-subfolder-9c2e', 'nested-file-5b1d.txt'];

describe('upload requests: files from people without an account', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let api: Api;
  let admin: string;
  let alice: Person;
  let n = 0;

  before(async () => {
    server = await startServer({}, { clock });
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    alice = await person('Alice');
  });
  after(() => server.close());

  async function person(nickname: string): Promise<Person> {
    n++;
    const email = `uploadreq-${process.pid}-${n}@example.com`;
    const { user, token } = await createUser(api, admin, email);
    await api.patch('/api/v4/user/setting', { nickname }, { token: token.access_token });
    return { id: user.id, token: token.access_token, email };
  }

  async function put(who: Person, path: string, body: string | Buffer): Promise<void> {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { token: who.token, body, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text);
  }

  async function mkdir(who: Person, path: string): Promise<void> {
    const res = await api.raw('POST', '/api/v4/file/create', { token: who.token, json: { path, type: 'folder' } });
    assert.equal(res.status, 200, res.text);
  }

  async function request(who: Person, body: Record<string, unknown>): Promise<ShareView> {
    const res = await api.put<ShareView>('/api/v4/share', { upload_only: true, ...body }, { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  /** A folder with secrets in it, and an upload request on it. */
  async function inbox(who: Person, settings: Record<string, unknown> = {}): Promise<{ share: ShareView; folder: string }> {
    n++;
    const folder = `/inbox-${n}`;
    await put(who, `${folder}/${SECRETS[0]}`, 'top secret');
    await put(who, `${folder}/${SECRETS[1]}/${SECRETS[2]}`, 'nested secret');
    return { share: await request(who, { path: folder, ...settings }), folder };
  }

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) =>
    fetch(server.url + path, { method, headers, body: body as BodyInit | undefined });
  const create = (id: string, length: number, metadata: string, headers: Record<string, string> = {}) =>
    call('POST', `/api/v4/share/upload/${id}`, { ...TUS, 'upload-length': String(length), 'upload-metadata': metadata, ...headers });
  const patch = (location: string, offset: number, body: Buffer, headers: Record<string, string> = {}) =>
    call('PATCH', location, { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers }, body);
  const reason = async (res: Response) => ((await res.json()) as { data: { reason?: string } | null }).data?.reason;

  /** Sends a whole file through the link; its Location. */
  async function send(id: string, name: string, data: Buffer, uploader?: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await create(id, data.length, meta(name, uploader), headers);
    assert.equal(res.status, 201, await res.text());
    const location = res.headers.get('location')!;
    if (data.length > 0) {
      const done = await patch(location, 0, data, headers);
      assert.equal(done.status, 204, await done.text());
    }
    return location;
  }

  async function received(who: Person, id: string): Promise<Received[]> {
    const res = await api.get<{ uploads: Received[] }>(`/api/v4/share/${id}/uploads`, { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.uploads;
  }

  async function names(who: Person, folder: string): Promise<string[]> {
    const res = await api.get<{ files: { name: string }[] }>(`/api/v4/file?path=${encodeURIComponent(folder)}`, { token: who.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.files.map((f) => f.name).sort();
  }

  it('only a folder can be an upload request; the limits belong to upload requests; the owner sees the settings', async () => {
    await put(alice, '/lonely.txt', 'x');
    const onFile = await api.put('/api/v4/share', { path: '/lonely.txt', upload_only: true }, { token: alice.token });
    assert.equal(onFile.status, 400);
    assert.match(onFile.text, /only a folder can receive uploads/);
    await mkdir(alice, '/plain');
    const stray = await api.put('/api/v4/share', { path: '/plain', max_files: 3 }, { token: alice.token });
    assert.equal(stray.status, 400, 'max_files without upload_only');
    const withDownloads = await api.put('/api/v4/share', { path: '/plain', upload_only: true, download_limit: 3 }, { token: alice.token });
    assert.equal(withDownloads.status, 400, 'an upload request serves no downloads');
    const s = await request(alice, { path: '/plain', max_file_size: 1000, max_files: 5 });
    assert.deepEqual([s.type, s.upload_only, s.max_file_size, s.max_files, s.uploads], ['folder', true, 1000, 5, 0]);
    const listed = await api.get<{ shares: ShareView[] }>('/api/v4/share?path=/plain', { token: alice.token });
    assert.equal(listed.body.data.shares[0]!.max_files, 5);
    const changed = await api.patch<ShareView>(`/api/v4/share/${s.id}`, { max_files: null, max_file_size: 2000 }, { token: alice.token });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.data.max_files, changed.body.data.max_file_size], [null, 2000]);
  });

  it('a resumable 50 MiB upload from a client with no account survives a broken connection; the owner sees it with its uploader', async () => {
    const { share, folder } = await inbox(alice);
    const data = Buffer.alloc(50 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4096) data.writeUInt32BE(i, i);
    const res = await create(share.id, data.length, meta('big video.mp4', 'Bob from Accounting'));
    assert.equal(res.status, 201, await res.text());
    assert.equal(res.headers.get('tus-resumable'), '1.0.0');
    const location = res.headers.get('location')!;
    assert.match(location, new RegExp(`^/api/v4/share/upload/${share.id}/[A-Za-z0-9]+$`));
    // The connection breaks after 8 MiB (tus 1.0 §Core: the server keeps what it received).
    const cut = await rawRequest(
      server,
      { method: 'PATCH', path: location, headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length) } },
      (req) => {
        req.write(data.subarray(0, 8 * 1024 * 1024));
        setTimeout(() => req.destroy(), 400);
      },
    );
    assert.equal(cut.status, null);
    // Resume as a client does: ask for the offset, send the rest; while the
    // server still finishes the broken request, the offset moves (409) or the
    // upload is locked (423): ask again.
    let rest: Response | null = null;
    let offset = 0;
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const head = await call('HEAD', location, TUS);
      assert.equal(head.status, 200);
      offset = Number(head.headers.get('upload-offset'));
      assert.ok(offset <= 8 * 1024 * 1024, `durable offset ${offset}`);
      assert.ok(!(await names(alice, folder)).includes('big video.mp4'), 'no file before the last byte');
      rest = await patch(location, offset, data.subarray(offset));
      if (rest.status === 204) break;
      assert.ok([409, 423].includes(rest.status), `${rest.status} ${await rest.text()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(offset > 0, 'the bytes before the break were kept');
    assert.equal(rest?.status, 204);
    assert.equal(rest.headers.get('upload-offset'), String(data.length));
    const stored = await download(api, alice.token, `${folder}/big video.mp4`);
    assert.equal(stored.status, 200);
    assert.equal(sha(stored.body), sha(data));
    const list = await received(alice, share.id);
    assert.equal(list.length, 1);
    assert.deepEqual([list[0]!.name, list[0]!.size, list[0]!.uploader], ['big video.mp4', data.length, 'Bob from Accounting']);
    assert.ok(Number.isFinite(Date.parse(list[0]!.uploaded_at)));
    assert.equal((await api.get<ShareView>(`/api/v4/share/${share.id}`, { token: alice.token })).body.data.uploads, 1);
  });

  it('never overwrites: a clash gets the next free name, chosen when the file is placed; the originals are untouched', async () => {
    const { share, folder } = await inbox(alice);
    await put(alice, `${folder}/report.pdf`, 'ORIGINAL');
    // Two uploads of the same name in flight at once: each gets its own name at completion.
    const a = await create(share.id, 5, meta('report.pdf', 'A'));
    const b = await create(share.id, 5, meta('Report.pdf', 'B'));
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal((await patch(b.headers.get('location')!, 0, Buffer.from('BBBBB'))).status, 204);
    assert.equal((await patch(a.headers.get('location')!, 0, Buffer.from('AAAAA'))).status, 204);
    await send(share.id, SECRETS[0]!, Buffer.from('not the secret'));
    const list = await names(alice, folder);
    for (const name of ['report.pdf', 'Report (1).pdf', 'report (2).pdf', SECRETS[0]!, 'secret-plans-7f3a (1).txt']) assert.ok(list.includes(name), `${name} in ${list.join(', ')}`);
    assert.equal((await download(api, alice.token, `${folder}/report.pdf`)).body.toString(), 'ORIGINAL');
    assert.equal((await download(api, alice.token, `${folder}/${SECRETS[0]}`)).body.toString(), 'top secret');
    assert.equal((await download(api, alice.token, `${folder}/Report (1).pdf`)).body.toString(), 'BBBBB');
    const got = await received(alice, share.id);
    assert.deepEqual(got.map((r) => r.name).sort(), ['Report (1).pdf', 'report (2).pdf', 'secret-plans-7f3a (1).txt'].sort());
  });

  it('names are validated like other uploads: no separators, no names Windows cannot store, only the folder itself', async () => {
    const { share, folder } = await inbox(alice);
    for (const bad of ['../escape.txt', 'a/b.txt', 'con.txt', 'what?.txt', 'trailing.', '']) {
      const res = await create(share.id, 1, meta(bad));
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.status}`);
    }
    const missing = await create(share.id, 1, `path ${b64('/elsewhere/x.txt')}`);
    assert.equal(missing.status, 400, 'a path instead of a filename is refused');
    const control = await create(share.id, 1, meta('fine.txt', 'evil\u0007name'));
    assert.equal(control.status, 400);
    assert.deepEqual(await names(alice, folder), [SECRETS[0], SECRETS[1]].sort());
  });

  it('max_file_size: refused at creation from Upload-Length (413), and no byte past Upload-Length is taken', async () => {
    const { share, folder } = await inbox(alice, { max_file_size: 1000 });
    const big = await create(share.id, 1001, meta('big.bin'));
    assert.equal(big.status, 413);
    assert.equal(await reason(big), 'file_too_large');
    const res = await create(share.id, 1000, meta('exact.bin'));
    assert.equal(res.status, 201);
    const over = await patch(res.headers.get('location')!, 0, Buffer.alloc(1500, 1));
    assert.equal(over.status, 400, 'a body past Upload-Length');
    assert.ok(!(await names(alice, folder)).includes('exact.bin'));
    assert.equal((await patch(res.headers.get('location')!, 0, Buffer.alloc(1000, 1))).status, 204);
    assert.ok((await names(alice, folder)).includes('exact.bin'));
  });

  it('max_files counts files sent through the link, in flight too: the (max_files+1)th is refused, also when sent in parallel; a cancelled upload frees its slot', async () => {
    const { share } = await inbox(alice, { max_files: 2 });
    await send(share.id, 'one.txt', Buffer.from('1'));
    await send(share.id, 'two.txt', Buffer.from('2'));
    const third = await create(share.id, 1, meta('three.txt'));
    assert.equal(third.status, 403);
    assert.equal(await reason(third), 'limit_reached');
    const info = await api.get<{ accepting: boolean }>(`/api/v4/share/info/${share.id}`);
    assert.equal(info.body.data.accepting, false);

    const parallel = (await inbox(alice, { max_files: 3 })).share;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(parallel.id, 4, meta(`p${i}.txt`))));
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 3, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 403).length, 7, statuses.join(','));
    // Terminating one in flight (tus §Termination) frees its slot for someone else.
    const first = answers.find((r) => r.status === 201)!.headers.get('location')!;
    assert.equal((await call('DELETE', first, TUS)).status, 204);
    assert.equal((await call('HEAD', first, TUS)).status, 404);
    const again = await create(parallel.id, 4, meta('late.txt'));
    assert.equal(again.status, 201, await again.text());
    assert.equal((await create(parallel.id, 4, meta('later.txt'))).status, 403);
  });

  it('an upload counts toward the owner\'s quota, not anyone else\'s: over quota is 413 at creation', async () => {
    const carol = await person('Carol');
    const { share } = await inbox(carol);
    assert.equal((await api.put(`/api/v4/admin/user/${carol.id}`, { storage_quota: 2000 }, { token: admin })).status, 200);
    const res = await create(share.id, 5000, meta('huge.bin'));
    assert.equal(res.status, 413);
    const fits = await create(share.id, 1000, meta('fits.bin'));
    assert.equal(fits.status, 201);
    // The reservation holds: a second one that would pass the quota is refused while the first is in flight.
    assert.equal((await create(share.id, 1000, meta('second.bin'))).status, 413);
    assert.equal((await patch(fits.headers.get('location')!, 0, Buffer.alloc(1000, 7))).status, 204);
    const cap = await api.get<{ used: number }>('/api/v4/user/capacity', { token: carol.token });
    assert.ok(cap.body.data.used >= 1000, JSON.stringify(cap.body.data));
  });

  it('expiry: a new upload is refused, and an upload under way refuses its next PATCH once the link expired', async () => {
    const { share, folder } = await inbox(alice, { expires_in: 60 });
    const res = await create(share.id, 10, meta('late.txt'));
    assert.equal(res.status, 201);
    const location = res.headers.get('location')!;
    assert.equal((await patch(location, 0, Buffer.from('12345'))).status, 204);
    clock.advance(61_000);
    const next = await patch(location, 5, Buffer.from('67890'));
    assert.equal(next.status, 404);
    assert.equal(await reason(next), 'expired');
    assert.equal((await call('HEAD', location, TUS)).status, 404);
    const fresh = await create(share.id, 1, meta('new.txt'));
    assert.equal(fresh.status, 404);
    assert.equal(await reason(fresh), 'expired');
    assert.ok(!(await names(alice, folder)).includes('late.txt'));
  });

  it('a password: every upload request needs the unlock token; wrong passwords go through the throttle', async () => {
    const { share } = await inbox(alice, { password: 'drop-it-here' });
    const info = await api.get<{ has_password: boolean; unlocked: boolean; name: string | null }>(`/api/v4/share/info/${share.id}`);
    assert.deepEqual([info.body.data.has_password, info.body.data.unlocked, info.body.data.name], [true, false, null]);
    assert.equal((await create(share.id, 1, meta('x.txt'))).status, 403);
    assert.equal((await create(share.id, 1, meta('x.txt'), { 'x-share-token': '9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status, 403);
    const good = await api.post<{ token: string }>(`/api/v4/share/unlock/${share.id}`, { password: 'drop-it-here' });
    assert.equal(good.status, 200);
    const token = good.body.data.token;
    const location = await send(share.id, 'with-token.txt', Buffer.from('ok'), undefined, { 'x-share-token': token });
    assert.ok(location);
    let throttled = false;
    for (let i = 0; i < 12 && !throttled; i++) {
      const wrong = await api.post(`/api/v4/share/unlock/${share.id}`, { password: `guess-${i}` });
      if (wrong.status === 429) throttled = true;
      else assert.equal(wrong.status, 403);
    }
    assert.ok(throttled, 'guessing is throttled (429 after a few wrong passwords)');
  });

  it('never reveals the folder: the page data withholds its name, and every public route of the document names none of its contents', async () => {
    const { share } = await inbox(alice, { max_files: 10 });
    const info = await api.get<Record<string, unknown>>(`/api/v4/share/info/${share.id}`);
    assert.equal(info.status, 200);
    assert.equal(info.body.data.upload_only, true);
    assert.equal(info.body.data.name, null);
    assert.equal(info.body.data.size, null);
    assert.equal(info.body.data.accepting, true);
    // The listing, the download and the zip are refused.
    assert.equal((await api.raw('GET', `/api/v4/share/list/${share.id}`)).status, 403);
    assert.equal((await api.raw('GET', `/api/v4/share/list/${share.id}?path=/${SECRETS[0]}`)).status, 403);
    for (const url of [`/s/${share.id}`, `/s/${share.id}?download=1`, `/s/${share.id}?path=/${SECRETS[0]}`, `/s/${share.id}?path=/${SECRETS[0]}&inline=1`]) {
      const res = await call('GET', url);
      assert.equal(res.status, 403, url);
      const text = await res.text();
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${url} names ${secret}`);
    }
    // Every public operation of the OpenAPI document, with this share's id wherever an id goes.
    const inboxName = (await api.get<ShareView & { name: string }>(`/api/v4/share/${share.id}`, { token: alice.token })).body.data.name;
    const ops = (await operations(api)).filter((op) => op.auth?.mode !== 'required');
    let probed = 0;
    for (const op of ops) {
      if (!op.path.includes('{id}')) continue;
      const url = concretePath(op, { id: share.id });
      const res = await call(op.method, url, { ...TUS, 'content-type': 'application/json', 'upload-length': '1', 'upload-metadata': meta('probe.txt') }, ['GET', 'HEAD', 'OPTIONS'].includes(op.method) ? undefined : '{}');
      const text = await res.text();
      for (const secret of [...SECRETS, inboxName]) assert.ok(!text.includes(secret), `${op.method} ${op.path} names ${secret}: ${text.slice(0, 200)}`);
      probed++;
    }
    assert.ok(probed >= 5, `probed ${probed} public operations`);
  });

  it('a banned owner\'s link is 404 on every upload route, and works again when unbanned', async () => {
    const dave = await person('Dave');
    const { share } = await inbox(dave);
    const res = await create(share.id, 4, meta('pending.txt'));
    const location = res.headers.get('location')!;
    assert.equal((await api.put(`/api/v4/admin/user/${dave.id}`, { status: 'banned' }, { token: admin })).status, 200);
    assert.equal((await create(share.id, 1, meta('x.txt'))).status, 404);
    assert.equal((await patch(location, 0, Buffer.from('abcd'))).status, 404);
    assert.equal((await call('HEAD', location, TUS)).status, 404);
    assert.equal((await call('DELETE', location, TUS)).status, 404);
    assert.equal((await api.get(`/api/v4/share/info/${share.id}`)).status, 404);
    assert.equal((await api.put(`/api/v4/admin/user/${dave.id}`, { status: 'active' }, { token: admin })).status, 200);
    assert.equal((await patch(location, 0, Buffer.from('abcd'))).status, 204);
  });

  it('an upload id works only through its own link; another link or the owner\'s tus endpoint for a stranger is 404', async () => {
    const one = (await inbox(alice)).share;
    const two = (await inbox(alice)).share;
    const res = await create(one.id, 3, meta('mine.txt'));
    const uploadId = res.headers.get('location')!.split('/').pop()!;
    assert.equal((await patch(`/api/v4/share/upload/${two.id}/${uploadId}`, 0, Buffer.from('abc'))).status, 404);
    const normal = await api.put<{ id: string }>('/api/v4/share', { path: '/plain' }, { token: alice.token });
    assert.equal((await create(normal.body.data.id, 1, meta('x.txt'))).status, 404, 'a share that is not an upload request takes no uploads');
    const eve = await person('Eve');
    const stranger = await fetch(`${server.url}/api/v4/file/upload/${uploadId}`, { method: 'HEAD', headers: { ...TUS, authorization: `Bearer ${eve.token}` } });
    assert.equal(stranger.status, 404);
  });
});
