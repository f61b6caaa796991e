// Migration 016 (issue 23, item 7) on a database with data from before it:
// every row gets its sort key and folded name, and siblings whose names
// differ only in case are renamed ("Report (2).pdf"), the oldest keeping its
// name, so that the unique folded-name index can be built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { sortKey } from '../../src/files/name-rules.js';
import { freshDatabase, type FreshDatabase } from '../foundation/support.js';

const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

describe('migration 016: sort keys and folded names for existing rows', () => {
  let fresh: FreshDatabase;
  let db: Db;
  before(async () => {
    fresh = await freshDatabase();
    db = createDb(loadConfig(fresh.env).database);
  });
  after(async () => {
    await db.destroy();
    await fresh.drop();
  });

  it('fills both columns and renames case twins, then refuses new ones', async () => {
    const migrator = new Migrator({ db, provider });
    const before016 = await migrator.migrateTo('012_sorting_avatars');
    assert.equal(before016.error, undefined);
    await db.insertInto('groups').values({ id: 1, name: 'users', is_admin: 0, storage_quota: 0, created_at: 1 } as never).execute();
    await db.insertInto('users').values({ id: 'u1', email: 'a@example.com', nickname: 'a', password_hash: 'x', group_id: 1, status: 'active', created_at: 1, updated_at: 1 } as never).execute();
    const row = (id: string, parent: string | null, name: string, kind: number, created: number) =>
      ({ id, owner_id: 'u1', parent_id: parent, name, kind, size: 0, created_at: created, updated_at: created }) as never;
    await db.insertInto('files').values(row('root', null, '', 0, 1)).execute();
    await db.insertInto('files').values([
      row('f1', 'root', 'Report.pdf', 1, 10),
      row('f2', 'root', 'report.pdf', 1, 20),
      row('f3', 'root', 'REPORT.pdf', 1, 30),
      row('f4', 'root', 'Report (2).pdf', 1, 40),
      row('d1', 'root', 'docs', 0, 5),
      row('d2', 'root', 'Docs', 0, 6),
      row('f5', 'd1', 'file10', 1, 7),
    ]).execute();

    const result = await migrator.migrateToLatest();
    assert.equal(result.error, undefined, String(result.error));
    const rows = await db.selectFrom('files').select(['id', 'name', 'sort_key', 'name_fold']).orderBy('id').execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    assert.equal(byId.f1!.name, 'Report.pdf', 'the oldest keeps its name');
    assert.equal(byId.f2!.name, 'report (3).pdf', '"(2)" is taken by another file');
    assert.equal(byId.f3!.name, 'REPORT (4).pdf');
    assert.equal(byId.f4!.name, 'Report (2).pdf');
    assert.equal(byId.d1!.name, 'docs');
    assert.equal(byId.d2!.name, 'Docs (2)');
    for (const r of rows) {
      assert.equal(r.sort_key, sortKey(r.name), r.id);
      assert.equal(r.name_fold, r.name.toLowerCase(), r.id);
    }
    assert.equal(byId.f5!.sort_key, 'file0210');
    await assert.rejects(db.insertInto('files').values({ ...(row('f6', 'root', 'DOCS', 0, 50) as object), sort_key: 'docs', name_fold: 'docs' } as never).execute());
  });
});
