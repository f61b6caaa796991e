// The audit log (api-contract §17, docs/security.md "Audit log"). Events are
// recorded without waiting: record() puts the row in a bounded in-process
// queue and returns; one writer per instance drains it in batches through the
// repository, whose transaction the database serialises across instances. A
// failed write (the table locked, the database away) leaves the rows at the
// front of the queue and tries again with a growing pause, so a request never
// fails or waits because of the audit log. Each queued row is also appended
// to a file of this process (spool.ts) before record() returns, and that file
// is emptied when the queue is written out; a process that starts queues the
// rows of processes that died with rows queued. An event is lost only when
// the queue is full (counted, logged).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { GENESIS_HASH, verifyRun, type AuditRow } from './chain.js';
import type { AuditFilter, AuditRepository, PendingRow } from './repository.js';
import { rowKey, type AuditSpool } from './spool.js';

/** One event as a feature reports it. */
export interface AuditEvent {
  action: string;
  actorId?: string | null;
  ip: string;
  userAgent?: string | null;
  targetType: string;
  targetId: string;
  detail?: Record<string, unknown>;
}

export interface AuditOptions {
  /** Rows held in memory at most while the database does not take them. */
  capacity?: number;
  /** Rows per transaction. */
  batch?: number;
  /** This process's name in the rows (default host name and a random suffix). */
  instance?: string;
  /** The queue's copy on disk (none: a killed process loses what it had queued). */
  spool?: AuditSpool;
}

/** An answer of verify: `first_bad_seq` names the first row that is changed or missing. */
export interface VerifyResult {
  ok: boolean;
  checked: number;
  first_bad_seq?: number;
}

const MAX_UA = 512;
const MAX_TEXT = 320;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
const VERIFY_PAGE = 1000;

export class AuditLog {
  private readonly queue: PendingRow[] = [];
  private readonly capacity: number;
  private readonly batch: number;
  readonly instance: string;
  private writing: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = RETRY_MIN_MS;
  private closed = false;
  private readonly waiters: (() => void)[] = [];
  private readonly spool: AuditSpool | undefined;
  /** The rows of dead processes being queued again (recover()); the writer waits for them, to keep the order. */
  private recovering: Promise<void> | null = null;
  /** Rows dropped because the queue was full (metrics). */
  dropped = 0;

  constructor(
    private readonly repo: AuditRepository,
    private readonly clock: Clock,
    /** Told of each write's outcome (null: written), as a background job (core/jobs.ts). */
    private readonly outcome: (err: unknown) => void,
    options: AuditOptions = {},
    /** Told of each recorded action (metrics). */
    private readonly onRecord: (action: string) => void = () => undefined,
  ) {
    this.capacity = options.capacity ?? 10_000;
    this.batch = options.batch ?? 200;
    this.instance = options.instance ?? `${hostname()}-${randomBytes(3).toString('hex')}`;
    this.spool = options.spool;
  }

  /**
   * Queues again the rows that processes which died left in their spool
   * files, less those already in the table; in the background (the table may
   * be locked at start). Returns how many rows were queued again.
   */
  recover(): Promise<number> {
    const spool = this.spool;
    if (!spool) return Promise.resolve(0);
    const work = (async () => {
      const { rows, take } = spool.leftovers();
      if (rows.length === 0) {
        take();
        return 0;
      }
      const since = Math.min(...rows.map((r) => Number(r.at)));
      const written = new Map<string, number>();
      for (const r of await this.repo.ofInstances([...new Set(rows.map((r) => r.instance))], since)) {
        const key = rowKey(r);
        written.set(key, (written.get(key) ?? 0) + 1);
      }
      const again = rows.filter((r) => {
        const key = rowKey(r);
        const n = written.get(key) ?? 0;
        if (n === 0) return true;
        written.set(key, n - 1);
        return false;
      });
      // Into this process's file first, then the dead ones' files go: a kill in between leaves a row twice on disk, never none.
      for (const r of again) spool.append(r);
      take();
      this.queue.unshift(...again);
      return again.length;
    })();
    this.recovering = work.then(
      () => undefined,
      (err: unknown) => this.outcome(err),
    ).finally(() => {
      this.recovering = null;
    });
    this.kick();
    return work;
  }

