// The storage side of the guess limit (throttle/service.ts). An interface, so
// that the counters can live in the database (repository.ts, the default) or
// in another shared store (Redis) without the service changing. Every method
// must be atomic per key in that store: the service's guarantee ("at most the
// policy's number of guesses is checked per window, whatever the concurrency")
// rests on reserve() counting and locking in one step.

export interface ThrottlePolicy {
  /** Failures allowed in a window before the first lock. */
  freeFailures: number;
  /** The lock doubles from 1 s for each failure past the allowance, up to this. */
  maxLockMs: number;
  /** A window starts at the first counted attempt; a later attempt after it ends starts a new one. */
  windowMs: number;
}

/** What reserve() counted, so that release() can take back exactly that. */
export interface Reservation {
  key: string;
  /** The window the attempt was counted in (release does nothing in a later window). */
  windowStart: number;
  /** The locked_until this reservation wrote (it passed the allowance), or 0. */
  lockSet: number;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; lockedUntil: number };

export interface ThrottleStore {
  /**
   * Refuses when the key is locked at `now`. Otherwise counts one attempt
   * (starting a new window when the last one ended) and, when the count plus
   * `uncounted` (attempts in flight that the store does not hold, see
   * service.ts) passes the allowance, locks the key from `now` for
   * lockDuration(policy, count + uncounted - freeFailures). One atomic step.
   */
  reserve(key: string, policy: ThrottlePolicy, now: number, uncounted: number): Promise<ReserveResult>;
  /** Takes back a reservation whose guess was right or never checked: one count less, and its own lock lifted. */
  release(reservation: Reservation): Promise<void>;
  /** Counts a failure that was checked without a reservation in the store; locks like reserve() but never refuses. */
  record(key: string, policy: ThrottlePolicy, now: number): Promise<void>;
  /** Forgets the key's count and lock (a right password for an account). */
  clear(key: string): Promise<void>;
  /** The keys among `keys` that the store holds anything for. */
  present(keys: readonly string[]): Promise<Set<string>>;
  /** Forgets keys whose window started before `windowStartedBefore` and whose lock has ended. */
  prune(windowStartedBefore: number, now: number): Promise<void>;
}

/** The lock after the `over`-th failure past the allowance: 1 s, doubling, capped by the policy. */
export function lockDuration(policy: ThrottlePolicy, over: number): number {
  if (over <= 0) return 0;
  return Math.min(policy.maxLockMs, 1000 * 2 ** Math.min(over - 1, 30));
}

/** The distinct lock durations for over = 1, 2, ... until the cap (the last entry is the cap). */
export function lockSteps(policy: ThrottlePolicy): number[] {
  const steps: number[] = [];
  for (let over = 1; ; over++) {
    const d = lockDuration(policy, over);
    steps.push(d);
    if (d >= policy.maxLockMs || over > 30) return steps;
  }
}
