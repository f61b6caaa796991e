// Calls of one statement made while an earlier call of it is running are
// sent together, as one statement over arrays, when it returns: PostgreSQL
// then parses, plans, commits and flushes its WAL once for them all, and the
// process writes to the socket once (a loopback write, and the wake-up of
// the backend, was an eighth of the code exchange's CPU, measured in
// bench/oauth-profile.mjs). An idle server runs each call at once, alone;
// under load the batches grow with the load, like SQLite's group commit
// (db/group-commit.ts). When a batch fails, its calls run again one by one,
// so one bad call fails alone.
//
// One statement runs at a time while statements return promptly. One that
// runs past `stallMs` (it waits on a row lock another transaction holds: a
// revocation, a sign-out) no longer holds back the calls queued behind it:
// another lane opens for them, up to `maxLanes`. Two lanes all the time
// cost 7-9 % of the throughput on PostgreSQL (smaller batches, more
// statements; docs/benchmarks.md, session 18), so they open only on a stall.
export interface BatchStats {
  /** Batches of two calls or more that ran as one statement. */
  batches: number;
  /** The calls in those batches. */
  batchedCalls: number;
  /** Batches that failed (their calls then ran one by one). */
  failedBatches: number;
}

export interface BatchOptions {
  /** Calls per statement at most. */
  max?: number;
  /** After this long, a running statement counts as stalled and another lane may open. */
  stallMs?: number;
  /** Statements in flight at most (stalled ones included). */
  maxLanes?: number;
}

export class Batcher<I, O> {
  private queue: { input: I; resolve(output: O): void; reject(err: unknown): void }[] = [];
  /** Lanes running, and how many of them are waiting on a stalled statement. */
  private lanes = 0;
  private stalled = 0;
  private readonly max: number;
  private readonly stallMs: number;
  private readonly maxLanes: number;

  constructor(
    /** Runs several calls together: one output per input, in order. */
    private readonly together: (inputs: I[]) => Promise<O[]>,
    /** Runs one call (alone, and again after a failed batch). */
    private readonly alone: (input: I) => Promise<O>,
    /** Counted into (several batchers may share one). */
    readonly stats: BatchStats = { batches: 0, batchedCalls: 0, failedBatches: 0 },
    options: BatchOptions = {},
  ) {
    this.max = options.max ?? 64;
    this.stallMs = options.stallMs ?? 50;
    this.maxLanes = options.maxLanes ?? 4;
  }

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.openLaneIfNone();
    });
  }

  /** Starts a lane when none is moving (none runs, or every running one is stalled). */
  private openLaneIfNone(): void {
    if (this.queue.length > 0 && this.lanes === this.stalled && this.lanes < this.maxLanes) void this.drain();
  }

  /** Runs `statement`, counting this lane as stalled (and opening another) while it runs past stallMs. */
  private async watched<T>(statement: () => Promise<T>): Promise<T> {
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      this.stalled++;
      this.openLaneIfNone();
    }, this.stallMs);
    timer.unref();
    try {
      return await statement();
    } finally {
      clearTimeout(timer);
      if (stalled) this.stalled--;
    }
  }

  /** One lane: runs what is queued, as batches, until the queue is empty. */
  private async drain(): Promise<void> {
    this.lanes++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.max);
        if (batch.length === 1) {
          const [one] = batch;
          await this.watched(() => this.alone(one!.input)).then(one!.resolve, one!.reject);
          continue;
        }
        let outputs: O[] | undefined;
        try {
          outputs = await this.watched(() => this.together(batch.map((b) => b.input)));
        } catch {
          outputs = undefined;
        }
        if (outputs) {
          this.stats.batches++;
          this.stats.batchedCalls += batch.length;
          batch.forEach((b, i) => b.resolve(outputs[i] as O));
        } else {
          this.stats.failedBatches++;
          await this.watched(() => Promise.all(batch.map((b) => this.alone(b.input).then(b.resolve, b.reject))));
        }
      }
    } finally {
      this.lanes--;
    }
  }
}
