// The one guess limit of the project (sign-in, second factor, OAuth client
// secrets, share passwords; WebDAV Basic later). A guess is checked only
// after an attempt has been reserved for it in the store, atomically, before
// the slow check (argon2 and the like); the reservation is kept when the
// guess was wrong and given back when it was right or never checked. So at
// most the policy's number of guesses is ever checked per window, whatever
// the concurrency: parallel requests cannot all pass a read made before the
// first failure was counted.
//
//   const user = await throttle.attempt(
//     [{ key: `acct:${email}`, policy: ACCOUNT_POLICY, clearOnSuccess: true }, { key: `addr:${ip}`, policy: ADDRESS_POLICY }],
//     () => accounts.checkCredentials(email, password),   // falsy = wrong guess
//   );
//
// A target that is locked makes attempt() throw the 429 (Retry-After, and a
// message with the time left in words) before the check runs.
//
// Optional memory (hot paths such as the token endpoint, where nearly every
// request comes from a client that has never failed): keys the store showed
// without any count are remembered as clean for at most `rememberCleanMs`;
// while a key is clean, up to freeFailures attempts may be in flight on this
// instance without a store write. Those in-flight attempts are passed to
// reserve() as `uncounted`, so on one instance the bound stays exact; a
// failure is recorded at once and makes the key unclean. With several
// instances each may admit up to freeFailures such attempts within the
// memory's span (docs/security.md).
import { LRUCache } from 'lru-cache';
import { DomainError, ErrorCode } from '../core/errors.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Reservation, ThrottlePolicy, ThrottleStore } from './store.js';

export type { ThrottlePolicy, ThrottleStore } from './store.js';

export const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 50, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
/** Longer than every policy's window, so pruning never resets a live count. */
export const THROTTLE_RETENTION_MS = 24 * 3600_000;

export interface ThrottleTarget {
  key: string;
  policy: ThrottlePolicy;
  /**
   * A right guess forgets this key's failures (an account's or a share's
   * count: the person knows the secret). Otherwise a right guess only gives
   * back its own attempt (an address's count: other people behind the same
   * address may still be guessing).
   */
  clearOnSuccess?: boolean;
}

export interface ThrottleOptions {
  /** Remember keys without any count for this long (0: never; see above). */
  rememberCleanMs?: number;
  clock?: Clock;
}

const MAX_REMEMBERED = 20_000;

type Held = { target: ThrottleTarget; kind: 'store'; reservation: Reservation } | { target: ThrottleTarget; kind: 'local' };

/** The 429 for a lock that ends at `until`. */
export function lockedError(until: number, now: number): DomainError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new DomainError(ErrorCode.TooManyRequests, `Too many failed attempts; try again in ${inWords(seconds)}`, { retryAfterSeconds: seconds });
}