  /** Records an event: returns at once; the row is written by the queue's writer. */
  record(event: AuditEvent): void {
    this.onRecord(event.action);
    if (this.queue.length >= this.capacity) {
      this.dropped++;
      this.outcome(new Error(`audit queue full (${this.capacity} rows): event ${event.action} dropped`));
      return;
    }
    const row: PendingRow = {
      at: this.clock.now(),
      actor_id: event.actorId ?? null,
      ip: clip(event.ip, 64),
      user_agent: clip(event.userAgent ?? '', MAX_UA),
      instance: this.instance,
      action: event.action,
      target_type: event.targetType,
      target_id: clip(event.targetId, MAX_TEXT),
      detail: JSON.stringify(event.detail ?? {}),
    };
    this.queue.push(row);
    try {
      this.spool?.append(row);
    } catch (err) {
      // A full disk: the row is still queued; only its copy is missing.
      this.outcome(err);
    }
    this.kick();
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  /** Resolves when every row recorded so far is written (tests, the CLI, shutdown). */
  drained(): Promise<void> {
    if (this.queue.length === 0 && !this.writing) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops retrying after one last attempt of at most `timeoutMs`; rows still queued then are reported lost. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
      this.kick();
    }
    const done = this.queue.length === 0 && !this.writing ? Promise.resolve() : this.drained();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.queue.length > 0) this.outcome(new Error(`audit log: ${this.queue.length} events not written at shutdown${this.spool ? '; the next start writes them from the spool file' : ''}`));
    this.spool?.close();
  }

  private kick(): void {
    if (this.writing || this.retryTimer || this.closed) return;
    this.writing = this.writeAll().finally(() => {
      this.writing = null;
      if (this.queue.length === 0) this.wake();
      else if (!this.retryTimer && !this.closed) this.kick();
    });
  }

  private async writeAll(): Promise<void> {
    // Let the request that recorded the event answer first.
    await new Promise((r) => setImmediate(r));
    if (this.recovering) await this.recovering;
    while (this.queue.length > 0) {
      const rows = this.queue.slice(0, this.batch);
      try {
        await this.repo.append(rows);
      } catch (err) {
        this.outcome(err);
        if (!this.closed) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.kick();
          }, this.retryMs);
          this.retryTimer.unref();
        }
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        return;
      }
      this.queue.splice(0, rows.length);
      try {
        if (this.queue.length === 0) this.spool?.clear();
        else this.spool?.rewrite(this.queue);
      } catch (err) {
        this.outcome(err);
      }
      this.retryMs = RETRY_MIN_MS;
      this.outcome(null);
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  list(filter: AuditFilter, beforeSeq: number | undefined, limit: number): Promise<AuditRow[]> {
    return this.repo.newest(filter, beforeSeq, limit);
  }

  /** Every row matching the filter, oldest first, a page at a time (export). */
  async *rows(filter: AuditFilter): AsyncGenerator<AuditRow> {
    let after = 0;
    for (;;) {
      const page = await this.repo.after(filter, after, VERIFY_PAGE);
      yield* page;
      if (page.length < VERIFY_PAGE) return;
      after = page.at(-1)!.seq;
    }
  }

  /**
   * Walks the chain from where retention cut it to the head: the first row
   * whose hash does not follow (changed), or whose seq is missing (deleted),
   * is named; a missing last row is found by the head.
   */
  async verify(): Promise<VerifyResult> {
    const head = await this.repo.head();
    const state = { seq: head.pruned_seq, hash: head.pruned_seq === 0 ? GENESIS_HASH : head.pruned_hash };
    let checked = 0;
    for (;;) {
      const page = await this.repo.after({}, state.seq, VERIFY_PAGE);
      // Rows written after the head was read are checked up to it only.
      const rows = page.filter((r) => r.seq <= head.seq);
      const bad = verifyRun(state, rows);
      // The rows before the bad one were checked and found sound.
      if (bad !== null) return { ok: false, checked: bad - 1 - head.pruned_seq, first_bad_seq: bad };
      checked += rows.length;
      if (rows.length < page.length || page.length < VERIFY_PAGE) break;
    }
    if (state.seq !== head.seq) return { ok: false, checked, first_bad_seq: state.seq + 1 };
    if (state.hash !== head.hash) return { ok: false, checked, first_bad_seq: state.seq };
    return { ok: true, checked };
  }

  /** Retention: removes rows older than `days` days (0 keeps everything). */
  async prune(days: number): Promise<number> {
    if (!(days > 0)) return 0;
    return this.repo.pruneBefore(this.clock.now() - days * 86_400_000);
  }
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
