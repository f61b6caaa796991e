// An OAuth app may override the site's refresh-token lifetime (api-contract §3);
// each session family remembers the lifetime it was started with, so both
// refresh routes rotate it the same way.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('refresh_token_ttl', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('refresh_ttl', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('refresh_ttl').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('refresh_token_ttl').execute();
}
