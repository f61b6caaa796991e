// The administrators' audit log (api-contract §17, issue 37) through the HTTP
// API and the CLI, on SQLite or PostgreSQL (CIRRUS_TEST_DATABASE_URL): a
// scripted sequence gives exactly the expected rows in order, each chained to
// the one before by SHA-256 (checked here with our own hash, not the
// server's); filters and paging; CSV (RFC 4180) with formula cells defused;
// a row changed or deleted in the database makes verify (API and CLI) name
// it; only administrators read any of it; and with the audit table locked (or
// gone) a sign-in still answers at once and its event is written afterwards;
// administrator actions made with the CLI are rows too, naming the OS account.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { userInfo } from 'node:os';
import { sql } from 'kysely';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn, type ApiResponse, type Envelope } from '../helpers/client.js';
import { ROOT_DIR } from '../../src/paths.js';
import { holdAuditTable } from '../helpers/audit-lock.js';

const run = promisify(execFile);

interface Row {
  seq: number;
  at: string;
  actor_id?: string;
  ip: string;
  user_agent: string;
  instance: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: Record<string, unknown>;
  hash: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The chain as the contract defines it, computed here independently of the server. */
function expectedHash(previous: string, r: Row, detailText: string): string {
  const canonical = JSON.stringify([r.seq, Date.parse(r.at), r.actor_id ?? null, r.ip, r.user_agent, r.instance, r.action, r.target_type, r.target_id, detailText]);
  return createHash('sha256').update(previous).update('\n').update(canonical).digest('hex');
}

describe('audit log', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let adminId: string;

  /** The export as rows (JSON lines), oldest first. */
  const exported = async (query = ''): Promise<Row[]> => {
    const res = await api.raw('GET', `/api/v4/admin/audit/export?format=jsonl${query}`, { token: admin });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    return res.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
  };
  /** Waits until the writer has put `count` rows in the table (the queue writes after the answer). */
  const rowsAtLeast = async (count: number, timeoutMs = 10_000): Promise<Row[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await exported();
      if (rows.length >= count || Date.now() > deadline) return rows;
      await sleep(50);
    }
  };
  const cli = async (...args: string[]) => {
    const db = server.config.database;
    const env = { ...process.env, CIRRUS_DATA_DIR: server.config.dataDir, CIRRUS_LOG_LEVEL: 'silent', ...(db.kind === 'postgres' ? { CIRRUS_DATABASE_URL: db.url } : {}) };
    return run(process.execPath, [path.join(ROOT_DIR, 'dist/server/src/main.js'), ...args], { env, cwd: ROOT_DIR }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  };
  const verify = async () => {
    const res = await api.post<{ ok: boolean; checked: number; first_bad_seq?: number }>('/api/v4/admin/audit/verify', undefined, { token: admin });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const db = () => server.built.services.db;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    const signed = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    admin = signed.token.access_token;
    adminId = signed.user.id;
  });
  after(() => server.close());

  let bob: Awaited<ReturnType<typeof createUser>>;
  let carol: Awaited<ReturnType<typeof createUser>>;

