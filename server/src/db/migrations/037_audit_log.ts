// Issue 37: the administrators' audit log (api-contract §17). One row per
// security-relevant event, append-only, each chained to the one before by
// SHA-256 (audit/chain.ts). `seq` is given by the chain head, not by an
// identity column: the single `audit_head` row is updated in the same
// transaction as the rows it numbers, so that the database serialises the
// writers of every instance (PostgreSQL's row lock, SQLite's write lock) and
// the chain stays linear. The head also remembers where retention cut the
// log (`pruned_seq`, `pruned_hash`): verify starts there.
import type { AnyDb } from './util.js';

/** The hash before the first row: 64 zeros. */
const GENESIS = '0'.repeat(64);

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    // Milliseconds since the epoch.
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    // JSON object.
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'seq']).execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'seq']).execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
  await db.schema
    .createTable('audit_head')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    // The last row's seq and hash.
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    // Rows up to pruned_seq were removed by retention; pruned_hash is the hash of row pruned_seq.
    .addColumn('pruned_seq', 'bigint', (c) => c.notNull())
    .addColumn('pruned_hash', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('audit_head').values({ id: 1, seq: 0, hash: GENESIS, pruned_seq: 0, pruned_hash: GENESIS }).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('audit_head').ifExists().execute();
  await db.schema.dropTable('audit_log').ifExists().execute();
}
