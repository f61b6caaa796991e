// Statements compiled once (server/src/db/compiled.ts), on the database the
// suite runs on: each run binds its own values, the builder's constants stay,
// and a slot the builder did not make a parameter is refused at compile time.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { compileOnce, type Slot } from '../../src/db/compiled.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { freshDatabase, type FreshDatabase } from './support.js';

describe('compiled statements', () => {
  let fresh: FreshDatabase;
  let db: Db;

  before(async () => {
    fresh = await freshDatabase();
    db = createDb(loadConfig(fresh.env).database);
    await migrateToLatest(db);
    await db
      .insertInto('settings')
      .values([
        { name: 'compiled_a', value: 'one' },
        { name: 'compiled_b', value: 'two' },
        { name: 'compiled_c', value: 'one' },
      ])
      .execute();
  });
  after(async () => {
    await db.destroy();
    await fresh.drop();
  });

  it('binds the values of each run into the same statement', async () => {
    const byValue = compileOnce(db, (v: Slot<{ value: string }>) =>
      db.selectFrom('settings').select('name').where('value', '=', v('value')).where('name', 'like', 'compiled_%').orderBy('name'),
    );
    assert.deepEqual((await byValue.run({ value: 'one' })).rows, [{ name: 'compiled_a' }, { name: 'compiled_c' }]);
    assert.deepEqual((await byValue.run({ value: 'two' })).rows, [{ name: 'compiled_b' }]);
    assert.deepEqual((await byValue.run({ value: 'none' })).rows, []);
  });

  it('keeps the builder constants and binds a slot used twice to the same value', async () => {
    const either = compileOnce(db, (v: Slot<{ name: string }>) =>
      db
        .selectFrom('settings')
        .select('value')
        .where((eb) => eb.or([eb('name', '=', v('name')), eb('name', '=', 'compiled_b')]))
        .where('name', '!=', v('name'))
        .orderBy('name'),
    );
    // name = 'compiled_a' OR name = 'compiled_b', AND name != 'compiled_a': only the constant's row.
    assert.deepEqual((await either.run({ name: 'compiled_a' })).rows, [{ value: 'two' }]);
  });

  it('reports the rows an UPDATE changed and its RETURNING rows', async () => {
    const rename = compileOnce(db, (v: Slot<{ from: string; to: string }>) =>
      db.updateTable('settings').set({ value: v('to') }).where('value', '=', v('from')).where('name', 'like', 'compiled_%').returningAll(),
    );
    const first = await rename.run({ from: 'one', to: 'three' });
    assert.equal(first.changed, 2);
    assert.deepEqual(first.rows.map((r) => r.name).sort(), ['compiled_a', 'compiled_c']);
    assert.ok(first.rows.every((r) => r.value === 'three'));
    const again = await rename.run({ from: 'one', to: 'four' });
    assert.equal(again.changed, 0);
    assert.deepEqual(again.rows, []);
  });

  it('refuses a slot that is not a parameter of the compiled query', () => {
    assert.throws(
      () =>
        compileOnce(db, (v: Slot<{ unused: string }>) => {
          v('unused');
          return db.selectFrom('settings').select('name');
        }),
      /slot unused is not a parameter/,
    );
  });
});
