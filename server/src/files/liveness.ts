// This process's identity in the database, so that the leases it holds
// (upload write locks, streamed PUTs) die with it: it registers a
// server_instances row at start and beats every `beatMs`; a row silent for
// `deadAfterMs` (kill -9, power loss, a hung process) makes its locks free to
// any other or restarted instance. A clean stop removes the row at once.
import { randomBytes } from 'node:crypto';
import type { InstanceRepository } from './instance-repository.js';
import type { Clock } from '../core/clock.js';

export interface LivenessOptions {
  beatMs: number;
  deadAfterMs: number;
}

/**
 * A beat a second, dead after 6 s of silence: with the reclaim job every
 * second (files/module.ts), what a killed process held (a streamed PUT's
 * quota reservation, upload write locks) is free on the other instances 6–7 s
 * after the kill, always under 10 s (issue 19; docs/deployment.md). A live
 * process is taken for dead only when its event loop or the database stalls
 * six beats in a row; every write checks its lock, so nothing is corrupted
 * then either.
 */
export const DEFAULT_LIVENESS: LivenessOptions = { beatMs: 1_000, deadAfterMs: 6_000 };
/** Rows of processes silent this long are deleted (their locks are long free anyway). */
const PRUNE_AFTER_MS = 24 * 3600_000;

export class InstanceLiveness {
  /** Time-ordered, so a listing of instances reads in start order. */
  readonly id: string;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly repo: InstanceRepository,
    private readonly clock: Clock,
    readonly options: LivenessOptions = DEFAULT_LIVENESS,
  ) {
    this.id = `${clock.now().toString(16).padStart(12, '0')}-${randomBytes(8).toString('hex')}`;
  }

  async start(): Promise<void> {
    const now = this.clock.now();
    await this.repo.register(this.id, now);
    await this.repo.prune(now - PRUNE_AFTER_MS);
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => {
        this.beating = null;
      });
    }, this.options.beatMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      const now = this.clock.now();
      // Pruned after a very long stall: register again (whatever it held may have been taken over; writes check their lock).
      if (!(await this.repo.beat(this.id, now))) await this.repo.register(this.id, now);
    } catch {
      // The database is unreachable: the next beat tries again. Others may take our locks meanwhile; every write checks its lock.
    }
  }

  /** Lock owners whose last beat is older than this are dead. */
  deadBefore(now: number): number {
    return now - this.options.deadAfterMs;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.repo.remove(this.id).catch(() => undefined);
  }
}
