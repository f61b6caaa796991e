// Issue 22, team folders. A team folder is the whole tree of a principal row in
// `users` with status 'team' (never signs in; excluded from every list of
// people), so quota, storage usage, the tree lock, trash and versions are the
// file feature's own, per owner. `team_folders` says which group mounts it,
// under which name, with which permission; `team_folder_members` holds the
// admin's per-member overrides ('read' | 'write' | 'none').
import type { AnyDb } from './util.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('team_folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The principal that owns the tree; deleting it (with its files) deletes the folder.
    .addColumn('owner_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // 'read' | 'write': what every member of the group may do, unless overridden.
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_folders_group').on('team_folders').column('group_id').execute();

  await db.schema
    .createTable('team_folder_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('team_folders.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'read' | 'write' | 'none'; applies only while the user is in the folder's group.
    .addColumn('permission', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_folder_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_folder_members_user').on('team_folder_members').column('user_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('team_folder_members').execute();
  await db.schema.dropTable('team_folders').execute();
}