  it('a scripted sequence: exactly the expected events, in order, chained by SHA-256', async () => {
    bob = await createUser(api, admin, 'bob@example.com');
    carol = await createUser(api, admin, 'carol@example.com');
    const wrong = await api.raw('POST', '/api/v4/session/token', { json: { email: 'Bob@example.com', password: 'not-his-password' }, headers: { 'user-agent': 'guesser/1.0' } });
    assert.equal(wrong.status, 401);
    const bt = bob.token.access_token;
    assert.equal((await api.raw('PUT', '/api/v4/file/content?path=/plan.txt', { token: bt, body: 'plan' })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/plan.txt' }, { token: bt });
    assert.equal(share.status, 200, share.text);
    const grant = await api.put<{ id: string }>('/api/v4/file/access', { path: '/plan.txt', user: 'carol@example.com', permission: 'read' }, { token: bt });
    assert.equal(grant.status, 200, grant.text);
    const dav = await api.put<{ id: string }>('/api/v4/devices/dav', { name: 'laptop' }, { token: bt });
    assert.equal(dav.status, 200, dav.text);
    assert.equal((await api.delete(`/api/v4/share/${share.body.data.id}`, undefined, { token: bt })).status, 200);
    assert.equal((await api.delete(`/api/v4/file/access/${grant.body.data.id}`, undefined, { token: bt })).status, 200);
    const pw = await api.patch('/api/v4/user/setting', { current_password: bob.password, new_password: 'bob-new-password-456' }, { token: bt });
    assert.equal(pw.status, 200, pw.text);
    assert.equal((await api.patch('/api/v4/admin/settings', { site_name: 'Audited' }, { token: admin })).status, 200);
    // Not security events: a nickname change, an admin read, a refused (400) body.
    assert.equal((await api.patch('/api/v4/user/setting', { nickname: 'Bobby' }, { token: carol.token.access_token })).status, 200);
    assert.equal((await api.get('/api/v4/admin/settings', { token: admin })).status, 200);
    assert.equal((await api.patch('/api/v4/admin/settings', { site_name: '' }, { token: admin })).status, 400);

    const expected = [
      ['session.sign_in', adminId, 'user', adminId],
      ['admin.user_created', adminId, 'user', bob.user.id],
      ['session.sign_in', bob.user.id, 'user', bob.user.id],
      ['admin.user_created', adminId, 'user', carol.user.id],
      ['session.sign_in', carol.user.id, 'user', carol.user.id],
      ['session.sign_in_failed', undefined, 'user', 'bob@example.com'],
      ['sharing.link_created', bob.user.id, 'share', share.body.data.id],
      ['sharing.grant_created', bob.user.id, 'grant', grant.body.data.id],
      ['webdav.account_created', bob.user.id, 'webdav_account', dav.body.data.id],
      ['sharing.link_deleted', bob.user.id, 'share', share.body.data.id],
      ['sharing.grant_revoked', bob.user.id, 'grant', grant.body.data.id],
      ['user.password_changed', bob.user.id, 'user', bob.user.id],
      ['admin.settings_changed', adminId, 'site', 'settings'],
    ];
    const rows = await rowsAtLeast(expected.length);
    assert.deepEqual(rows.map((r) => [r.action, r.actor_id, r.target_type, r.target_id]), expected);
    assert.deepEqual(rows.map((r) => r.seq), expected.map((_, i) => i + 1));
    const failed = rows[5]!;
    assert.equal(failed.user_agent, 'guesser/1.0');
    assert.equal(failed.ip, '127.0.0.1');
    assert.deepEqual(failed.detail, { method: 'password', email: 'bob@example.com', code: 40080 });
    assert.ok(!JSON.stringify(rows).includes('not-his-password'), 'no password in any row');
    assert.ok(!JSON.stringify(rows).includes('bob-new-password-456'), 'no password in any row');
    assert.deepEqual(rows[12]!.detail, { fields: ['site_name'] });
    for (const r of rows) {
      assert.match(r.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(r.instance.length > 0);
    }
    let previous = '0'.repeat(64);
    for (const r of rows) {
      assert.equal(r.hash, expectedHash(previous, r, JSON.stringify(r.detail)), `row ${r.seq}`);
      previous = r.hash;
    }
    assert.deepEqual(await verify(), { ok: true, checked: expected.length });
  });

  it('lists newest first with filters and a cursor to older rows', async () => {
    const all = await exported();
    const pages: Row[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse<Envelope<{ items: Row[]; cursor: string | null }>> = await api.get<{ items: Row[]; cursor: string | null }>(`/api/v4/admin/audit?page_size=4${cursor ? `&cursor=${cursor}` : ''}`, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.items.length <= 4);
      pages.push(...res.body.data.items);
      cursor = res.body.data.cursor;
    } while (cursor !== null);
    assert.deepEqual(pages, [...all].reverse());

    const bySession = await api.get<{ items: Row[] }>('/api/v4/admin/audit?action=session.', { token: admin });
    assert.deepEqual(bySession.body.data.items.map((r) => r.action), ['session.sign_in_failed', 'session.sign_in', 'session.sign_in', 'session.sign_in']);
    const exact = await api.get<{ items: Row[] }>('/api/v4/admin/audit?action=session.sign_in', { token: admin });
    assert.equal(exact.body.data.items.length, 3);
    // "_" is no wildcard in a prefix.
    assert.deepEqual((await api.get<{ items: Row[] }>('/api/v4/admin/audit?action=s_ssion.', { token: admin })).body.data.items, []);
    const byBob = await api.get<{ items: Row[] }>(`/api/v4/admin/audit?actor=${bob.user.id}`, { token: admin });
    assert.deepEqual(byBob.body.data.items.map((r) => r.seq), all.filter((r) => r.actor_id === bob.user.id).map((r) => r.seq).reverse());
    const seventh = all[6]!;
    const window = await api.get<{ items: Row[] }>(`/api/v4/admin/audit?since=${encodeURIComponent(seventh.at)}&until=${encodeURIComponent(seventh.at)}`, { token: admin });
    assert.ok(window.body.data.items.some((r) => r.seq === seventh.seq));
    assert.ok(window.body.data.items.every((r) => r.at === seventh.at));
    const future = await api.get<{ items: Row[]; cursor: string | null }>('/api/v4/admin/audit?since=2999-01-01T00:00:00Z', { token: admin });
    assert.deepEqual(future.body.data, { items: [], cursor: null });
    const filteredExport = await exported('&action=admin.');
    assert.deepEqual(filteredExport.map((r) => r.action), ['admin.user_created', 'admin.user_created', 'admin.settings_changed']);

    for (const bad of ['action=Session', 'action=a..b', 'since=yesterday', 'cursor=-1', 'page_size=0', 'page_size=201', 'actor=a%20b', 'format=xml']) {
      const route = bad.startsWith('format') ? 'audit/export' : 'audit';
      const res = await api.get(`/api/v4/admin/${route}?${bad}`, { token: admin });
      assert.equal(res.status, 400, `${bad}: ${res.text}`);
      assert.equal(res.body.code, 40001);
    }
  });

  it('exports CSV (RFC 4180 §2) with formula cells defused', async () => {
    const ua = '=HYPERLINK("http://evil.example","x"), really';
    assert.equal((await api.raw('POST', '/api/v4/session/token', { json: { email: 'nobody@example.com', password: 'x' }, headers: { 'user-agent': ua } })).status, 401);
    const rows = await rowsAtLeast(14);
    const res = await api.raw('GET', '/api/v4/admin/audit/export?format=csv', { token: admin });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="cirrus-audit-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = res.text.split('\r\n');
    assert.equal(lines[0], 'seq,at,actor_id,ip,user_agent,instance,action,target_type,target_id,detail,hash');
    assert.equal(lines.at(-1), '');
    assert.equal(lines.length, rows.length + 2);
    const last = lines.at(-2)!;
    assert.ok(last.startsWith(`${rows.length},`), last);
    assert.ok(last.includes(`,"'=HYPERLINK(""http://evil.example"",""x""), really",`), last);
    assert.ok(last.endsWith(`,${rows.at(-1)!.hash}`));
  });

  it('a row changed or deleted in the database makes verify (API and CLI) name the first bad row', async () => {
    const rows = await exported();
    const n = rows.length;
    let cli0 = await cli('audit', 'verify');
    assert.equal(cli0.code, 0, cli0.stderr);
    assert.match(cli0.stdout, new RegExp(`audit chain intact: ${n} rows checked`));

    // Changed: bob's failed sign-in now names another address.
    const original = await sql<{ detail: string }>`select detail from audit_log where seq = 6`.execute(db());
    await sql`update audit_log set detail = ${'{"method":"password","email":"alice@example.com","code":40080}'} where seq = 6`.execute(db());
    assert.deepEqual(await verify(), { ok: false, checked: 5, first_bad_seq: 6 });
    cli0 = await cli('audit', 'verify');
    assert.equal(cli0.code, 1);
    assert.match(cli0.stderr, /audit chain broken at seq 6 \(5 rows before it are intact\)/);
    await sql`update audit_log set detail = ${original.rows[0]!.detail} where seq = 6`.execute(db());
    assert.deepEqual(await verify(), { ok: true, checked: n });

    // Changed, with its own hash recomputed: the next row no longer follows.
    const actorBefore = await sql<{ actor_id: string | null; hash: string }>`select actor_id, hash from audit_log where seq = 3`.execute(db());
    await sql`update audit_log set actor_id = ${adminId} where seq = 3`.execute(db());
    const forged = { ...rows[2]!, actor_id: adminId };
    await sql`update audit_log set hash = ${expectedHash(rows[1]!.hash, forged, JSON.stringify(forged.detail))} where seq = 3`.execute(db());
    assert.deepEqual(await verify(), { ok: false, checked: 3, first_bad_seq: 4 });
    await sql`update audit_log set actor_id = ${actorBefore.rows[0]!.actor_id}, hash = ${actorBefore.rows[0]!.hash} where seq = 3`.execute(db());

    // Deleted in the middle, then the last row.
    const saved = await sql<Record<string, unknown>>`select * from audit_log where seq in (4, ${n}) order by seq`.execute(db());
    await sql`delete from audit_log where seq = 4`.execute(db());
    assert.deepEqual(await verify(), { ok: false, checked: 3, first_bad_seq: 4 });
    await db().insertInto('audit_log').values(saved.rows[0] as never).execute();
    await sql`delete from audit_log where seq = ${n}`.execute(db());
    assert.deepEqual(await verify(), { ok: false, checked: n - 1, first_bad_seq: n });
    await db().insertInto('audit_log').values(saved.rows[1] as never).execute();
    assert.deepEqual(await verify(), { ok: true, checked: n });

    const out = await cli('audit', 'export');
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(out.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Row).hash), rows.map((r) => r.hash));
  });

  it('answers 403 to a non-administrator on every audit route, 401 without a token', async () => {
    const token = carol.token.access_token;
    const routes: [string, string][] = [
      ['GET', '/api/v4/admin/audit'],
      ['GET', '/api/v4/admin/audit?action=session.'],
      ['GET', '/api/v4/admin/audit/export?format=jsonl'],
      ['GET', '/api/v4/admin/audit/export?format=csv'],
      ['POST', '/api/v4/admin/audit/verify'],
    ];
    for (const [method, route] of routes) {
      const res = await api.call(method, route, { token });
      assert.equal(res.status, 403, `${method} ${route}`);
      assert.deepEqual(res.body, { code: 403, data: null, msg: res.body.msg });
      assert.equal((await api.call(method, route)).status, 401);
    }
    const patch = await api.patch('/api/v4/admin/settings', { audit_retention_days: 1 }, { token });
    assert.equal(patch.status, 403);
  });

  it('retention is a site setting; pruning keeps the chain verifiable', async () => {
    const set = await api.patch<{ audit_retention_days: number }>('/api/v4/admin/settings', { audit_retention_days: 30 }, { token: admin });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.data.audit_retention_days, 30);
    assert.equal((await api.patch('/api/v4/admin/settings', { audit_retention_days: -1 }, { token: admin })).status, 400);
    const before = await rowsAtLeast(15);
    const last = before.at(-1)!;
    assert.equal(last.action, 'admin.settings_changed');
    assert.deepEqual(last.detail, { fields: ['audit_retention_days'] });
    // Age the first five rows past the retention, then run the retention job.
    await sql`update audit_log set at = at - ${40 * 86_400_000} where seq <= 5`.execute(db());
    const stale = await verify();
    assert.equal(stale.ok, false, 'the aged rows no longer match their hashes');
    await server.built.services.jobs.run('audit_retention');
    const after_ = await exported();
    assert.deepEqual(after_.map((r) => r.seq), before.filter((r) => r.seq > 5).map((r) => r.seq));
    assert.deepEqual(await verify(), { ok: true, checked: after_.length });
  });

