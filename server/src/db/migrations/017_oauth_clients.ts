// Issue 24, OAuth for every kind of client (api-contract §12): the grant
// types each app may use, the device authorization grant's pending requests
// (RFC 8628), pushed authorization requests (RFC 9126), and the URIs an app
// may be sent back to after an RP-initiated logout.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  // Space-separated, like `scopes`; apps registered before keep what they could do.
  await db.schema.alterTable('oauth_clients').addColumn('grant_types', 'text', (c) => c.notNull().defaultTo('authorization_code refresh_token')).execute();

  await db.schema.alterTable('oauth_clients').addColumn('require_par', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // JSON array of exact URIs (OpenID Connect RP-Initiated Logout 1.0 §3).
  await db.schema.alterTable('oauth_clients').addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]')).execute();

  await db.schema
    .createTable('oauth_par_requests')
    // SHA-256 of the random part of the request_uri (256 bits).
    .addColumn('request_uri_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    // The pushed parameters as JSON ({name: [values]}), used instead of the authorize query.
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_par_requests_expiry_idx').on('oauth_par_requests').column('expires_at').execute();

  await db.schema
    .createTable('oauth_device_codes')
    // SHA-256 of the device code (256 random bits) and of the user code (8 letters): neither is stored as it is.
    .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_code_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    // pending -> approved | denied -> used
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('auth_time', 'bigint')
    // Seconds between polls; slow_down adds 5 (RFC 8628 §3.5).
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_device_codes_user_code_idx').on('oauth_device_codes').column('user_code_hash').execute();
  await db.schema.createIndex('oauth_device_codes_expiry_idx').on('oauth_device_codes').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('oauth_device_codes').ifExists().execute();
  await db.schema.dropTable('oauth_par_requests').ifExists().execute();
  await db.schema.alterTable('oauth_clients').dropColumn('require_par').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('post_logout_redirect_uris').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('grant_types').execute();
}
