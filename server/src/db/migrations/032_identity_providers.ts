// Issue 34: sign-in through upstream identity providers (api-contract §15).
// The providers an administrator connected (OpenID Connect or LDAP), the
// identities people linked to their accounts, the pending browser round trips
// to a provider (single-use state), the one-time codes the callback hands to
// the web app, and which session family came from which upstream session (for
// back-channel logout and the upstream end-session).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('identity_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    // JSON of the type's settings, without the secret.
    .addColumn('config', 'text', (c) => c.notNull())
    // The client secret or bind password, sealed with a key derived from the master key (AES-256-GCM); '' for none.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    // OpenID Connect `sub`, or the LDAP entry's DN.
    .addColumn('subject', 'text', (c) => c.notNull())
    // The directory login (LDAP) or the address the provider gave, as last seen.
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('user_identities_subject').unique().on('user_identities').columns(['provider_id', 'subject']).execute();
  await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('sso_states')
    // SHA-256 of the `state` sent to the provider.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    // SHA-256 of the browser cookie the state is bound to.
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    // Set when a signed-in person links another identity.
    .addColumn('link_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_states_expiry').on('sso_states').column('expires_at').execute();

  await db.schema
    .createTable('sso_codes')
    // SHA-256 of the one-time code handed to the web app.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('upstream_sid', 'text')
    .addColumn('id_token', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_codes_expiry').on('sso_codes').column('expires_at').execute();

  await db.schema
    .createTable('sso_sessions')
    // The Cirrus session family signed in through the provider.
    .addColumn('family_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('upstream_sid', 'text')
    // Kept as the id_token_hint of the upstream end-session request.
    .addColumn('id_token', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_sessions_subject').on('sso_sessions').columns(['provider_id', 'subject']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sso_sessions').execute();
  await db.schema.dropTable('sso_codes').execute();
  await db.schema.dropTable('sso_states').execute();
  await db.schema.dropTable('user_identities').execute();
  await db.schema.dropTable('identity_providers').execute();
}
