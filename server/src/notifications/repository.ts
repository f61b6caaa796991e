// The only SQL of notifications (migration 040).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, NotificationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/errors.js';

export type NotificationRow = Selectable<NotificationsTable>;

export interface NewNotification {
  id: string;
  userId: string;
  type: string;
  at: number;
  data: string;
  web: boolean;
  digest: boolean;
}

export class NotificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Appends one notification with the person's next seq. Two writers for the
   * same person compute the same seq; the unique index makes the second wait
   * for the first and fail, and it tries again with the next number: seq
   * order is commit order, which the live stream relies on.
   */
  async insert(n: NewNotification): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.db
          .insertInto('notifications')
          .columns(['id', 'user_id', 'seq', 'type', 'at', 'data', 'read_at', 'web', 'digest'])
          .expression(
            this.db
              .selectFrom('notifications')
              .where('user_id', '=', n.userId)
              .select([
                sql<string>`cast(${n.id} as text)`.as('id'),
                sql<string>`cast(${n.userId} as text)`.as('user_id'),
                sql<number>`coalesce(max(seq), 0) + 1`.as('seq'),
                sql<string>`cast(${n.type} as text)`.as('type'),
                sql<number>`cast(${n.at} as bigint)`.as('at'),
                sql<string>`cast(${n.data} as text)`.as('data'),
                sql<null>`null`.as('read_at'),
                sql<number>`cast(${n.web ? 1 : 0} as integer)`.as('web'),
                sql<number>`cast(${n.digest ? 1 : 0} as integer)`.as('digest'),
              ]),
          )
          .returning('seq')
          .executeTakeFirstOrThrow();
        return Number(row.seq);
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 20) throw err;
      }
    }
  }

  /** Up to `limit` shown notifications, newest first, older than seq `before` when given. */
  page(userId: string, before: number | null, limit: number): Promise<NotificationRow[]> {
    let q = this.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('web', '=', 1);
    if (before !== null) q = q.where('seq', '<', before);
    return q.orderBy('seq', 'desc').limit(limit).execute();
  }

  async unread(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('web', '=', 1)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The shown notifications after seq `after`, oldest first (the live stream). */
  after(userId: string, after: number, limit: number): Promise<NotificationRow[]> {
    return this.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('seq', '>', after).where('web', '=', 1).orderBy('seq').limit(limit).execute();
  }

  async head(userId: string): Promise<number> {
    const row = await this.db.selectFrom('notifications').select((eb) => eb.fn.max('seq').as('seq')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** The last seq of each of these people (absent: none yet); one query per 500. */
  async heads(userIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < userIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('notifications')
        .select(['user_id', (eb) => eb.fn.max('seq').as('seq')])
        .where('user_id', 'in', userIds.slice(i, i + 500))
        .groupBy('user_id')
        .execute();
      for (const r of rows) out.set(r.user_id, Number(r.seq));
    }
    return out;
  }

  /** Marks one of the person's notifications read or unread; false when it is not theirs (or not shown). */
  async setRead(userId: string, id: string, readAt: number | null): Promise<NotificationRow | undefined> {
    return this.db.updateTable('notifications').set({ read_at: readAt }).where('id', '=', id).where('user_id', '=', userId).where('web', '=', 1).returningAll().executeTakeFirst();
  }

  async readAll(userId: string, at: number): Promise<number> {
    const r = await this.db.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async settings(userId: string): Promise<{ prefs: string; digest_at: number | null; quota_warned: number } | undefined> {
    return this.db.selectFrom('notification_settings').select(['prefs', 'digest_at', 'quota_warned']).where('user_id', '=', userId).executeTakeFirst();
  }

  async savePrefs(userId: string, prefs: string): Promise<void> {
    await this.db
      .insertInto('notification_settings')
      .values({ user_id: userId, prefs, digest_at: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ prefs }))
      .execute();
  }

  /**
   * Sets the "storage almost full" mark to `warned`; true when it changed
   * (a compare-and-set: of two instances crossing the mark at once, one tells).
   */
  async markQuota(userId: string, warned: boolean): Promise<boolean> {
    await this.db.insertInto('notification_settings').values({ user_id: userId, prefs: '{}', digest_at: null }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    const r = await this.db
      .updateTable('notification_settings')
      .set({ quota_warned: warned ? 1 : 0 })
      .where('user_id', '=', userId)
      .where('quota_warned', '=', warned ? 0 : 1)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** People with notifications waiting for a digest, and when their last digest went. */
  async digestDue(limit: number): Promise<{ user_id: string; digest_at: number | null }[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .leftJoin('notification_settings', 'notification_settings.user_id', 'notifications.user_id')
      .select(['notifications.user_id as user_id', 'notification_settings.digest_at as digest_at'])
      .where('notifications.digest', '=', 1)
      .groupBy(['notifications.user_id', 'notification_settings.digest_at'])
      .limit(limit)
      .execute();
    return rows.map((r) => ({ user_id: r.user_id, digest_at: r.digest_at === null ? null : Number(r.digest_at) }));
  }

  /**
   * Claims the person's digest: moves `digest_at` from what was read to now.
   * Of two instances, one wins; the other sends nothing.
   */
  async claimDigest(userId: string, seen: number | null, now: number): Promise<boolean> {
    await this.db.insertInto('notification_settings').values({ user_id: userId, prefs: '{}', digest_at: null }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    let q = this.db.updateTable('notification_settings').set({ digest_at: now }).where('user_id', '=', userId);
    q = seen === null ? q.where('digest_at', 'is', null) : q.where('digest_at', '=', seen);
    return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
  }

  /** Takes the person's waiting notifications out of the digest queue and answers them, oldest first. */
  async takeDigest(userId: string): Promise<NotificationRow[]> {
    const rows = await this.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('digest', '=', 1).orderBy('seq').limit(500).execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('notifications')
      .set({ digest: 0 })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
    return rows;
  }

  async deleteUser(userId: string): Promise<void> {
    await this.db.deleteFrom('notifications').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('notification_settings').where('user_id', '=', userId).execute();
  }

  /** Notifications older than `before` go (the retention job). */
  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('notifications').where('at', '<', before).where('digest', '=', 0).execute();
  }
}
