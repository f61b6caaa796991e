// Issue 11: a per-user "tokens not valid before" time (Unix ms). A password
// change, an administrator's reset, a ban or a sign-out everywhere moves it
// to now, which ends every access token dated at or before it, including
// tokens signed locally with the master key (method C), which belong to no
// session family and so escaped family revocation. It lives on the user row
// because the auth guard already reads that row through its cache: no extra
// query on the hot path.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('tokens_valid_after', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('tokens_valid_after').execute();
}
