// The only place with SQL for user groups.
import type { Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { GroupsTable } from '../db/schema.js';
import type { GroupRow } from './repository.js';

export type GroupWithCount = GroupRow & { user_count: number };

export class GroupRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<GroupWithCount[]> {
    const rows = await this.db
      .selectFrom('groups')
      .selectAll('groups')
      .select((eb) => eb.selectFrom('users').whereRef('users.group_id', '=', 'groups.id').where('users.status', '<>', 'team').select(eb.fn.countAll<number>().as('n')).as('user_count'))
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }));
  }

  find(id: number): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<GroupRow | undefined> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
  }

  /** Groups have explicit integer ids on both dialects (the built-in ones are 1 and 2): the next one is max + 1. */
  async insert(group: Omit<GroupRow, 'id'>): Promise<number> {
    const row = await this.db.selectFrom('groups').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
    const id = Number(row?.max ?? 0) + 1;
    await this.db.insertInto('groups').values({ ...group, id }).execute();
    return id;
  }

  async update(id: number, patch: Updateable<GroupsTable>): Promise<void> {
    await this.db.updateTable('groups').set(patch).where('id', '=', id).execute();
  }

  /** Deletes the group only while no user is in it (checked in the same statement, so a user added meanwhile keeps it). */
  async deleteIfEmpty(id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('groups')
      .where('id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.group_id', '=', 'groups.id'))))
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async countUsers(id: number): Promise<number> {
    const row = await this.db.selectFrom('users').where('group_id', '=', id).where('status', '<>', 'team').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The group's team folders (their principals keep the group from being deleted). */
  async countTeamFolders(id: number): Promise<number> {
    const row = await this.db.selectFrom('users').where('group_id', '=', id).where('status', '=', 'team').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Active users with administrator rights in the given group. */
  countActiveAdmins(groupId: number): Promise<number> {
    return this.countAdmins('=', groupId);
  }

  /** Active users with administrator rights outside the given group. */
  countActiveAdminsOutside(groupId: number): Promise<number> {
    return this.countAdmins('<>', groupId);
  }

  private async countAdmins(op: '=' | '<>', groupId: number): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .where('groups.is_admin', '=', 1)
      .where('users.status', '=', 'active')
      .where('groups.id', op, groupId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