/** "1 second", "40 seconds", "3 minutes" (rounded up): what a person reads in the message. */
export function inWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** One less for `key`; the entry goes at zero. */
function countDown(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

export class Throttle {
  private readonly rememberMs: number;
  private readonly clock: Clock;
  /** key -> when the store last showed it without a count. */
  private readonly clean = new LRUCache<string, number>({ max: MAX_REMEMBERED });
  /** key -> attempts admitted on this instance without a store write, still in flight. */
  private readonly inFlight = new Map<string, number>();
  /** key -> failures admitted locally whose record() has not finished yet. */
  private readonly recording = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly store: ThrottleStore,
    options: ThrottleOptions = {},
  ) {
    this.rememberMs = options.rememberCleanMs ?? 0;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Reserves an attempt on every target, then runs `check`. A falsy result
   * is a wrong guess: the attempts stay counted. A truthy one is a right
   * guess: the attempts are given back (or the key cleared). An exception
   * from `check` means nothing was guessed: the attempts are given back and
   * the exception passes on. Throws the 429 when a target is locked.
   */
  async attempt<T>(targets: readonly ThrottleTarget[], check: () => Promise<T> | T): Promise<T> {
    const held = await this.reserveAll(targets, true);
    let result: T;
    try {
      result = await check();
    } catch (err) {
      await this.settle(held, 'release');
      throw err;
    }
    await this.settle(held, result ? 'success' : 'failure');
    return result;
  }

  /**
   * For answers cheap and safe to compute before any reservation (an HMAC,
   * not argon2): a right answer on keys the store holds no count for is
   * admitted without a reservation, so a busy client's parallel requests are
   * not refused as if they were guesses. Anything else is reserved and
   * settled as attempt() does (the 429 when locked; a wrong answer counted).
   * The store is read at most once per call.
   */
  async attemptKnown<T>(targets: readonly ThrottleTarget[], answer: T): Promise<T> {
    if (this.rememberMs <= 0) return this.attempt(targets, () => answer);
    const now = this.clock.now();
    await this.learnClean(targets, now);
    if (answer && targets.every((t) => this.isClean(t.key, now))) return answer;
    const held = await this.reserveAll(targets, false);
    await this.settle(held, answer ? 'success' : 'failure');
    return answer;
  }

  prune(windowStartedBefore: number): Promise<void> {
    return this.store.prune(windowStartedBefore, this.clock.now());
  }

  private async reserveAll(targets: readonly ThrottleTarget[], learn: boolean): Promise<Held[]> {
    const now = this.clock.now();
    if (learn && this.rememberMs > 0) await this.learnClean(targets, now);
    const held: Held[] = [];
    for (const target of targets) {
      const local = this.inFlight.get(target.key) ?? 0;
      if (this.isClean(target.key, now) && local < target.policy.freeFailures) {
        this.inFlight.set(target.key, local + 1);
        held.push({ target, kind: 'local' });
        continue;
      }
      const res = await this.store.reserve(target.key, target.policy, now, local);
      if (!res.ok) {
        await this.settle(held, 'release');
        throw lockedError(res.lockedUntil, this.clock.now());
      }
      // The store holds a count for the key now: no longer clean.
      this.forget(target.key);
      held.push({ target, kind: 'store', reservation: res.reservation });
    }
    return held;
  }

  private async settle(held: Held[], outcome: 'success' | 'failure' | 'release'): Promise<void> {
    for (const h of held) {
      if (h.kind === 'local') {
        // Until the failure is in the store, the hold stays in flight (so
        // reserve() still counts it as uncounted), whether or not the write works.
        try {
          if (outcome === 'failure') await this.recordLocal(h.target);
        } finally {
          countDown(this.inFlight, h.target.key);
        }
        continue;
      }
      if (outcome === 'failure') {
        this.forget(h.target.key);
        continue; // the reservation is the count
      }
      if (outcome === 'success' && h.target.clearOnSuccess) await this.store.clear(h.target.key);
      else await this.store.release(h.reservation);
    }
  }

  /**
   * Records a failure admitted without a reservation. While the write is in
   * flight no read of the store may call the key clean: a read made before
   * the write lands would show no count and admit guesses past the allowance.
   */
  private async recordLocal(target: ThrottleTarget): Promise<void> {
    const key = target.key;
    this.forget(key);
    this.recording.set(key, (this.recording.get(key) ?? 0) + 1);
    try {
      await this.store.record(key, target.policy, this.clock.now());
    } finally {
      countDown(this.recording, key);
      this.forget(key);
    }
  }

  /** Reads the store for the keys not remembered as clean; remembers those it holds nothing for. */
  private async learnClean(targets: readonly ThrottleTarget[], now: number): Promise<void> {
    const unknown = targets.map((t) => t.key).filter((k) => !this.isClean(k, now));
    if (unknown.length === 0) return;
    const generation = this.generation;
    const present = await this.store.present(unknown);
    // A failure counted on this instance while the read was in flight wins,
    // and so does one still being written (the read may predate the write).
    if (generation !== this.generation) return;
    for (const k of unknown) if (!present.has(k) && !this.recording.has(k)) this.remember(k, now);
  }

  private isClean(key: string, now: number): boolean {
    if (this.rememberMs <= 0) return false;
    const at = this.clean.get(key);
    return at !== undefined && now - at < this.rememberMs && now >= at;
  }

  private remember(key: string, now: number): void {
    this.clean.set(key, now);
  }

  private forget(key: string): void {
    this.generation++;
    this.clean.delete(key);
  }
}
