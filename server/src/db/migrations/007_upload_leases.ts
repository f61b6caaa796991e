// Leases that belong to a live process (issue 11, defects 3 and 4). Every
// server process registers itself in `server_instances` and beats every few
// seconds; an upload's write lock and a streamed PUT's lease name the process
// that holds them (`uploads.lock_owner`). A lock whose owner stopped beating
// is free at once, so a restarted or another instance takes over within
// seconds instead of waiting for the lock's expiry.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('server_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('uploads').addColumn('lock_owner', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('lock_owner').execute();
  await db.schema.dropTable('server_instances').ifExists().execute();
}
