import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { GroupsTable, UsersTable, UserRow, UserWithGroup } from '../db/schema.js';
import { containsInsensitive, type SortDirection } from '../db/search.js';

export interface UserListQuery {
  /** Matches the e-mail, the nickname or the UID. */
  keyword?: string;
  orderBy?: 'created_at' | 'email' | 'nickname';
  direction?: SortDirection;
}

export type GroupRow = Selectable<GroupsTable>;
export type { UserRow, UserWithGroup };

export class AccountRepository {
  constructor(private readonly db: Db) {}

  private withGroup() {
    return this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .selectAll('users')
      .select(['groups.name as group_name', 'groups.is_admin as group_is_admin', 'groups.storage_quota as group_quota'])
      // A team folder's principal (migration 025) is no person: never found, listed, counted or signed in.
      .where('users.status', '<>', 'team');
  }

  async statusOf(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirst())?.status;
  }

  /** The quota of any tree owner, a person or a team folder's principal (the file feature's quota lookup). */
  findQuotaOwner(id: string): Promise<{ storage_quota: number | null; group_quota: number } | undefined> {
    return this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .select(['users.storage_quota', 'groups.storage_quota as group_quota'])
      .where('users.id', '=', id)
      .executeTakeFirst();
  }

  findById(id: string): Promise<UserWithGroup | undefined> {
    return this.withGroup().where('users.id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserWithGroup | undefined> {
    return this.withGroup().where('users.email', '=', email).executeTakeFirst();
  }

  async insert(user: Insertable<UsersTable>): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
  }

  async update(id: string, patch: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Compare-and-set of the last used TOTP step, so one code cannot be replayed. */
  async claimTotpStep(id: string, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('users').where('id', '=', id).where('status', '<>', 'team').executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async count(q: UserListQuery = {}): Promise<number> {
    const keyword = q.keyword?.trim();
    const row = await this.db
      .selectFrom('users')
      .where('users.status', '<>', 'team')
      .$if(Boolean(keyword), (qb) => qb.where((eb) => eb.or([containsInsensitive('email', keyword!), containsInsensitive('nickname', keyword!), containsInsensitive('id', keyword!)])))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countActiveAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .where('groups.is_admin', '=', 1)
      .where('users.status', '=', 'active')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(offset: number, limit: number, q: UserListQuery = {}): Promise<UserWithGroup[]> {
    const keyword = q.keyword?.trim();
    const direction = q.direction ?? 'asc';
    return this.withGroup()
      .$if(Boolean(keyword), (qb) =>
        qb.where((eb) => eb.or([containsInsensitive('users.email', keyword!), containsInsensitive('users.nickname', keyword!), containsInsensitive('users.id', keyword!)])),
      )
      .orderBy(`users.${q.orderBy ?? 'created_at'}`, direction)
      .orderBy('users.id', direction)
      .offset(offset)
      .limit(limit)
      .execute();
  }

  findGroup(id: number): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listGroups(): Promise<GroupRow[]> {
    return this.db.selectFrom('groups').selectAll().orderBy('id').execute();
  }

  async insertGroupIfAbsent(group: GroupRow): Promise<void> {
    await this.db.insertInto('groups').values(group).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}
