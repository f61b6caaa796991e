import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('homepage_url', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON array of exact URIs; matched as strings, never normalized.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    // HMAC-SHA256 of the secret under a pepper derived from the master key; null for public clients.
    .addColumn('secret_hash', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_clients_created_idx').on('oauth_clients').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('oauth_grants')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_grants_pk', ['user_id', 'client_id'])
    .execute();
  await db.schema.createIndex('oauth_grants_client_idx').on('oauth_grants').column('client_id').execute();

  await db.schema
    .createTable('oauth_codes')
    // SHA-256 of the code: a leaked table does not hand out codes.
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('nonce', 'text')
    .addColumn('auth_time', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    // The session family the exchange produced, so that a replay can revoke it.
    .addColumn('sid', 'text')
    .addColumn('reused_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_codes_expiry_idx').on('oauth_codes').column('expires_at').execute();
  await db.schema.createIndex('oauth_codes_grant_idx').on('oauth_codes').columns(['user_id', 'client_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['oauth_codes', 'oauth_grants', 'oauth_clients']) await db.schema.dropTable(t).ifExists().execute();
}