  it('with the audit table locked or gone, a sign-in still answers at once and its event is written afterwards', async () => {
    const count = (await exported()).length;
    const release = await holdAuditTable(server.config.database);
    const started = Date.now();
    const signed = await api.post<{ user: { id: string } }>('/api/v4/session/token', { email: 'carol@example.com', password: carol.password });
    const took = Date.now() - started;
    assert.equal(signed.status, 200, signed.text);
    // The table is held until after the answer, so answering at all shows the sign-in did not wait for it; the bound
    // (loose: argon2 on a loaded machine, as in robustness/audit-crash) catches a stall.
    assert.ok(took < 5_000, `the sign-in took ${took} ms`);
    await sleep(300); // the writer has tried (and failed or waited) meanwhile
    await release();
    const rows = await rowsAtLeast(count + 1);
    assert.equal(rows.length, count + 1);
    assert.deepEqual([rows.at(-1)!.action, rows.at(-1)!.actor_id], ['session.sign_in', carol.user.id]);
    assert.deepEqual(await verify(), { ok: true, checked: rows.length });
  });
  it('administrator actions made with the CLI are audited under the dashboard\'s names, naming the OS account', async () => {
    const count = (await exported()).length;
    const made = await cli('user', 'create', '--email', 'dave@example.com', '--password', 'dave-password-123');
    assert.equal(made.code, 0, made.stderr);
    const daveId = /with UID ([A-Za-z0-9_-]+)/.exec(made.stdout)![1]!;
    const reset = await cli('user', 'reset-password', '--user', 'dave@example.com');
    assert.equal(reset.code, 0, reset.stderr);
    const app = await cli('app', 'create', '--name', 'CLI app', '--scope', 'Files.Read', '--redirect-uri', 'https://app.example/cb');
    assert.equal(app.code, 0, app.stderr);
    const clientId = /client_id:\s+(\S+)/.exec(app.stdout)![1]!;
    const gone = await cli('app', 'delete', clientId);
    assert.equal(gone.code, 0, gone.stderr);
    const token = await cli('token', 'issue', '--user', daveId, '--ttl', '5m');
    assert.equal(token.code, 0, token.stderr);
    // A refused command changes nothing and records nothing.
    assert.equal((await cli('user', 'reset-password', '--user', 'nobody@example.com')).code, 1);

    const rows = (await exported()).slice(count);
    assert.deepEqual(
      rows.map((r) => [r.action, r.target_type, r.target_id]),
      [
        ['admin.user_created', 'user', daveId],
        ['admin.user_password_reset', 'user', daveId],
        ['admin.app_created', 'oauth_client', clientId],
        ['admin.app_deleted', 'oauth_client', clientId],
        ['admin.token_issued', 'user', daveId],
      ],
    );
    const me = userInfo().username;
    for (const r of rows) {
      assert.equal(r.actor_id, undefined, 'no Cirrus account acted');
      assert.equal(r.ip, 'cli');
      assert.match(r.user_agent, new RegExp(`^cirrus-cli/\\S+ \\(${me}@[^)]+\\)$`));
      assert.equal(r.detail.via, 'cli');
      assert.equal(r.detail.os_user, me);
      assert.ok(!JSON.stringify(r).includes('dave-password-123'), 'no secret in a row');
    }
    // Each command is its own process, so its own instance; the dashboard's rows name another.
    assert.equal(new Set(rows.map((r) => r.instance)).size, rows.length);
    assert.deepEqual(rows[0]!.detail.options, ['email', 'password']);
    assert.deepEqual(rows[4]!.detail.ttl_seconds, 300);
    assert.deepEqual(await verify(), { ok: true, checked: count + rows.length });
  });
});
