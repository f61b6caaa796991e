// Requests first, background work over stored contents second. The search
// indexer and the media pipeline run in the same process as the requests
// (and their extraction workers on the other core). During a burst of
// uploads (a sync client's first sync, a phone's photo backup) each upload
// woke them: a discovery statement, a claim and an extraction per file, all
// competing with the next upload. They now wait for a pause in requests
// before each step, so a burst is indexed as a batch right after it, and at
// most `maxWaitMs` later per step, so steady traffic still lets them through.
//
// Real time on purpose (not core/clock.ts): the wait is about CPU, and a test's
// manual clock must not hold it forever.

export interface ForegroundOptions {
  /** No request started for this long: a pause. */
  quietMs: number;
  /** The longest one step of background work waits for a pause. */
  maxWaitMs: number;
}

export const DEFAULT_FOREGROUND: ForegroundOptions = { quietMs: 50, maxWaitMs: 1_000 };

export class Foreground {
  private lastStart = -Infinity;

  constructor(private readonly options: ForegroundOptions = DEFAULT_FOREGROUND) {}

  /** A request started (the HTTP layer's onRequest hook). */
  started(): void {
    this.lastStart = performance.now();
  }

  /** Resolves at the next pause in requests, or after maxWaitMs. Bound: handed to the workers as it is. */
  readonly pause = async (): Promise<void> => {
    const until = performance.now() + this.options.maxWaitMs;
    for (;;) {
      const now = performance.now();
      const quietAt = this.lastStart + this.options.quietMs;
      if (now >= quietAt || now >= until) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietAt, until) - now));
    }
  };
}
