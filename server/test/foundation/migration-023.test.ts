// Migration 023 (issue 22, upload requests): up adds the share limits, the
// uploads' share, and share_uploads; down takes them away again on both
// databases, and up works again after it (a rollback and a redeploy).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabase, type FreshDatabase } from './support.js';

const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

describe('migration 023: upload requests', () => {
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

  const columns = async (table: string) => (await db.introspection.getTables()).find((t) => t.name === table)?.columns.map((c) => c.name) ?? null;

  it('up, down and up again', async () => {
    const migrator = new Migrator({ db, provider });
    assert.equal((await migrator.migrateTo('023_upload_requests')).error, undefined);
    for (const c of ['upload_only', 'max_file_size', 'max_files']) assert.ok((await columns('shares'))!.includes(c), c);
    assert.ok((await columns('uploads'))!.includes('share_id'));
    assert.ok(await columns('share_uploads'));
    // An existing share is an ordinary link after the migration.
    await sql`select upload_only from shares`.execute(db);

    const down = await migrator.migrateTo('019_passkeys');
    assert.equal(down.error, undefined, String(down.error));
    assert.equal(await columns('share_uploads'), null);
    assert.ok(!(await columns('shares'))!.includes('upload_only'));
    assert.ok(!(await columns('uploads'))!.includes('share_id'));

    assert.equal((await migrator.migrateTo('023_upload_requests')).error, undefined);
    assert.ok(await columns('share_uploads'));
  });
});
