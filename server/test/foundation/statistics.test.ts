// Planner statistics (db/statistics.ts): on PostgreSQL the db_statistics job
// analyses the tables that changed enough since their last ANALYZE, whether
// or not autovacuum runs (it is off on the test machine), and leaves the
// others alone; on SQLite it does nothing. Without statistics PostgreSQL
// planned content search at 80–100 ms a query over 10,000 documents, 10–22 ms
// with them (docs/benchmarks.md).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/harness.js';
import { Api } from '../helpers/client.js';
import { adminToken } from '../files/helpers.js';
import { dialectOf } from '../../src/db/database.js';
import { refreshStatistics } from '../../src/db/statistics.js';

describe('planner statistics', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.close());

  it('PostgreSQL: the tables changed past the threshold are analysed, then none until they change again; SQLite: nothing', async () => {
    const db = server.built.services.db;
    const api = new Api(server.url);
    const token = await adminToken(api);
    // 80 folders: past 50 + 10 % of the files table.
    for (let i = 0; i < 80; i++) assert.equal((await api.post('/api/v4/file/create', { path: `/stats/f${i}`, type: 'folder' }, { token })).status, 200);
    if (dialectOf(db) !== 'postgres') {
      assert.deepEqual(await refreshStatistics(db), []);
      return;
    }
    // What the server's own job would do. A connection reports its counts within 10 s of going idle
    // (PostgreSQL 15: PGSTAT_IDLE_INTERVAL), so ask until they show.
    let analysed: string[] = [];
    for (let i = 0; i < 150 && !analysed.includes('files'); i++) {
      analysed = analysed.concat(await refreshStatistics(db));
      if (!analysed.includes('files')) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(analysed.includes('files'), analysed.join(','));
    const files = await sql<{ last_analyze: Date | null; n_mod_since_analyze: string }>`
      SELECT last_analyze, n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = 'files' AND schemaname = current_schema()`.execute(db);
    assert.ok(files.rows[0]?.last_analyze, 'files has been analysed');
    assert.ok(!(await refreshStatistics(db)).includes('files'), 'not again while it has not changed');
    // The job is registered and runs without failing.
    await server.built.services.jobs.run('db_statistics');
  });
});
