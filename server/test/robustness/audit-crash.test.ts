// Issue 37: an audit event is not lost when the process dies with it queued.
// The audit table is locked (PostgreSQL: LOCK TABLE from another connection;
// SQLite, which locks files rather than tables: the table renamed away), a
// person signs in (the answer comes at once; the row waits in the queue and
// in the spool file), the server is killed with kill -9, the table is given
// back, and a new process on the same data directory and database writes the
// row: it is in the export exactly once and the chain verifies.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { holdAuditTable } from '../helpers/audit-lock.js';
import { ChildSite, sleep, waitFor } from './child-server.js';

interface Row {
  seq: number;
  action: string;
  actor_id?: string;
}

describe('audit rows queued when the process is killed are written by the next start (issue 37)', () => {
  const site = new ChildSite();

  before(async () => {
    await site.init();
    await site.start();
  });
  after(() => site.close());

  const exported = async (api: Api, token: string): Promise<Row[]> => {
    const res = await api.raw('GET', '/api/v4/admin/audit/export?format=jsonl', { token });
    assert.equal(res.status, 200, res.text);
    return res.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
  };

  it('locks the table, signs in, is killed, and the sign-in is in the export after a restart', async () => {
    let api = new Api(site.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const carol = await createUser(api, admin, 'carol@example.com');
    const carolSignIns = (rows: Row[]) => rows.filter((r) => r.action === 'session.sign_in' && r.actor_id === carol.user.id).length;
    // Everything so far is written (createUser signed Carol in once): the kill is to lose only the sign-in below.
    await waitFor('the rows so far', 10_000, async () => (carolSignIns(await exported(api, admin)) === 1 ? true : undefined));

    const release = await holdAuditTable(site.database);
    const started = Date.now();
    const signed = await api.post<{ user: { id: string } }>('/api/v4/session/token', { email: 'carol@example.com', password: carol.password });
    assert.equal(signed.status, 200, signed.text);
    // The lock is held until after the answer, so answering at all shows the sign-in did not wait for the table; the bound (loose: argon2 on a loaded machine) catches a stall.
    assert.ok(Date.now() - started < 5000, `the sign-in took ${Date.now() - started} ms`);
    await sleep(300); // the writer has tried (and failed, or is waiting for the lock)
    await site.kill9();
    await release();

    const spool = path.join(site.dataDir, 'audit-spool');
    assert.equal(readdirSync(spool).length, 1, 'the killed process left its spool file');

    await site.start();
    api = new Api(site.url);
    const token = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await waitFor('the recovered sign-in', 10_000, async () => {
      const all = await exported(api, token);
      return carolSignIns(all) >= 2 ? all : undefined;
    });
    await sleep(500);
    assert.equal(carolSignIns(await exported(api, token)), 2, 'written once');
    const verified = await api.post<{ ok: boolean; checked: number }>('/api/v4/admin/audit/verify', undefined, { token });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.data.ok, true, verified.text);
    // The dead process's file was taken over: only the new process's remains.
    assert.equal(readdirSync(spool).length, 1);
  });
});
