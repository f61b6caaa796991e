// The database store of the guess limit: one row per key in login_throttle.
// Each method is one statement, so it is atomic on SQLite and PostgreSQL
// alike: reserve is a single INSERT ... ON CONFLICT DO UPDATE ... WHERE
// (locked rows are not updated and return nothing) ... RETURNING.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { lockDuration, lockSteps, type Reservation, type ReserveResult, type ThrottlePolicy, type ThrottleStore } from './store.js';

export class SqlThrottleStore implements ThrottleStore {
  constructor(private readonly db: Db) {}

  async reserve(key: string, policy: ThrottlePolicy, now: number, uncounted: number): Promise<ReserveResult> {
    const floor = now - policy.windowMs;
    const count = sql<number>`(CASE WHEN login_throttle.window_start < ${floor} THEN 1 ELSE login_throttle.failures + 1 END)`;
    const firstLock = now + lockDuration(policy, 1 + uncounted - policy.freeFailures);
    const row = await this.db
      .insertInto('login_throttle')
      .values({ key, failures: 1, window_start: now, locked_until: 1 + uncounted > policy.freeFailures ? firstLock : 0 })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            failures: count,
            window_start: sql<number>`CASE WHEN login_throttle.window_start < ${floor} THEN ${now} ELSE login_throttle.window_start END`,
            locked_until: sql<number>`CASE WHEN ${count} + ${uncounted} > ${policy.freeFailures} THEN ${lockUntil(policy, sql`${count} + ${uncounted}`, now)} ELSE login_throttle.locked_until END`,
          })
          .where('login_throttle.locked_until', '<=', now),
      )
      .returning(['window_start', 'locked_until'])
      .executeTakeFirst();
    if (row) {
      const lockedUntil = Number(row.locked_until);
      return { ok: true, reservation: { key, windowStart: Number(row.window_start), lockSet: lockedUntil > now ? lockedUntil : 0 } };
    }
    const locked = await this.db.selectFrom('login_throttle').select('locked_until').where('key', '=', key).executeTakeFirst();
    return { ok: false, lockedUntil: locked ? Number(locked.locked_until) : now };
  }

  async release(r: Reservation): Promise<void> {
    await this.db
      .updateTable('login_throttle')
      .set({
        failures: sql<number>`CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END`,
        locked_until: r.lockSet > 0 ? sql<number>`CASE WHEN locked_until = ${r.lockSet} THEN 0 ELSE locked_until END` : sql<number>`locked_until`,
      })
      .where('key', '=', r.key)
      .where('window_start', '=', r.windowStart)
      .execute();
  }

  async record(key: string, policy: ThrottlePolicy, now: number): Promise<void> {
    const floor = now - policy.windowMs;
    const count = sql<number>`(CASE WHEN login_throttle.window_start < ${floor} THEN 1 ELSE login_throttle.failures + 1 END)`;
    const until = lockUntil(policy, count, now);
    await this.db
      .insertInto('login_throttle')
      .values({ key, failures: 1, window_start: now, locked_until: 1 > policy.freeFailures ? now + lockDuration(policy, 1 - policy.freeFailures) : 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: count,
          window_start: sql<number>`CASE WHEN login_throttle.window_start < ${floor} THEN ${now} ELSE login_throttle.window_start END`,
          locked_until: sql<number>`CASE WHEN ${count} > ${policy.freeFailures} AND ${until} > login_throttle.locked_until THEN ${until} ELSE login_throttle.locked_until END`,
        }),
      )
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', '=', key).execute();
  }

  async present(keys: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.selectFrom('login_throttle').select('key').where('key', 'in', [...keys]).execute();
    return new Set(rows.map((r) => r.key));
  }

  async prune(windowStartedBefore: number, now: number): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('window_start', '<', windowStartedBefore).where('locked_until', '<=', now).execute();
  }
}

/**
 * now + lockDuration(policy, n - freeFailures) for a count computed in SQL,
 * as a CASE over the few distinct durations (no POWER() in every SQLite build).
 */
function lockUntil(policy: ThrottlePolicy, n: RawBuilder<number>, now: number): RawBuilder<number> {
  const steps = lockSteps(policy);
  if (steps.length === 1) return sql<number>`CAST(${now + steps[0]!} AS bigint)`;
  const whens = steps.slice(0, -1).map((d, i) => sql`WHEN ${n} - ${policy.freeFailures} = ${i + 1} THEN CAST(${now + d} AS bigint)`);
  return sql<number>`(CASE ${sql.join(whens, sql` `)} ELSE CAST(${now + steps[steps.length - 1]!} AS bigint) END)`;
}
