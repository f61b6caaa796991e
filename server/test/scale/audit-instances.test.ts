// The audit chain stays linear with two instances writing at once (issue 37):
// two real processes on one database (one PostgreSQL database with
// CIRRUS_TEST_DATABASE_URL, else one SQLite file), sign-ins fired in parallel
// at both, some of them wrong. Every event is in the log once, the seqs run
// without a gap, both instances wrote, and verify finds the chain intact on
// either instance.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { sleep, startOneSite } from '../helpers/instances.js';
import { ROOT_DIR } from '../../src/paths.js';

const MAIN = path.join(ROOT_DIR, 'dist/server/src/main.js');
const skip = existsSync(MAIN) ? undefined : 'dist/server/src/main.js is missing: run `npm run build:server` first';

interface Row {
  seq: number;
  action: string;
  instance: string;
  actor_id?: string;
}

describe('audit chain with two instances writing at once', { skip }, () => {
  let site: Awaited<ReturnType<typeof startOneSite>> | undefined;
  let a: Api;
  let b: Api;
  let admin: string;

  before(async () => {
    // One site: the same SQLite file (and storage) for both, or one PostgreSQL database.
    site = await startOneSite(2);
    a = new Api(site.list[0]!.url);
    b = new Api(site.list[1]!.url);
    admin = (await signIn(a, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => site?.close());

  it('parallel sign-ins on both keep one gapless chain that verifies', async () => {
    const people: { email: string; password: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `p${i}@example.com`;
      const made = await createUser(i % 2 ? b : a, admin, email);
      people.push({ email, password: made.password });
    }
    // 1 admin sign-in + 4 × (user created + sign-in).
    const before_ = 9;
    const attempts = Array.from({ length: 24 }, (_, i) => {
      const p = people[i % people.length]!;
      const wrong = i % 4 === 3;
      return (i % 2 ? b : a).post('/api/v4/session/token', { email: p.email, password: wrong ? 'wrong-password-x' : p.password });
    });
    const answers = await Promise.all(attempts);
    const ok = answers.filter((r) => r.status === 200).length;
    const failed = answers.filter((r) => r.status === 401).length;
    assert.equal(ok + failed, answers.length, answers.map((r) => r.status).join(','));
    assert.equal(failed, 6);

    const total = before_ + answers.length;
    let rows: Row[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const res = await a.raw('GET', '/api/v4/admin/audit/export', { token: admin });
      rows = res.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
      if (rows.length >= total) break;
      await sleep(100);
    }
    assert.equal(rows.length, total);
    assert.deepEqual(rows.map((r) => r.seq), Array.from({ length: total }, (_, i) => i + 1));
    const parallel = rows.slice(before_);
    assert.equal(parallel.filter((r) => r.action === 'session.sign_in').length, ok);
    assert.equal(parallel.filter((r) => r.action === 'session.sign_in_failed').length, 6);
    assert.equal(new Set(parallel.map((r) => r.instance)).size, 2, 'both instances wrote');

    for (const api of [a, b]) {
      const v = await api.post<{ ok: boolean; checked: number }>('/api/v4/admin/audit/verify', undefined, { token: admin });
      assert.deepEqual(v.body.data, { ok: true, checked: total });
    }
  });
});
