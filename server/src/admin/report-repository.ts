// Read-only reporting queries for the administrator dashboard. They count
// rows of several features' tables at once (as a database view would); they
// never write, so no feature's rules can be bypassed through them. Recorded
// in docs/features/admin.md.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface Counts {
  users: number;
  files: number;
  storage_used: number;
  shares: number;
  oauth_apps: number;
  active_sessions: number;
}

export interface UserActivity {
  storage_used: number;
  last_sign_in_at: number | null;
}

const DAY_MS = 86_400_000;

export class ReportRepository {
  constructor(private readonly db: Db) {}

  private async count(table: 'users' | 'shares' | 'oauth_clients'): Promise<number> {
    // Team folders' principals (migration 025) are not people.
    const row = await this.db.selectFrom(table).$if(table === 'users', (q) => q.where(sql.ref('status'), '<>', 'team')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async counts(now: number): Promise<Counts> {
    const [users, shares, oauthApps, files, storage, sessions] = await Promise.all([
      this.count('users'),
      this.count('shares'),
      this.count('oauth_clients'),
      this.db.selectFrom('files').where('kind', '=', 1).where('trashed_at', 'is', null).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.db.selectFrom('storage_usage').select((eb) => eb.fn.sum<number | string | null>('used').as('n')).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('sessions')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      users,
      files: Number(files.n),
      storage_used: Number(storage.n ?? 0),
      shares,
      oauth_apps: oauthApps,
      active_sessions: Number(sessions.n),
    };
  }

  /**
   * Rows created per UTC day since `from` (a UTC midnight), keyed by day
   * index (0 = `from`'s day). The day is computed in SQL from the integer
   * millisecond column, the same way on both dialects.
   */
  private async perDay(table: 'users' | 'files', from: number): Promise<Map<number, number>> {
    // Literals, not parameters: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
    const day = sql<number>`cast((created_at - ${sql.lit(Math.floor(from))}) / ${sql.lit(DAY_MS)} as integer)`;
    const rows = await this.db
      .selectFrom(table)
      .where('created_at', '>=', from)
      .$if(table === 'files', (q) => q.where(sql.ref('kind'), '=', 1))
      .$if(table === 'users', (q) => q.where(sql.ref('status'), '<>', 'team'))
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(day)
      .execute();
    return new Map(rows.map((r) => [Math.floor(Number(r.day)), Number(r.n)]));
  }

  async signUpsPerDay(from: number): Promise<Map<number, number>> {
    return this.perDay('users', from);
  }

  async uploadsPerDay(from: number): Promise<Map<number, number>> {
    return this.perDay('files', from);
  }

  /** Storage used and the last password sign-in (first-party session start) of each user asked for. */
  async activity(userIds: string[]): Promise<Map<string, UserActivity>> {
    const out = new Map<string, UserActivity>(userIds.map((id) => [id, { storage_used: 0, last_sign_in_at: null }]));
    if (userIds.length === 0) return out;
    const [usage, signIns] = await Promise.all([
      this.db.selectFrom('storage_usage').select(['user_id', 'used']).where('user_id', 'in', userIds).execute(),
      this.db
        .selectFrom('sessions')
        .select(['user_id', (eb) => eb.fn.max('created_at').as('at')])
        .where('user_id', 'in', userIds)
        .where('client_id', 'is', null)
        .groupBy('user_id')
        .execute(),
    ]);
    for (const u of usage) out.get(u.user_id)!.storage_used = Number(u.used);
    for (const s of signIns) out.get(s.user_id)!.last_sign_in_at = s.at === null ? null : Number(s.at);
    return out;
  }
}
