// Migration 013 (issue 19): dead properties written before it get their
// owner and their size in UTF-8 bytes, so the per-person cap counts them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabase, type FreshDatabase } from './support.js';

const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

describe('migration 013: dead property owners and sizes', () => {
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

  it('backfills user_id from the file and bytes as UTF-8 octets of name and value', async () => {
    const migrator = new Migrator({ db, provider });
    const before013 = await migrator.migrateTo('012_sorting_avatars');
    assert.equal(before013.error, undefined);
    const now = Date.now();
    // Rows as the code before 013 wrote them (only the columns that existed then).
    const old = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await old.insertInto('groups').values({ id: 77, name: 'm013', created_at: now }).execute();
    await old.insertInto('users').values({ id: 'u-013', email: 'm013@example.com', nickname: 'm', password_hash: 'x', group_id: 77, created_at: now, updated_at: now }).execute();
    await old.insertInto('files').values({ id: 'f-013', owner_id: 'u-013', parent_id: null, name: 'a', kind: 1, created_at: now, updated_at: now }).execute();
    const value = '<ns0:é xmlns:ns0="urn:x">雲</ns0:é>';
    await old.insertInto('dav_properties').values({ file_id: 'f-013', name: '{urn:x}é', value }).execute();

    const latest = await migrator.migrateToLatest();
    assert.equal(latest.error, undefined);
    const row = await db.selectFrom('dav_properties').selectAll().where('file_id', '=', 'f-013').executeTakeFirstOrThrow();
    assert.equal(row.user_id, 'u-013');
    assert.equal(Number(row.bytes), Buffer.byteLength('{urn:x}é') + Buffer.byteLength(value));
    assert.notEqual(Number(row.bytes), '{urn:x}é'.length + value.length, 'bytes, not characters');
  });
});
