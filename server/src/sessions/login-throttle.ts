// Guessing protection for sign-in (and the second factor). Failures are
// counted per account and per client address in the database, so every
// instance sees the same counts. Past a free allowance each further failure
// doubles the lock-out (capped); while locked, attempts are answered 429 with
// Retry-After before any password is checked. Successes are never delayed and
// clear the account's counter, so many people behind one address still get in.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DomainError, ErrorCode } from '../core/errors.js';

export interface ThrottlePolicy {
  freeFailures: number;
  maxLockMs: number;
  windowMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 50, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
/** Longer than every policy's window (sign-in, OAuth clients, share passwords: 15 min), so pruning never resets a live count. */
export const THROTTLE_RETENTION_MS = 24 * 3600_000;

export class LoginThrottle {
  constructor(private readonly db: Db) {}

  /** Throws 429 when any of the keys is locked; otherwise the keys that have a row (any failure recorded). */
  async check(keys: string[], now = Date.now()): Promise<Set<string>> {
    const rows = await this.db.selectFrom('login_throttle').select(['key', 'locked_until']).where('key', 'in', keys).execute();
    const until = Math.max(0, ...rows.map((r) => r.locked_until));
    if (until > now) {
      const seconds = Math.max(1, Math.ceil((until - now) / 1000));
      throw new DomainError(ErrorCode.TooManyRequests, `Too many failed attempts; try again in ${seconds} s`, { retryAfterSeconds: seconds });
    }
    return new Set(rows.map((r) => r.key));
  }

  async fail(key: string, policy: ThrottlePolicy, now = Date.now()): Promise<void> {
    // One atomic upsert counts the failure: a read-then-write would lose
    // counts when guesses arrive in parallel (and halve the protection).
    const windowFloor = now - policy.windowMs;
    const row = await this.db
      .insertInto('login_throttle')
      .values({ key, failures: 1, window_start: now, locked_until: 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`CASE WHEN login_throttle.window_start < ${windowFloor} THEN 1 ELSE login_throttle.failures + 1 END`,
          window_start: sql<number>`CASE WHEN login_throttle.window_start < ${windowFloor} THEN ${now} ELSE login_throttle.window_start END`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    const over = Number(row.failures) - policy.freeFailures;
    if (over <= 0) return;
    const lockedUntil = now + Math.min(policy.maxLockMs, 1000 * 2 ** Math.min(over - 1, 20));
    await this.db.updateTable('login_throttle').set({ locked_until: lockedUntil }).where('key', '=', key).where('locked_until', '<', lockedUntil).execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', '=', key).execute();
  }

  /**
   * Forgets keys whose counting window started before `windowStartedBefore`
   * and whose lock has ended: their next failure would start counting from
   * one anyway, so the row only took space (every guessed address and e-mail
   * left one behind).
   */
  async prune(windowStartedBefore: number, now = Date.now()): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('window_start', '<', windowStartedBefore).where('locked_until', '<=', now).execute();
  }
}
