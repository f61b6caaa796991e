// The open event streams of this instance, grouped by user, and how new
// events reach them:
// - a change committed here wakes its owner's streams at once (ChangeSignal);
// - a change committed on another instance arrives through Redis (a message
//   naming the owners) when it is configured, else through one poll of the
//   users' heads per instance (not per stream) every `pollMs`; with Redis
//   the poll still runs, slower, to make up for a lost message.
// Waking a user reads that user's events once for all its streams (from the
// lowest cursor among them) and writes each stream the ones past its own
// cursor, so a replay after Last-Event-ID and live delivery are one path and
// cannot lose or repeat an event. One timer for every stream checks tokens,
// once per distinct token a round however many streams share it (revoked:
// through the verifier's in-memory revocation view; expired: by `exp`), one
// writes the heartbeats: an idle stream costs its socket and one small
// object, no timer and no query. An account and a token hold at most
// `perAccount` and `perToken` streams here (429 beyond, issue 32).
// What the streams carry comes from a HubSource: the change feed's events
// here, a person's notifications in notifications/ (one hub each, each with
// its own budget and its own Redis channel).
import type { PassThrough } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { HeldTokenVerifier } from '../../core/identity.js';
import type { Clock } from '../../core/clock.js';
import { Budget } from '../../core/budget.js';
import { DomainError, ErrorCode } from '../../core/errors.js';

export interface HubOptions {
  /** How often the heads of users with streams are read (the path between instances without Redis). */
  pollMs: number;
  /** The same with Redis: only a safety net for lost messages. */
  pollWithBusMs: number;
  heartbeatMs: number;
  /** How often every stream's token is checked (revocation and expiry). */
  checkMs: number;
  /** Streams one account may hold on this instance (its tabs and devices together). */
  perAccount: number;
  /** Streams one token may hold (the tabs of one browser share a token). */
  perToken: number;
}

/** What a hub streams: numbered frames per user, and where each user's numbers are. */
export interface HubSource {
  /** The Redis channel changes are announced on (one per source). */
  channel: string;
  /** The job names failures are reported under (core/jobs.ts). */
  jobs: { delivery: string; poll: string };
  /** Up to `limit` frames of the user after `seq`, oldest first, each the whole SSE text of one event. */
  after(userId: string, seq: number, limit: number): Promise<{ seq: number; text: string }[]>;
  /** The last number of each of these users (absent: nothing yet); a query per many users, not per user. */
  heads(userIds: readonly string[]): Promise<Map<string, number>>;
}

export const DEFAULT_HUB: HubOptions = { pollMs: 500, pollWithBusMs: 5_000, heartbeatMs: 30_000, checkMs: 1_000, perAccount: 50, perToken: 20 };

/** What a refused client is told to wait: about when a tab closed elsewhere frees a slot. */
const RETRY_AFTER_S = 30;

/** What the hub needs of Redis (ops/redis-bus.ts). */
export interface Bus {
  publish(channel: string, message: string): Promise<boolean>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
}

const BATCH = 500;
/** A client that reads slower than this much is behind is cut off (it reconnects with Last-Event-ID). */
const MAX_BUFFERED = 1024 * 1024;

export class FeedStream {
  closed = false;

  constructor(
    readonly userId: string,
    /** The last event this stream has been given. */
    public cursor: number,
    /** The bearer token it was opened with, checked again every second. */
    readonly token: string,
    /** Unix ms when the token expires. */
    readonly expiresAt: number,
    readonly out: PassThrough,
    /** Gives its slot back (FeedHub.reserve). */
    readonly release: () => void = () => undefined,
  ) {}
}

export class FeedHub {
  private readonly streams = new Map<string, Set<FeedStream>>();
  /** The same streams by token, for the check round. */
  private readonly byToken = new Map<string, Set<FeedStream>>();
  /** Tokens whose check has not answered yet (a read): not checked again meanwhile. */
  private readonly checking = new Set<string>();
  private readonly budget = new Budget();
  private readonly pumping = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly origin = randomUUID();
  private polling = false;
  private count = 0;

  constructor(
    private readonly source: HubSource,
    private readonly verifier: HeldTokenVerifier,
    private readonly clock: Clock,
    private readonly bus: Bus | undefined,
    private readonly options: HubOptions,
    /** Told of each failed background read (null: success), so failures are logged and counted (core/jobs.ts). */
    private readonly outcome: (job: string, err: unknown) => void,
  ) {}

