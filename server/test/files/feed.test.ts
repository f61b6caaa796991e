// The change feed (api-contract §13, issue 21): every origin of a change
// records the right event; the SSE stream replays exactly what followed
// Last-Event-ID (WHATWG HTML §9.2 "Server-sent events": id, Last-Event-ID,
// event, retry); a cursor past the 7 days kept gets `reset`; a stream ends
// when its token is revoked or expires.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { adminToken, put } from './helpers.js';
import { openEvents } from './sse.js';

interface Ev {
  id: string;
  type: string;
  path: string;
  old_path?: string;
  file_id: string;
  is_dir: boolean;
  size?: number;
  at: string;
}
interface Page {
  events: Ev[];
  cursor: string;
  has_more: boolean;
  reset: boolean;
}

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('change feed', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let api: Api;
  let admin: string;
  let token: string;
  let n = 0;

  before(async () => {
    server = await startServer({}, { clock });
    api = new Api(server.url);
    admin = await adminToken(api);
    const made = await createUser(api, admin, `feed-${process.pid}@example.com`);
    token = made.token.access_token;
  });
  after(() => server.close());

  const changes = async (cursor?: string, t = token, limit?: number) => {
    const qs = [cursor !== undefined ? `cursor=${cursor}` : '', limit ? `limit=${limit}` : ''].filter(Boolean).join('&');
    const res = await api.get<Page>(`/api/v4/file/changes${qs ? `?${qs}` : ''}`, { token: t });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  /** Runs `op` and answers the events it recorded, as [type, path, old_path?] and the raw events. */
  const eventsOf = async (op: () => Promise<unknown>) => {
    const start = (await changes()).cursor;
    await op();
    const page = await changes(start);
    assert.equal(page.has_more, false);
    return { brief: page.events.map((e) => [e.type, e.path, ...(e.old_path ? [e.old_path] : [])]), events: page.events };
  };
  const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}/dav${path}`, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body });
  const ok = (res: { status: number; text?: unknown }) => assert.ok(res.status < 300, `${res.status} ${typeof res.text === 'string' ? res.text : ''}`);

  it('without a cursor, /changes answers the current cursor and no events (start from now)', async () => {
    const first = await changes();
    assert.deepEqual(first.events, []);
    assert.equal(first.has_more, false);
    await put(api, token, '/start.txt', 'x');
    const next = await changes();
    assert.notEqual(next.cursor, first.cursor);
    assert.deepEqual((await changes(first.cursor)).events.map((e) => [e.type, e.path]), [['created', '/start.txt']]);
  });

  it('the API: create (with parents), upload, overwrite, rename, move, copy, delete, restore, delete for good', async () => {
    let r = await eventsOf(async () => ok(await api.post('/api/v4/file/create', { path: '/a/b/new.txt', type: 'file' }, { token })));
    assert.deepEqual(r.brief, [['created', '/a'], ['created', '/a/b'], ['created', '/a/b/new.txt']]);
    assert.deepEqual(r.events.map((e) => e.is_dir), [true, true, false]);
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/create', { path: '/a/folder', type: 'folder' }, { token })));
    assert.deepEqual(r.brief, [['created', '/a/folder']]);
    r = await eventsOf(async () => ok(await put(api, token, '/a/up.txt', 'hello')));
    assert.deepEqual(r.brief, [['created', '/a/up.txt']]);
    assert.equal(r.events[0]!.size, 5);
    const id = r.events[0]!.file_id;
    r = await eventsOf(async () => ok(await put(api, token, '/a/up.txt', 'hello world')));
    assert.deepEqual(r.brief, [['modified', '/a/up.txt']]);
    assert.equal(r.events[0]!.size, 11);
    assert.equal(r.events[0]!.file_id, id);
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/rename', { path: '/a/up.txt', new_name: 'renamed.txt' }, { token })));
    assert.deepEqual(r.brief, [['moved', '/a/renamed.txt', '/a/up.txt']]);
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/move', { paths: ['/a/renamed.txt', '/a/b'], dst: '/a/folder' }, { token })));
    assert.deepEqual(r.brief, [['moved', '/a/folder/renamed.txt', '/a/renamed.txt'], ['moved', '/a/folder/b', '/a/b']]);
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/move', { paths: ['/a/folder'], dst: '/', copy: true }, { token })));
    // A copied folder is one event for its root: a follower lists it.
    assert.deepEqual(r.brief, [['created', '/folder']]);
    assert.equal(r.events[0]!.is_dir, true);
    r = await eventsOf(async () => ok(await api.delete('/api/v4/file', { paths: ['/folder'] }, { token })));
    assert.deepEqual(r.brief, [['deleted', '/folder']]);
    const trash = await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token });
    const trashed = trash.body.data.files.find((f) => f.original_path === '/folder')!.id;
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/trash/restore', { ids: [trashed] }, { token })));
    assert.deepEqual(r.brief, [['restored', '/folder']]);
    // Restoring over an item of the same name with `replace`: the one in the way goes to the trash first.
    await api.delete('/api/v4/file', { paths: ['/folder'] }, { token });
    await api.post('/api/v4/file/create', { path: '/folder', type: 'folder' }, { token });
    const again = (await api.get<{ files: { id: string; original_path: string }[] }>('/api/v4/file/trash', { token })).body.data.files.find((f) => f.original_path === '/folder')!.id;
    r = await eventsOf(async () => ok(await api.post('/api/v4/file/trash/restore', { ids: [again], on_conflict: 'replace' }, { token })));
    assert.deepEqual(r.brief, [['deleted', '/folder'], ['restored', '/folder']]);
    r = await eventsOf(async () => ok(await api.delete('/api/v4/file', { paths: ['/folder'], permanent: true }, { token })));
    assert.deepEqual(r.brief, [['deleted', '/folder']]);
    // Emptying the trash changes nothing in the tree: no event.
    r = await eventsOf(async () => ok(await api.delete('/api/v4/file/trash', undefined, { token })));
    assert.deepEqual(r.brief, []);
  });

  it('tus: a finished upload is one event; the unfinished one none', async () => {
    const r = await eventsOf(async () => {
      const created = await fetch(`${server.url}/api/v4/file/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...TUS, 'upload-length': '6', 'upload-metadata': `filename ${b64('t.bin')},folder ${b64('/tus')}` },
      });
      assert.equal(created.status, 201);
      const location = new URL(created.headers.get('location')!, server.url).toString();
      const patch = (offset: number, body: string) =>
        fetch(location, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body });
      assert.equal((await patch(0, 'abc')).status, 204);
      assert.deepEqual((await changes((await changes()).cursor)).events, []);
      assert.equal((await patch(3, 'def')).status, 204);
    });
    assert.deepEqual(r.brief, [['created', '/tus'], ['created', '/tus/t.bin']]);
    assert.equal(r.events[1]!.size, 6);
  });

  it('WebDAV (RFC 4918): PUT, MKCOL, MOVE, COPY with Overwrite, DELETE, LOCK of an unmapped URL', async () => {
    let r = await eventsOf(async () => ok(await dav('MKCOL', '/dav-dir')));
    assert.deepEqual(r.brief, [['created', '/dav-dir']]);
    r = await eventsOf(async () => ok(await dav('PUT', '/dav-dir/x.txt', {}, 'one')));
    assert.deepEqual(r.brief, [['created', '/dav-dir/x.txt']]);
    r = await eventsOf(async () => ok(await dav('PUT', '/dav-dir/x.txt', {}, 'two!')));
    assert.deepEqual(r.brief, [['modified', '/dav-dir/x.txt']]);
    // The editors' save: write a temporary file, then MOVE it over the document.
    await dav('PUT', '/dav-dir/~tmp', {}, 'three');
    r = await eventsOf(async () => ok(await dav('MOVE', '/dav-dir/~tmp', { destination: `${server.url}/dav/dav-dir/x.txt`, overwrite: 'T' })));
    assert.deepEqual(r.brief, [['deleted', '/dav-dir/x.txt'], ['moved', '/dav-dir/x.txt', '/dav-dir/~tmp']]);
    r = await eventsOf(async () => ok(await dav('COPY', '/dav-dir', { destination: `${server.url}/dav/dav-copy`, depth: 'infinity' })));
    assert.deepEqual(r.brief, [['created', '/dav-copy']]);
    r = await eventsOf(async () => ok(await dav('COPY', '/dav-dir/x.txt', { destination: `${server.url}/dav/dav-copy/x.txt`, overwrite: 'T' })));
    assert.deepEqual(r.brief, [['deleted', '/dav-copy/x.txt'], ['created', '/dav-copy/x.txt']]);
    r = await eventsOf(async () => ok(await dav('DELETE', '/dav-copy')));
    assert.deepEqual(r.brief, [['deleted', '/dav-copy']]);
    const lock = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    r = await eventsOf(async () => ok(await dav('LOCK', '/dav-dir/locked.txt', { 'content-type': 'application/xml', timeout: 'Second-60' }, lock)));
    assert.deepEqual(r.brief, [['created', '/dav-dir/locked.txt']]);
  });

  it('a failed change records nothing (the event is written in its transaction)', async () => {
    const r = await eventsOf(async () => {
      assert.equal((await api.post('/api/v4/file/create', { path: '/a/b2', type: 'folder' }, { token })).status, 200);
      assert.equal((await api.post('/api/v4/file/create', { path: '/a/B2', type: 'folder' }, { token })).status, 409);
      assert.equal((await api.post('/api/v4/file/rename', { path: '/a/b2', new_name: 'folder' }, { token })).status, 409);
    });
    assert.deepEqual(r.brief, [['created', '/a/b2']]);
  });

  it('pages: has_more and the cursor walk every event once, in order', async () => {
    const start = (await changes()).cursor;
    for (let i = 0; i < 7; i++) await put(api, token, `/paged/${i}.txt`, String(i));
    const seen: string[] = [];
    let cursor = start;
    for (;;) {
      const page = await changes(cursor, token, 3);
      seen.push(...page.events.map((e) => e.path));
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    assert.deepEqual(seen, ['/paged', ...Array.from({ length: 7 }, (_, i) => `/paged/${i}.txt`)]);
    assert.equal((await api.get(`/api/v4/file/changes?cursor=abc`, { token })).status, 400);
  });

  it('SSE: live events, then a reconnect with Last-Event-ID replays exactly what was missed', async () => {
    const stream = openEvents(server.url, token);
    await stream.ready;
    assert.equal(stream.status, 200);
    await put(api, token, '/live/1.txt', '1');
    assert.ok(await stream.until(() => stream.changes().some((e) => e.path === '/live/1.txt'), 3000), 'the live event arrived');
    const seen = stream.changes();
    const last = seen[seen.length - 1]!.id;
    await stream.close();
    // While disconnected.
    await put(api, token, '/live/2.txt', '2');
    await api.post('/api/v4/file/rename', { path: '/live/1.txt', new_name: 'one.txt' }, { token });
    await api.delete('/api/v4/file', { paths: ['/live/2.txt'] }, { token });
    const replay = openEvents(server.url, token, last);
    assert.ok(await replay.until(() => replay.changes().length >= 3, 3000));
    await put(api, token, '/live/3.txt', '3');
    assert.ok(await replay.until(() => replay.changes().length >= 4, 3000));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(replay.changes().map((e) => [e.type, e.path]), [['created', '/live/2.txt'], ['moved', '/live/one.txt'], ['deleted', '/live/2.txt'], ['created', '/live/3.txt']]);
    const ids = replay.changes().map((e) => Number(e.id));
    assert.deepEqual(ids, [...ids].sort((x, y) => x - y));
    assert.equal(new Set(ids).size, ids.length);
    // The id: field of each SSE event is its cursor.
    assert.deepEqual(replay.events.filter((e) => e.event === 'message').map((e) => e.id), replay.changes().map((e) => e.id));
    await replay.close();
    // EventSource cannot set headers on its first request: ?last_event_id= does the same.
    const byQuery = openEvents(server.url, token, undefined, `?last_event_id=${last}`);
    assert.ok(await byQuery.until(() => byQuery.changes().length >= 4, 3000));
    await byQuery.close();
  });

  it('SSE needs a token; a malformed Last-Event-ID is 400', async () => {
    assert.equal((await fetch(`${server.url}/api/v4/file/events`)).status, 401);
    const bad = openEvents(server.url, token, 'not-a-cursor');
    await bad.ended;
    assert.equal(bad.status, 400);
  });

  it('a cursor older than the 7 days kept gets `reset` (SSE event and page flag)', async () => {
    const old = (await changes()).cursor;
    await put(api, token, '/old.txt', 'old');
    clock.advance(8 * 24 * 3600_000);
    // Tokens expired meanwhile: sign in again.
    token = (await signIn(api, `feed-${process.pid}@example.com`, 'user-password-123')).token.access_token;
    admin = await adminToken(api);
    await put(api, token, '/recent.txt', 'recent');
    await server.built.services.jobs.run('file_events_prune');
    const page = await changes(old);
    assert.equal(page.reset, true);
    assert.deepEqual(page.events, []);
    const head = (await changes()).cursor;
    assert.equal(page.cursor, head);
    // A cursor still inside the window replays: the recent event is kept.
    assert.deepEqual((await changes(String(Number(head) - 1))).events.map((e) => e.path), ['/recent.txt']);
    const stream = openEvents(server.url, token, old);
    assert.ok(await stream.until(() => stream.events.some((e) => e.event === 'reset'), 3000));
    const reset = stream.events.find((e) => e.event === 'reset')!;
    assert.equal(reset.id, head);
    assert.deepEqual(stream.changes(), []);
    await stream.close();
  });

  it('the stream ends when its token expires (event end), and when it is revoked by a sign-out', async () => {
    n++;
    const made = await createUser(api, admin, `feed-end-${process.pid}-${n}@example.com`);
    const stream = openEvents(server.url, made.token.access_token);
    await stream.ready;
    clock.advance(2 * 3600_000);
    await stream.ended;
    assert.deepEqual(stream.events.at(-1), { id: undefined, event: 'end', data: JSON.stringify({ reason: 'token_expired' }) });
    clock.advance(-2 * 3600_000);

    const other = await createUser(api, admin, `feed-rev-${process.pid}-${n}@example.com`);
    const live = openEvents(server.url, other.token.access_token);
    await live.ready;
    const started = Date.now();
    const out = await api.call('DELETE', '/api/v4/session/token', { json: { refresh_token: other.token.refresh_token } });
    assert.equal(out.status, 200, out.text);
    await live.ended;
    assert.ok(Date.now() - started < 3000, 'ended within the revocation check');
    assert.equal(live.events.at(-1)!.event, 'end');
  });

  it('another user sees none of these events', async () => {
    const bob = await createUser(api, admin, `feed-bob-${process.pid}@example.com`);
    const start = (await changes(undefined, bob.token.access_token)).cursor;
    await put(api, token, '/not-bobs.txt', 'x');
    assert.deepEqual((await changes(start, bob.token.access_token)).events, []);
    // Every stream of this file has been closed by now: the instance holds none (no leak per connection).
    const hub = server.built.services.feed.hub;
    for (let i = 0; i < 50 && hub.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(hub.size, 0);
  });
});
