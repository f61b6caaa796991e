// The only place with SQL for grants to people and groups (migration 022).
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { FileAccessTable } from '../db/schema.js';
import { boundByMakers } from './backing-repository.js';
import { startsWithInsensitive } from '../db/search.js';

export type GrantRow = Selectable<FileAccessTable>;

/** A grant as its recipient sees it: the item's name and kind and its owner. */
export interface MountRow {
  id: string;
  file_id: string;
  owner_id: string;
  permission: 'read' | 'write';
  reshare: number;
  /** Who made the grant: the owner, or a recipient resharing (bounded by what they hold now). */
  created_by: string;
  created_at: number;
  name: string;
  kind: number;
  owner_nickname: string;
  owner_email: string;
  /** When the item's name and the owner's nickname were last set (0: when made): how long the label has been held. */
  named_at: number;
  nickname_at: number;
}

export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** This repository on another executor (the files service's transaction: grants change with the owner's tree lock held). */
  on(db: Db): AccessRepository {
    return new AccessRepository(db);
  }

  /**
   * Inserts, or changes the permission of the item's existing grant to the
   * same recipient; answers the row. Call it in a transaction holding the
   * owner's tree lock (AccessService does), which serialises it with every
   * other grant change and tree change of the owner.
   */
  async upsert(row: Insertable<FileAccessTable>): Promise<GrantRow> {
    let q = this.db.selectFrom('file_access').selectAll().where('file_id', '=', row.file_id);
    q = row.user_id != null ? q.where('user_id', '=', row.user_id) : q.where('group_id', '=', row.group_id!);
    const existing = await q.executeTakeFirst();
    if (existing) {
      // The grant becomes the new maker's (the service lets only the owner change another's grant), so it is bounded as theirs.
      await this.db.updateTable('file_access').set({ permission: row.permission, reshare: row.reshare ?? 0, created_by: row.created_by }).where('id', '=', existing.id).execute();
      return { ...existing, permission: row.permission, reshare: row.reshare ?? 0, created_by: row.created_by };
    }
    await this.db.insertInto('file_access').values(row).execute();
    return await this.db.selectFrom('file_access').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  }

  /** The existing grant of the item to this person or group, if any. */
  existing(fileId: string, to: { user_id: string } | { group_id: number }): Promise<GrantRow | undefined> {
    let q = this.db.selectFrom('file_access').selectAll().where('file_id', '=', fileId);
    q = 'user_id' in to ? q.where('user_id', '=', to.user_id) : q.where('group_id', '=', to.group_id);
    return q.executeTakeFirst();
  }

  /**
   * The people who hold one of the owner's grants made by one of `makers`
   * (directly or through a group): whose "Shared with me" may change with the makers' access.
   */
  async reachedThrough(ownerId: string, makers: readonly string[]): Promise<string[]> {
    if (!makers.length) return [];
    const grants = await this.db.selectFrom('file_access').select(['user_id', 'group_id']).where('owner_id', '=', ownerId).where('created_by', 'in', makers).execute();
    const out = new Set(grants.flatMap((g) => (g.user_id !== null ? [g.user_id] : [])));
    const groups = [...new Set(grants.flatMap((g) => (g.group_id !== null ? [Number(g.group_id)] : [])))];
    if (groups.length) for (const m of await this.db.selectFrom('users').select('id').where('group_id', 'in', groups).execute()) out.add(m.id);
    return [...out];
  }

  /** Whether the owner still has any grant (their tree keeps its feed audience while so). */
  async ownerHasGrants(ownerId: string): Promise<boolean> {
    return (await this.db.selectFrom('file_access').select('id').where('owner_id', '=', ownerId).limit(1).executeTakeFirst()) !== undefined;
  }

  ofFile(fileId: string): Promise<GrantRow[]> {
    return this.db.selectFrom('file_access').selectAll().where('file_id', '=', fileId).orderBy('created_at').orderBy('id').execute();
  }

  find(id: string): Promise<GrantRow | undefined> {
    return this.db.selectFrom('file_access').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The grants `actorId` gave or manages: every grant on their own items
   * (whoever made it) and the grants they made as a resharer; with the item's
   * name and kind. Newest first, at most `limit`.
   */
  givenBy(actorId: string, limit: number): Promise<(GrantRow & { name: string; kind: number })[]> {
    return this.db
      .selectFrom('file_access as a')
      .innerJoin('files as f', 'f.id', 'a.file_id')
      .selectAll('a')
      .select(['f.name', 'f.kind'])
      .where((eb) => eb.or([eb('a.owner_id', '=', actorId), eb('a.created_by', '=', actorId)]))
      .where('f.pending', '=', 0)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, kind: Number(r.kind) })));
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('file_access').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Every grant that reaches `userId` (to them, or to their group), except on
   * their own items, with the item and its owner; items in the trash are left
   * out; a reshared grant counts for at most what its maker holds now
   * (backing-repository.ts). Oldest first, so names that clash are told apart
   * the same way each time.
   */
  async mountsOf(userId: string): Promise<MountRow[]> {
    const rows = await this.db
      .selectFrom('file_access as a')
      .innerJoin('files as f', 'f.id', 'a.file_id')
      .innerJoin('users as o', 'o.id', 'a.owner_id')
      .select([
        'a.id', 'a.file_id', 'a.owner_id', 'a.permission', 'a.reshare', 'a.created_by', 'a.created_at',
        'f.name', 'f.kind', 'f.named_at', 'o.nickname as owner_nickname', 'o.email as owner_email', 'o.nickname_at',
      ])
      .where((eb) =>
        eb.or([
          eb('a.user_id', '=', userId),
          eb('a.group_id', '=', eb.selectFrom('users').select('group_id').where('id', '=', userId)),
        ]),
      )
      .where('a.owner_id', '!=', userId)
      .where('f.trashed_at', 'is', null)
      .where('f.pending', '=', 0)
      .where('o.status', '=', 'active')
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, reshare: Number(r.reshare), created_at: Number(r.created_at), kind: Number(r.kind), named_at: Number(r.named_at), nickname_at: Number(r.nickname_at) })));
    return boundByMakers(this.db, rows);
  }

  /**
   * Claims the right to mail `userId` about `subject` now: true when they were
   * not mailed about it since `since` (and records `now`), false otherwise. One
   * atomic upsert, so two instances never both send the same notice.
   */
  async claimNotice(userId: string, subject: string, now: number, since: number): Promise<boolean> {
    const res = await this.db
      .insertInto('share_notices')
      .values({ user_id: userId, subject, sent_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'subject']).doUpdateSet({ sent_at: now }).where('share_notices.sent_at', '<=', since))
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Notices older than any period that reads them (the prune job). */
  async pruneNotices(before: number): Promise<void> {
    await this.db.deleteFrom('share_notices').where('sent_at', '<', before).execute();
  }

  async seenAt(userId: string): Promise<number> {
    const row = await this.db.selectFrom('access_seen').select('seen_at').where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.seen_at) : 0;
  }

  async markSeen(userId: string, at: number): Promise<void> {
    await this.db
      .insertInto('access_seen')
      .values({ user_id: userId, seen_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: at }))
      .execute();
  }

  /** The ids of the active members of a group (for notifications). */
  async membersOf(groupId: number): Promise<{ id: string; email: string; locale: string | null }[]> {
    return this.db.selectFrom('users').select(['id', 'email', 'locale']).where('group_id', '=', groupId).where('status', '=', 'active').execute();
  }

  async groupName(groupId: number): Promise<string | undefined> {
    return (await this.db.selectFrom('groups').select('name').where('id', '=', groupId).executeTakeFirst())?.name;
  }

  /**
   * Active people of one group whose e-mail or nickname starts with `prefix`
   * (case-insensitively), but `exceptId`; at most `limit`, by nickname.
   */
  peopleOfGroupByPrefix(groupId: number, prefix: string, exceptId: string, limit: number): Promise<{ id: string; email: string; nickname: string }[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'nickname'])
      .where('group_id', '=', groupId)
      .where('status', '=', 'active')
      .where('id', '<>', exceptId)
      .where((eb) => eb.or([startsWithInsensitive('email', prefix), startsWithInsensitive('nickname', prefix)]))
      .orderBy('nickname')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Groups whose name starts with `prefix` (case-insensitively), only `onlyId` when given; at most `limit`, by name. */
  groupsByPrefix(prefix: string, limit: number, onlyId?: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where(startsWithInsensitive('name', prefix))
      .$if(onlyId !== undefined, (q) => q.where('id', '=', onlyId!))
      .orderBy('name')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async groupExists(groupId: number): Promise<boolean> {
    return (await this.db.selectFrom('groups').select('id').where('id', '=', groupId).executeTakeFirst()) !== undefined;
  }
}
