// The one source of "now" for everything that decides by the time: expiry of
// tokens, codes, sessions, shares, signed URLs, uploads and locks; throttle
// windows; job and prune schedules (docs/decisions/023-injected-clock.md).
// The composition root (services.ts) builds every service with the same
// Clock; production uses systemClock, tests may pass a ManualClock to
// buildApp and move time forward instead of rewriting rows or sleeping.
//
//   const clock = new ManualClock();
//   const server = await startServer({}, { clock });
//   clock.advance(3600_000);    // an hour later: the access token has expired
//
// Timers (setTimeout/setInterval) still run on real time: a ManualClock
// changes what is read, not when background jobs fire.

export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Whole seconds since the epoch (JWT iat/exp/nbf). */
export function nowSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/**
 * A clock moved by hand (tests). By default it runs with the wall clock,
 * shifted by whatever advance() and set() added, so that everything a test
 * does not move still sees time pass; `{ at }` freezes it at that instant.
 */
export class ManualClock implements Clock {
  private offset = 0;
  private frozen: number | null;

  constructor(options: { at?: number } = {}) {
    this.frozen = options.at ?? null;
  }

  now(): number {
    return this.frozen ?? Date.now() + this.offset;
  }

  /** Moves the clock to `ms` (it keeps running from there unless frozen). */
  set(ms: number): void {
    if (this.frozen !== null) this.frozen = ms;
    else this.offset = ms - Date.now();
  }

  advance(ms: number): void {
    if (this.frozen !== null) this.frozen += ms;
    else this.offset += ms;
  }
}
