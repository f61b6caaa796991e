// Calls of one statement made while an earlier call of it is running are
// sent together, as one statement over arrays, when it returns: PostgreSQL
// then parses, plans, commits and flushes its WAL once for them all, and the
// process writes to the socket once (a loopback write, and the wake-up of
// the backend, was an eighth of the code exchange's CPU, measured in
// bench/oauth-profile.mjs). An idle server runs each call at once, alone;
// under load the batches grow with the load, like SQLite's group commit
// (db/group-commit.ts). When a batch fails, its calls run again one by one,
// so one bad call fails alone.
export interface BatchStats {
  /** Batches of two calls or more that ran as one statement. */
  batches: number;
  /** The calls in those batches. */
  batchedCalls: number;
  /** Batches that failed (their calls then ran one by one). */
  failedBatches: number;
}

export class Batcher<I, O> {
  private queue: { input: I; resolve(output: O): void; reject(err: unknown): void }[] = [];
  private running = false;

  constructor(
    /** Runs several calls together: one output per input, in order. */
    private readonly together: (inputs: I[]) => Promise<O[]>,
    /** Runs one call (alone, and again after a failed batch). */
    private readonly alone: (input: I) => Promise<O>,
    /** Counted into (several batchers may share one). */
    readonly stats: BatchStats = { batches: 0, batchedCalls: 0, failedBatches: 0 },
    private readonly max = 64,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.max);
        if (batch.length === 1) {
          const [one] = batch;
          await this.alone(one!.input).then(one!.resolve, one!.reject);
          continue;
        }
        let outputs: O[] | undefined;
        try {
          outputs = await this.together(batch.map((b) => b.input));
        } catch {
          outputs = undefined;
        }
        if (outputs) {
          this.stats.batches++;
          this.stats.batchedCalls += batch.length;
          batch.forEach((b, i) => b.resolve(outputs[i] as O));
        } else {
          this.stats.failedBatches++;
          await Promise.all(batch.map((b) => this.alone(b.input).then(b.resolve, b.reject)));
        }
      }
    } finally {
      this.running = false;
    }
  }
}
