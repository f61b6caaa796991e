// Issue 20: passkeys (WebAuthn, api-contract §11). The credentials people
// registered (public key, signature counter, when last used) and the pending
// ceremonies' challenges (five minutes, single use: consumed by one DELETE).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The WebAuthn credential ID (base64url), unique across the site.
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    // The COSE public key (base64url).
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON array of transports the authenticator reported, or null.
    .addColumn('transports', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('passkey_challenges')
    // Registration: SHA-256 of the challenge; sign-in: the random id handed out with the options.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    // The user who asked (registration only).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
