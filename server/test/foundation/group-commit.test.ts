// SQLite's group commit (server/src/db/group-commit.ts, decision 026): the
// compiled writes of one turn of the event loop share one transaction. These
// tests watch it from a second connection to the same file, as another
// process (the command line) would: a caller is answered only once its write
// is committed, a group that cannot commit fails every caller and keeps
// nothing, and no other statement reads what a group has not committed.
// SQLite only: PostgreSQL runs each statement as before.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { compileOnce, type Slot } from '../../src/db/compiled.js';
import { createDb, groupCommitOf, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** Tables of this test only: a child whose parent is checked at COMMIT (a deferred foreign key). */
interface GroupTestTables {
  gc_parent: { id: string };
  gc_child: { id: string; parent: string };
}

describe('SQLite group commit', () => {
  let dir: string;
  let db: Db;
  let other: SQLite.Database;
  let setting: ReturnType<typeof compileSetting>;

  const compileSetting = (d: Db) => compileOnce(d, (v: Slot<{ name: string; value: string }>) => d.insertInto('settings').values({ name: v('name'), value: v('value') }));
  /** What another connection sees committed. */
  const committedNames = (prefix: string) =>
    (other.prepare('SELECT name FROM settings WHERE name LIKE ? ORDER BY name').all(`${prefix}%`) as { name: string }[]).map((r) => r.name);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-group-commit-'));
    const file = path.join(dir, 'cirrus.db');
    db = createDb({ kind: 'sqlite', file });
    await migrateToLatest(db);
    other = new SQLite(file, { readonly: true });
    setting = compileSetting(db);
  });
  after(async () => {
    other.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exists on SQLite only', () => {
    assert.ok(groupCommitOf(db));
  });

  it('answers each caller only once its write is committed, and one turn of writes commits together', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `together_${String(i).padStart(2, '0')}`);
    const seenAtAnswer: string[][] = [];
    await Promise.all(
      names.map((name) =>
        setting.run({ name, value: 'v' }).then(() => {
          seenAtAnswer.push(committedNames('together_'));
        }),
      ),
    );
    // Every caller, the first one answered included, finds all twenty committed: one transaction.
    assert.equal(seenAtAnswer.length, 20);
    for (const seen of seenAtAnswer) assert.deepEqual(seen, names);
  });

  it('fails only the caller whose statement broke a constraint; the rest of the group commits', async () => {
    const results = await Promise.allSettled([
      setting.run({ name: 'alone_a', value: '1' }),
      setting.run({ name: 'alone_a', value: '2' }),
      setting.run({ name: 'alone_b', value: '3' }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.deepEqual(committedNames('alone_'), ['alone_a', 'alone_b']);
    assert.deepEqual(other.prepare("SELECT value FROM settings WHERE name = 'alone_a'").all(), [{ value: '1' }]);
  });

  it('fails every caller of a group that cannot commit, and keeps none of its writes', async () => {
    const t = db as unknown as Kysely<GroupTestTables>;
    await sql`CREATE TABLE gc_parent (id TEXT PRIMARY KEY)`.execute(t);
    await sql`CREATE TABLE gc_child (id TEXT PRIMARY KEY, parent TEXT NOT NULL REFERENCES gc_parent (id) DEFERRABLE INITIALLY DEFERRED)`.execute(t);
    await t.insertInto('gc_parent').values({ id: 'p1' }).execute();
    const child = compileOnce(db, (v: Slot<{ id: string; parent: string }>) => t.insertInto('gc_child').values({ id: v('id'), parent: v('parent') }));
    // The missing parent is found at COMMIT (deferred), after both statements ran: the whole group fails.
    const results = await Promise.allSettled([child.run({ id: 'c1', parent: 'p1' }), child.run({ id: 'c2', parent: 'missing' }), setting.run({ name: 'failed_group', value: 'x' })]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const r of results) assert.match(String((r as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.deepEqual(other.prepare('SELECT id FROM gc_child').all(), []);
    assert.deepEqual(committedNames('failed_group'), []);
    // The connection is usable afterwards, grouped or not.
    await child.run({ id: 'c3', parent: 'p1' });
    assert.deepEqual(other.prepare('SELECT id FROM gc_child').all(), [{ id: 'c3' }]);
  });

  it('commits the open group before any other statement, so nothing else reads uncommitted writes', async () => {
    const pending = setting.run({ name: 'before_read', value: 'v' });
    // A Kysely read in the same turn: the group is committed first, so what it reads is durable.
    const read = await db.selectFrom('settings').select('value').where('name', '=', 'before_read').executeTakeFirst();
    assert.deepEqual(read, { value: 'v' });
    assert.deepEqual(committedNames('before_read'), ['before_read']);
    await pending;
  });

  it('lets a Kysely transaction run between grouped writes (no nested BEGIN)', async () => {
    const writes = [setting.run({ name: 'around_1', value: 'v' }), setting.run({ name: 'around_2', value: 'v' })];
    const trx = db.transaction().execute(async (tx) => {
      await tx.insertInto('settings').values({ name: 'around_trx', value: 'v' }).execute();
      // A grouped write issued while the transaction holds the connection waits for it.
      writes.push(setting.run({ name: 'around_3', value: 'v' }));
      await tx.insertInto('settings').values({ name: 'around_trx2', value: 'v' }).execute();
    });
    await trx;
    await Promise.all(writes);
    assert.equal(writes.length, 3);
    assert.deepEqual(committedNames('around_'), ['around_1', 'around_2', 'around_3', 'around_trx', 'around_trx2']);
  });
});
