// The run loop of background work over stored contents (search extraction,
// thumbnails and metadata): each run first finds what has no row yet
// (discovery: only the owners whose trees changed, or everyone on the first
// and on the periodic pass), then claims pending rows under a lease, so that
// instances share the work, and handles them one at a time until none is
// left or the run's time budget is spent. The rows and the handling are the
// feature's; the bookkeeping is here once.
import type { Clock } from './clock.js';

export interface WorkRows<Claimed> {
  /** Adds a pending row for up to `limit` items (of these owners, or anyone's); answers how many. */
  discover(now: number, limit: number, ownerIds?: readonly string[]): Promise<number>;
  /** The next pending row whose lease (if any) ran out, leased for `leaseMs`; undefined when none. */
  claim(now: number, leaseMs: number): Promise<Claimed | undefined>;
}

export interface WorkOptions {
  leaseMs: number;
  runBudgetMs: number;
  /** Waited for before each step: a pause in requests (core/foreground.ts). */
  pause?: () => Promise<void>;
}

/** Rows added per discovery statement, and owners per statement when only some trees changed. */
const DISCOVER_LIMIT = 1000;
const OWNERS_PER_STATEMENT = 200;

export class DiscoveredWork<Claimed> {
  private dirtyOwners = new Set<string>();
  private everything = true;
  private again = false;
  private stopped = false;

  constructor(
    private readonly rows: WorkRows<Claimed>,
    private readonly handle: (claimed: Claimed) => Promise<void>,
    private readonly clock: Clock,
    private readonly options: WorkOptions,
  ) {}

  /** These owners' trees changed (the change feed's signal): look at their files on the next run. */
  changed(owners: Iterable<string>): void {
    for (const o of owners) this.dirtyOwners.add(o);
    this.again = true;
  }

  /** Look at every file on the next run (the periodic pass: other instances' uploads, a missed signal). */
  lookEverywhere(): void {
    this.everything = true;
    this.again = true;
  }

  stop(): void {
    this.stopped = true;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** One run: discovery, then claimed rows until none is pending or the budget is spent (then true: more to do). */
  async run(): Promise<boolean> {
    const until = this.clock.now() + this.options.runBudgetMs;
    do {
      this.again = false;
      await this.options.pause?.();
      await this.discover();
      while (!this.stopped && this.clock.now() < until) {
        await this.options.pause?.();
        if (this.stopped) break;
        const claimed = await this.rows.claim(this.clock.now(), this.options.leaseMs);
        if (!claimed) break;
        await this.handle(claimed);
      }
    } while (this.again && !this.stopped && this.clock.now() < until);
    return !this.stopped && this.clock.now() >= until;
  }

  private async discover(): Promise<void> {
    const now = this.clock.now();
    if (this.everything) {
      this.everything = false;
      this.dirtyOwners.clear();
      while ((await this.rows.discover(now, DISCOVER_LIMIT)) === DISCOVER_LIMIT && !this.stopped);
      return;
    }
    const owners = [...this.dirtyOwners];
    this.dirtyOwners.clear();
    for (let i = 0; i < owners.length; i += OWNERS_PER_STATEMENT) {
      while ((await this.rows.discover(now, DISCOVER_LIMIT, owners.slice(i, i + OWNERS_PER_STATEMENT))) === DISCOVER_LIMIT && !this.stopped);
    }
  }
}