  async start(): Promise<void> {
    await this.bus?.subscribe(this.source.channel, (message) => this.onMessage(message));
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.bus ? this.options.pollWithBusMs : this.options.pollMs, () => void this.poll());
    every(this.options.heartbeatMs, () => this.heartbeat());
    every(this.options.checkMs, () => this.checkTokens());
  }

  /** Open streams on this instance (metrics, the benchmark). */
  get size(): number {
    return this.count;
  }

  /**
   * A slot for one more stream of this account and token, or 429 with
   * Retry-After. Taken before the request's first await, so parallel opens
   * cannot pass the limits together; the answer gives it back (the stream
   * does when it is removed).
   */
  reserve(userId: string, token: string): () => void {
    const release = this.budget.take([
      { key: `a ${userId}`, limit: this.options.perAccount },
      { key: `t ${token}`, limit: this.options.perToken },
    ]);
    if (release) return release;
    const perToken = this.budget.count(`t ${token}`) >= this.options.perToken;
    const message = perToken
      ? `This token already holds ${this.options.perToken} event streams; close one first`
      : `This account already holds ${this.options.perAccount} event streams; close one first`;
    throw new DomainError(ErrorCode.TooManyRequests, message, { retryAfterSeconds: RETRY_AFTER_S });
  }

  add(stream: FeedStream): void {
    let set = this.streams.get(stream.userId);
    if (!set) this.streams.set(stream.userId, (set = new Set()));
    set.add(stream);
    let same = this.byToken.get(stream.token);
    if (!same) this.byToken.set(stream.token, (same = new Set()));
    same.add(stream);
    this.count++;
    stream.out.once('close', () => this.remove(stream));
    // Replays what it missed (Last-Event-ID), through the same path as live events.
    this.wake(stream.userId);
  }

  /** Ends a stream, with a last event saying why when there is one (the client reconnects with a fresh token). */
  end(stream: FeedStream, reason?: string): void {
    if (stream.closed) return;
    if (reason && !stream.out.destroyed) stream.out.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    stream.out.end();
    this.remove(stream);
  }

  private remove(stream: FeedStream): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.release();
    this.count--;
    const set = this.streams.get(stream.userId);
    set?.delete(stream);
    if (set?.size === 0) this.streams.delete(stream.userId);
    const same = this.byToken.get(stream.token);
    same?.delete(stream);
    if (same?.size === 0) this.byToken.delete(stream.token);
  }

  /** Changes committed on this instance: wake local streams, tell the others. */
  committed(owners: ReadonlySet<string>): void {
    for (const o of owners) this.wake(o);
    if (this.bus) void this.bus.publish(this.source.channel, JSON.stringify({ origin: this.origin, users: [...owners] }));
  }

  private onMessage(message: string): void {
    const m = JSON.parse(message) as { origin?: unknown; users?: unknown };
    if (m.origin === this.origin || !Array.isArray(m.users)) return;
    for (const u of m.users) if (typeof u === 'string') this.wake(u);
  }

  /** Delivers a user's new events to its streams; runs once at a time per user, again if woken meanwhile. */
  wake(userId: string): void {
    if (!this.streams.has(userId)) return;
    if (this.pumping.has(userId)) {
      this.again.add(userId);
      return;
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(userId);
          await this.pump(userId);
        } while (this.again.has(userId));
        this.outcome(this.source.jobs.delivery, null);
      } catch (err) {
        // The next wake (a change, the poll) tries again from the same cursors: nothing is lost.
        this.outcome(this.source.jobs.delivery, err);
      } finally {
        this.pumping.delete(userId);
      }
    })();
    this.pumping.set(userId, run);
  }

  private async pump(userId: string): Promise<void> {
    for (;;) {
      const set = this.streams.get(userId);
      if (!set?.size) return;
      let from = Infinity;
      for (const s of set) from = Math.min(from, s.cursor);
      const frames = await this.source.after(userId, from, BATCH);
      if (frames.length === 0) return;
      const last = frames[frames.length - 1]!.seq;
      for (const s of this.streams.get(userId) ?? []) {
        let chunk = '';
        for (const f of frames) if (f.seq > s.cursor) chunk += f.text;
        if (!chunk) continue;
        s.cursor = Math.max(s.cursor, last);
        s.out.write(chunk);
        if (s.out.writableLength > MAX_BUFFERED) this.end(s);
      }
      if (frames.length < BATCH) return;
    }
  }

  /** One query for every user with a stream here: whose feed moved past what its streams have? */
  private async poll(): Promise<void> {
    if (this.polling || this.streams.size === 0) return;
    this.polling = true;
    try {
      const heads = await this.source.heads([...this.streams.keys()]);
      for (const [userId, seq] of heads) {
        const set = this.streams.get(userId);
        if (set && [...set].some((s) => s.cursor < seq)) this.wake(userId);
      }
      this.outcome(this.source.jobs.poll, null);
    } catch (err) {
      this.outcome(this.source.jobs.poll, err);
    } finally {
      this.polling = false;
    }
  }

  private heartbeat(): void {
    for (const set of this.streams.values()) for (const s of set) s.out.write(': keep-alive\n\n');
  }

  /**
   * Ends the streams whose token expired or was revoked (sign-out, password
   * change, grant or app revoked, ban). One check per distinct token, not
   * per stream; the verifier answers family tokens from memory (recheck).
   */
  private checkTokens(): void {
    const now = this.clock.now();
    for (const [token, same] of this.byToken) {
      // Streams of one token share its `exp`.
      const first = same.values().next().value as FeedStream;
      if (now >= first.expiresAt) {
        this.endAll(token, 'token_expired');
        continue;
      }
      if (this.checking.has(token)) continue;
      try {
        const checked = this.verifier.recheck(token);
        if (checked instanceof Promise) {
          this.checking.add(token);
          checked.then(
            () => this.checking.delete(token),
            () => {
              this.checking.delete(token);
              this.endAll(token, 'token_revoked');
            },
          );
        }
      } catch {
        this.endAll(token, 'token_revoked');
      }
    }
  }

  private endAll(token: string, reason: string): void {
    for (const s of [...(this.byToken.get(token) ?? [])]) this.end(s, reason);
  }

  /** Ends every stream (shutdown: open streams would hold the server's close). */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    for (const set of [...this.streams.values()]) for (const s of [...set]) this.end(s, 'shutdown');
  }
}
