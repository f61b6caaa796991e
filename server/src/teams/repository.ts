// The only place with SQL for team folders (migration 025): the folders, the
// admin's per-member overrides, and the principal row in `users` (status
// 'team') that owns each folder's tree.
import type { Db } from '../db/database.js';
import type { TeamFoldersTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import { compileOnce, type Slot } from '../db/compiled.js';

export type TeamFolderRow = Selectable<TeamFoldersTable>;
export type MemberPermission = 'read' | 'write' | 'none';

/** A team folder as one member reaches it. */
export interface TeamMountRow {
  id: string;
  owner_id: string;
  name: string;
  created_at: number;
  /** The group's permission, or the member's override; never 'none' (those are left out). */
  permission: 'read' | 'write';
}

export interface TeamFolderWithQuota extends TeamFolderRow {
  storage_quota: number;
  used: number;
}

function mountsStatement(db: Db) {
  return compileOnce(db, (v: Slot<{ userId: string }>) =>
    db
      .selectFrom('team_folders as t')
      .innerJoin('users as u', (j) => j.onRef('u.group_id', '=', 't.group_id').on('u.id', '=', v('userId')).on('u.status', '=', 'active'))
      .leftJoin('team_folder_members as m', (j) => j.onRef('m.team_id', '=', 't.id').on('m.user_id', '=', v('userId')))
      .select(['t.id', 't.owner_id', 't.name', 't.created_at', 't.permission', 'm.permission as override'])
      .orderBy('t.created_at')
      .orderBy('t.id'),
  );
}

export class TeamRepository {
  /** Runs on every request that names a path (teams/resolver.ts): compiled once. */
  private readonly mountsStmt: ReturnType<typeof mountsStatement>;

  constructor(private readonly db: Db) {
    this.mountsStmt = mountsStatement(db);
  }

  /**
   * The team folders `userId` reaches now: those of their group, unless an
   * override says 'none'. Only active people have any (a banned or deleted
   * member has none, at once). One indexed query; oldest first.
   */
  async mountsOf(userId: string): Promise<TeamMountRow[]> {
    const { rows } = await this.mountsStmt.run({ userId });
    const out: TeamMountRow[] = [];
    for (const r of rows) {
      const permission = r.override ?? r.permission;
      if (permission === 'none') continue;
      out.push({ id: r.id, owner_id: r.owner_id, name: r.name, created_at: Number(r.created_at), permission });
    }
    return out;
  }

  /** The team folders of a group (or all), with quota and usage. */
  async list(groupId?: number): Promise<TeamFolderWithQuota[]> {
    const rows = await this.db
      .selectFrom('team_folders as t')
      .innerJoin('users as u', 'u.id', 't.owner_id')
      .leftJoin('storage_usage as s', 's.user_id', 't.owner_id')
      .selectAll('t')
      .select(['u.storage_quota', 's.used'])
      .$if(groupId !== undefined, (q) => q.where('t.group_id', '=', groupId!))
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute();
    return rows.map((r) => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at), storage_quota: Number(r.storage_quota ?? 0), used: Number(r.used ?? 0) }));
  }

  async find(id: string): Promise<TeamFolderWithQuota | undefined> {
    const rows = await this.db
      .selectFrom('team_folders as t')
      .innerJoin('users as u', 'u.id', 't.owner_id')
      .leftJoin('storage_usage as s', 's.user_id', 't.owner_id')
      .selectAll('t')
      .select(['u.storage_quota', 's.used'])
      .where('t.id', '=', id)
      .execute();
    const r = rows[0];
    return r && { ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at), storage_quota: Number(r.storage_quota ?? 0), used: Number(r.used ?? 0) };
  }

  /** Whether the group already has a team folder of this name (case-insensitively), other than `exceptId`. */
  async nameTaken(groupId: number, name: string, exceptId?: string): Promise<boolean> {
    const rows = await this.db.selectFrom('team_folders').select(['id', 'name']).where('group_id', '=', groupId).execute();
    return rows.some((r) => r.id !== exceptId && r.name.toLowerCase() === name.toLowerCase());
  }

  /** The folder and its principal, in one transaction. */
  async insert(team: TeamFolderRow, quota: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('users')
        .values({
          id: team.owner_id,
          // Not an e-mail address (no "@"): no sign-in, sign-up, reset or lookup can ever name it.
          email: `team:${team.id}`,
          nickname: team.name.slice(0, 64),
          password_hash: '!',
          group_id: team.group_id,
          status: 'team',
          storage_quota: quota,
          totp_secret: null,
          totp_pending_secret: null,
          totp_last_step: null,
          tokens_valid_after: 0,
          avatar_at: null,
          email_verified: 0,
          locale: null,
          created_at: team.created_at,
          updated_at: team.created_at,
        })
        .execute();
      await tx.insertInto('team_folders').values(team).execute();
      // Members follow the team's changes in their feeds (teams/audience-repository.ts): the tree is flagged from the start.
      await tx.insertInto('storage_usage').values({ user_id: team.owner_id, used: 0, reserved: 0, feed_audience: 1 }).execute();
    });
  }

  async update(team: TeamFolderRow, patch: { name?: string; permission?: 'read' | 'write'; quota?: number }, now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('team_folders')
        .set({ ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.permission !== undefined ? { permission: patch.permission } : {}), updated_at: now })
        .where('id', '=', team.id)
        .execute();
      if (patch.quota !== undefined || patch.name !== undefined) {
        await tx
          .updateTable('users')
          .set({ ...(patch.quota !== undefined ? { storage_quota: patch.quota } : {}), ...(patch.name !== undefined ? { nickname: patch.name.slice(0, 64) } : {}), updated_at: now })
          .where('id', '=', team.owner_id)
          .where('status', '=', 'team')
          .execute();
      }
    });
  }

  /** Deletes the principal (its folder and overrides follow by cascade); its files must be gone first. */
  async deletePrincipal(ownerId: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', ownerId).where('status', '=', 'team').execute();
  }

  overrides(teamId: string): Promise<{ user_id: string; permission: MemberPermission; email: string; nickname: string }[]> {
    return this.db
      .selectFrom('team_folder_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.permission', 'u.email', 'u.nickname'])
      .where('m.team_id', '=', teamId)
      .orderBy('u.email')
      .execute();
  }

  async setOverride(teamId: string, userId: string, permission: MemberPermission | null): Promise<void> {
    if (permission === null) {
      await this.db.deleteFrom('team_folder_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
      return;
    }
    await this.db
      .insertInto('team_folder_members')
      .values({ team_id: teamId, user_id: userId, permission })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ permission }))
      .execute();
  }

  /** A person (never a principal) by id, with their group. */
  person(id: string): Promise<{ id: string; group_id: number; status: string } | undefined> {
    return this.db.selectFrom('users').select(['id', 'group_id', 'status']).where('id', '=', id).where('status', '<>', 'team').executeTakeFirst();
  }

  async groupExists(groupId: number): Promise<boolean> {
    return (await this.db.selectFrom('groups').select('id').where('id', '=', groupId).executeTakeFirst()) !== undefined;
  }
}
