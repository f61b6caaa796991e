// Issue 37: activity retention (the site setting activity_retention_days).
// The hourly prune removes the rows older than a cut-off; without an index on
// `at` each run would read the whole table.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('activity_events_at').on('activity_events').column('at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('activity_events_at').ifExists().execute();
}
