// Issue 22: sharing with people and groups (api-contract §13). A grant is keyed
// by the shared item's file id, so it follows the item through moves and
// renames; it names either one user or one group. `access_seen` remembers when
// each person last looked at "Shared with me" (the web app's badge).
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('file_access')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('cascade'))
    // 'read' | 'write'
    .addColumn('permission', 'text', (c) => c.notNull())
    // 1: the recipient may grant access to others in turn (never more than they hold).
    .addColumn('reshare', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_access_file').on('file_access').column('file_id').execute();
  await db.schema.createIndex('file_access_user').on('file_access').column('user_id').execute();
  await db.schema.createIndex('file_access_group').on('file_access').column('group_id').execute();
  // One grant per item and recipient: a second PUT changes the permission.
  await db.schema.createIndex('file_access_file_user').on('file_access').columns(['file_id', 'user_id']).unique().execute();
  await db.schema.createIndex('file_access_file_group').on('file_access').columns(['file_id', 'group_id']).unique().execute();

  await db.schema
    .createTable('access_seen')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('access_seen').execute();
  await db.schema.dropTable('file_access').execute();
}
