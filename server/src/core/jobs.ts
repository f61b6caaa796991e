// The background work of an instance (pruning, upload sweeps and reclaims,
// the revocation poll) runs through one small runner, so that no failure is
// silent: each failure is logged with the job's name and counted (metrics),
// and each job's state (runs, failures, last success, last failure) is kept
// for GET /site/health and the logs. Before it, timers ended in
// `.catch(() => undefined)` and a database outage went unnoticed.
//
//   jobs.every('oauth_code_prune', 60_000, () => consent.pruneCodes());
//   jobs.outcome('revocation_sync', err)   // for work scheduled elsewhere
//
// A run never overlaps the previous run of the same job; stop() clears the
// timers and waits for runs in flight.

import { systemClock, type Clock } from './clock.js';

export interface JobLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface JobState {
  name: string;
  runs: number;
  failures: number;
  /** Failures since the last success (0 when the last run succeeded). */
  failing_for: number;
  last_success_at: number | null;
  last_failure_at: number | null;
}

interface Job extends JobState {
  timers: NodeJS.Timeout[];
  running: Promise<void> | null;
  task: (() => Promise<unknown>) | null;
}

/** Logged before a logger is attached (start-up), as one JSON line on stderr like pino's. */
const stderrLogger: JobLogger = {
  error: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg, ...obj })}\n`),
  warn: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), msg, ...obj })}\n`),
};

/** An error as log fields: its message and code, never the objects it holds (which may carry credentials). */
function describe(err: unknown): { err_message: string; err_code?: string } {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { err_message: err.message, ...(typeof code === 'string' ? { err_code: code } : {}) };
  }
  return { err_message: String(err) };
}

export class Jobs {
  private readonly jobs = new Map<string, Job>();
  private log: JobLogger = stderrLogger;
  private stopped = false;
  private readonly detached = new Set<Promise<void>>();

  constructor(
    /** Told of every failure (the metrics counter). */
    private readonly onFailure: (name: string) => void = () => undefined,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Logs go to the server's logger once it exists. */
  useLogger(log: JobLogger): void {
    this.log = log;
  }

  /** The server's logger (stderr before it exists), for services that log outside a request. */
  get logger(): JobLogger {
    return this.log;
  }

  /**
   * Runs `task` every `intervalMs` (the first time after `firstAfterMs`,
   * default one interval). 0 disables the timer; run(name) still works.
   */
  every(name: string, intervalMs: number, task: () => Promise<unknown>, options: { firstAfterMs?: number } = {}): void {
    const job = this.job(name);
    job.task = task;
    if (intervalMs <= 0 || this.stopped) return;
    const tick = () => void this.run(name);
    if (options.firstAfterMs !== undefined) job.timers.push(setTimeout(tick, options.firstAfterMs));
    job.timers.push(setInterval(tick, intervalMs));
    for (const t of job.timers) t.unref();
  }

  /** Runs a registered job now (or joins the run in flight). Never rejects: failures are recorded. */
  run(name: string): Promise<void> {
    const job = this.job(name);
    if (job.running) return job.running;
    const task = job.task;
    if (!task) return Promise.resolve();
    job.running = (async () => {
      try {
        await task();
        this.outcome(name, null);
      } catch (err) {
        this.outcome(name, err);
      } finally {
        job.running = null;
      }
    })();
    return job.running;
  }

  /**
   * Runs a one-off task after the current request has answered (next turn of
   * the event loop), outside it: its outcome is recorded under `name` like a
   * job's, and stop() waits for it. For work whose time must not show in the
   * answer (a reset mail for a registered address, none for an unknown one).
   */
  detach(name: string, task: () => Promise<unknown>): void {
    const run = new Promise<void>((resolve) => {
      setImmediate(() => {
        task().then(
          () => this.outcome(name, null),
          (err: unknown) => this.outcome(name, err),
        ).finally(resolve);
      });
    });
    this.detached.add(run);
    void run.finally(() => this.detached.delete(run));
  }

  /** Resolves when every detached task started so far has ended (tests wait for mail queued this way). */
  async idle(): Promise<void> {
    while (this.detached.size > 0) await Promise.all([...this.detached]);
  }

  /** Records one outcome of a job (null: success); for work that schedules itself. */
  outcome(name: string, err: unknown): void {
    const job = this.job(name);
    job.runs++;
    if (err === null || err === undefined) {
      if (job.failing_for > 0) this.log.warn({ job: name, failed_runs: job.failing_for }, `background job ${name} works again`);
      job.failing_for = 0;
      job.last_success_at = this.clock.now();
      return;
    }
    job.failures++;
    job.failing_for++;
    job.last_failure_at = this.clock.now();
    this.onFailure(name);
    // The first failure of a streak, then every 60th (a job failing each second would flood the log).
    if (job.failing_for === 1 || job.failing_for % 60 === 0) {
      this.log.error({ job: name, failing_for: job.failing_for, ...describe(err) }, `background job ${name} failed`);
    }
  }

  states(): JobState[] {
    return [...this.jobs.values()].map(({ name, runs, failures, failing_for, last_success_at, last_failure_at }) => ({
      name, runs, failures, failing_for, last_success_at, last_failure_at,
    }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) for (const t of job.timers) clearTimeout(t);
    await Promise.all([...this.jobs.values()].map((j) => j.running));
    await this.idle();
  }

  private job(name: string): Job {
    let job = this.jobs.get(name);
    if (!job) {
      job = { name, runs: 0, failures: 0, failing_for: 0, last_success_at: null, last_failure_at: null, timers: [], running: null, task: null };
      this.jobs.set(name, job);
    }
    return job;
  }
}
