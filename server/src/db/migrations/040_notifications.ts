// Notifications (issue 37, api-contract §17): what a person is told, their
// preferences per kind, and the per-link switch for download notices.
// `seq` numbers one person's notifications; the unique (user_id, seq) index
// makes two writers for the same person take turns, so a higher seq is always
// committed after a lower one (the live stream follows seq, as the change
// feed follows its cursor).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // Milliseconds since the epoch.
    .addColumn('at', 'bigint', (c) => c.notNull())
    // JSON object: what the notice is about (names, paths, counts).
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    // 1: shown in the app (the person's "web" preference when it was made).
    .addColumn('web', 'integer', (c) => c.notNull())
    // 1: waits for the person's daily digest.
    .addColumn('digest', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('notifications_user_seq').on('notifications').columns(['user_id', 'seq']).unique().execute();
  await db.schema.createIndex('notifications_digest').on('notifications').columns(['digest', 'user_id']).execute();
  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    // JSON object: type -> {web, email}, only the kinds the person changed.
    .addColumn('prefs', 'text', (c) => c.notNull())
    // When the last daily digest was claimed (ms), null: never.
    .addColumn('digest_at', 'bigint')
    // 1 once "storage almost full" was told, until usage falls back below the mark.
    .addColumn('quota_warned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('shares').addColumn('notify_downloads', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('shares').dropColumn('notify_downloads').execute();
  await db.schema.dropTable('notification_settings').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
}
