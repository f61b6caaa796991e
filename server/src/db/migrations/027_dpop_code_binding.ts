// Issue 24, DPoP authorization code binding (RFC 9449 §10): a code issued on
// a request that named a key (dpop_jkt, or the DPoP proof of its pushed
// request) is exchanged only with a proof of that key.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('oauth_codes').addColumn('dpop_jkt', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('oauth_codes').dropColumn('dpop_jkt').execute();
}
