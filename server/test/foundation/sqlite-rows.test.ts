// The SQLite connection's statement cache (db/database.ts) reads rows as
// arrays and builds the row objects itself. These tests compare what it
// returns with what better-sqlite3 returns on its own for the same SQL, and
// check that a schema change through the connection is seen at once. They
// need no database server: SQLite is the subject whichever database the
// rest of the suite runs on.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { createDb } from '../../src/db/database.js';

describe('SQLite rows built from arrays', () => {
  let dir: string;
  let file: string;
  let db: Kysely<Record<string, Record<string, unknown>>>;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-sqlite-rows-'));
    file = path.join(dir, 'rows.db');
    db = createDb({ kind: 'sqlite', file }) as unknown as typeof db;
    await sql`create table t (id integer primary key, name text, size integer, data blob, gone text)`.execute(db);
    await sql`insert into t (id, name, size, data, gone) values (1, 'a.txt', 9007199254740991, x'00ff', null), (2, 'b', -1, null, 'x')`.execute(db);
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What better-sqlite3 itself returns for the statement, on a connection of its own. */
  function native(text: string, ...params: unknown[]): unknown[] {
    const own = new SQLite(file, { readonly: true });
    try {
      return own.prepare(text).all(...params);
    } finally {
      own.close();
    }
  }

  it('select * gives the same objects as better-sqlite3: keys in order, integers, text, blobs and nulls', async () => {
    const text = 'select * from t order by id';
    const ours = (await sql.raw(text).execute(db)).rows;
    assert.deepEqual(ours, native(text));
    assert.deepEqual(Object.keys(ours[0] as object), ['id', 'name', 'size', 'data', 'gone']);
    assert.ok(Buffer.isBuffer((ours[0] as { data: unknown }).data));
    // The cached statement answers a second time, with parameters, the same way.
    const again = (await sql`select name, size from t where id = ${2}`.execute(db)).rows;
    assert.deepEqual(again, native('select name, size from t where id = ?', 2));
  });

  it('a repeated column name keeps the later value, as better-sqlite3 does; aliases and expressions are keys too', async () => {
    const text = "select name, size as name, count(*) over () as n, 'k' || id from t order by id";
    assert.deepEqual((await sql.raw(text).execute(db)).rows, native(text));
  });

  it('writes still report changes and returning rows come back as objects', async () => {
    const res = await sql`update t set gone = ${'y'} where id = ${1}`.execute(db);
    assert.equal(res.numAffectedRows, 1n);
    const returned = (await sql`insert into t (id, name, size) values (${3}, ${'c'}, ${0}) returning id, name`.execute(db)).rows;
    assert.deepEqual(returned, [{ id: 3, name: 'c' }]);
  });

  it('a column added by a migration shows in a select * that was cached before it', async () => {
    const text = 'select * from t where id = 1';
    const before = (await sql.raw(text).execute(db)).rows[0] as Record<string, unknown>;
    assert.ok(!('added' in before));
    await sql`alter table t add column added text default 'new'`.execute(db);
    const after = (await sql.raw(text).execute(db)).rows[0] as Record<string, unknown>;
    assert.equal(after.added, 'new');
    assert.deepEqual([after], native(text));
  });

  it('a column renamed by a migration is read under its new name', async () => {
    const text = 'select * from t where id = 2';
    assert.ok('gone' in ((await sql.raw(text).execute(db)).rows[0] as object));
    await sql`alter table t rename column gone to kept`.execute(db);
    const row = (await sql.raw(text).execute(db)).rows[0] as Record<string, unknown>;
    assert.ok(!('gone' in row));
    assert.equal(row.kept, 'x');
  });
});
