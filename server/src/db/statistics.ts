// Planner statistics on PostgreSQL: ANALYZE for the tables that changed
// enough since they were last analysed, by the rule autovacuum uses (50 rows
// plus 10 % of the table). Autovacuum does this on a default PostgreSQL; this
// job makes Cirrus independent of it, because a server with autovacuum off
// (as on the test machine) never gets statistics and the planner then
// guesses: content search took 80–100 ms per query at 10,000 documents
// without them, 10–22 ms with them (docs/benchmarks.md). SQLite is left as
// it is: its queries are written for a planner without statistics (CROSS
// JOIN fixes the loop order where it matters).
import { sql } from 'kysely';
import { dialectOf, type Db } from './database.js';

/** Analyses the tables that need it; answers their names (none on SQLite). */
export async function refreshStatistics(db: Db): Promise<string[]> {
  if (dialectOf(db) !== 'postgres') return [];
  const stale = await sql<{ relname: string }>`
    SELECT relname FROM pg_stat_user_tables
    WHERE schemaname = current_schema() AND n_mod_since_analyze > 50 + 0.1 * n_live_tup
    ORDER BY relname`.execute(db);
  for (const { relname } of stale.rows) await sql`ANALYZE ${sql.id(relname)}`.execute(db);
  return stale.rows.map((r) => r.relname);
}
