// The client-authentication throttle without a database read when there is
// nothing to throttle. Almost every request at the token endpoint comes from a
// client (and address) that has never failed; reading login_throttle for each
// one costs a round trip. This remembers, per instance and for at most
// CLEAN_MS, the keys the database showed with no row at all. The rules:
// - only "no row" is remembered: a key with any failure recorded (locked or
//   not) is read from the database on every check;
// - a failure counted on this instance forgets the key at once, and a check
//   that was in flight when it happened is not remembered (generation);
// - failures counted on other instances are seen within CLEAN_MS (≤ 1 s);
//   docs/security.md states this bound.
import type { LoginThrottle, ThrottlePolicy } from '../../sessions/login-throttle.js';

export const CLEAN_MS = 1000;
const MAX_KEYS = 20_000;

export class RememberingThrottle {
  /** key -> when the database last showed it without a row. */
  private readonly clean = new Map<string, number>();
  private generation = 0;

  constructor(private readonly throttle: LoginThrottle) {}

  /** Throws 429 when any of the keys is locked (LoginThrottle.check). */
  async check(keys: readonly string[], now = Date.now()): Promise<void> {
    if (keys.every((k) => this.isClean(k, now))) return;
    const generation = this.generation;
    const present = await this.throttle.check([...keys], now);
    if (generation !== this.generation) return;
    for (const k of keys) if (!present.has(k)) this.remember(k, now);
  }

  async fail(key: string, policy: ThrottlePolicy, now = Date.now()): Promise<void> {
    this.forget(key);
    try {
      await this.throttle.fail(key, policy, now);
    } finally {
      this.forget(key);
    }
  }

  private isClean(key: string, now: number): boolean {
    const at = this.clean.get(key);
    return at !== undefined && now - at < CLEAN_MS && now >= at;
  }

  private remember(key: string, now: number): void {
    this.clean.delete(key);
    if (this.clean.size >= MAX_KEYS) {
      const oldest = this.clean.keys().next().value;
      if (oldest !== undefined) this.clean.delete(oldest);
    }
    this.clean.set(key, now);
  }

  private forget(key: string): void {
    this.generation++;
    this.clean.delete(key);
  }
}
