// Issue 24, DPoP (RFC 9449, api-contract §12): an app can be set to require a
// proof with every token request. Bound tokens need no column: the key
// thumbprint travels in the signed tokens themselves (cnf.jkt), and a
// rotation copies it from the refresh token presented (docs/security.md).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('require_dpop', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('require_dpop').execute();
}
