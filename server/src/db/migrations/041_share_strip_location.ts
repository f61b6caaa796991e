// Issue 36: GPS is never shown through a share link unless the owner chooses
// to. `shares.strip_location` is that choice per link: 1 (the default, also
// for links made before) sends JPEG, PNG and WebP pictures without their
// location; 0 sends them as stored.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('shares').addColumn('strip_location', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('shares').dropColumn('strip_location').execute();
}
