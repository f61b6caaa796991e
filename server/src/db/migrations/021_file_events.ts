// Issue 21: the change feed (api-contract §13). Every change to a user's tree
// appends a row to `file_events` in the transaction that makes the change.
// `file_event_heads` holds each user's last cursor: the append bumps it with
// one upsert, whose row lock (held to commit) orders a user's events in commit
// order on PostgreSQL too (a sequence would not: a reader could see 12 before
// 11 commits). `pruned_seq` is the last cursor the retention job removed, so a
// cursor older than that gets `reset` instead of a silent gap.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('file_event_heads')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pruned_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('file_events')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    // created | modified | moved | deleted | restored
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('old_path', 'text')
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('is_dir', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_events_pk', ['user_id', 'seq'])
    .execute();
  await db.schema.createIndex('file_events_at').on('file_events').column('at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('file_events').execute();
  await db.schema.dropTable('file_event_heads').execute();
}
