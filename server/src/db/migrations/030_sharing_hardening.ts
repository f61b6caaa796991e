// Issue 32 (third security review), sharing and upload links.
// - `files.named_at`, `users.nickname_at`: when an item's name and a person's
//   nickname were last set (0 = since the row was made). A "Shared with me"
//   label goes to the grant that has held it longest, so nobody can take a
//   label over by renaming into it (sharing/resolver.ts).
// - `share_notices`: when a person was last told that an item (or a group
//   grant by someone) was shared with them, so a grant, revoke, grant loop
//   sends one mail per period.
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('files').addColumn('named_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('nickname_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('share_notices')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A file id, or "group:<granting user id>" for the notices of group grants.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_notices_pk', ['user_id', 'subject'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('share_notices').execute();
  await db.schema.alterTable('users').dropColumn('nickname_at').execute();
  await db.schema.alterTable('files').dropColumn('named_at').execute();
}
