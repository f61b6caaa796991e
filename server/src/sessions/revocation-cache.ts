// In-memory view of revocations, so the auth guard checks them without a
// database round trip. Every instance polls the revocation_events table once
// a second (POLL_MS); a revocation made anywhere is therefore enforced
// everywhere within about a second, well inside the contract's 5 s. The poll
// re-reads a window that overlaps the previous one, because rows committed
// out of order by concurrent writers could otherwise be missed.
import type { RevocationRepository, RevocationEvent } from './revocation-repository.js';
import { systemClock, type Clock } from '../core/clock.js';

const POLL_MS = 1000;
const OVERLAP_MS = 10_000;

export class RevocationCache {
  private readonly families = new Map<string, number>();
  /** key -> revoked_at (ms): tokens issued before it are dead. */
  private readonly cutoffs = new Map<string, number>();
  private lastPoll = 0;
  /** When the events were last read from the database successfully (health). */
  syncedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly repo: RevocationRepository,
    /** Told of each poll's outcome (null: success), so a failing poll is logged and shown (core/jobs.ts). */
    private readonly onPoll: (err: unknown) => void = () => undefined,
    private readonly clock: Clock = systemClock,
  ) {}

  async start(): Promise<void> {
    const now = this.clock.now();
    this.applyAll(await this.repo.activeAt(now));
    this.lastPoll = now;
    this.syncedAt = this.clock.now();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Waits for any poll under way; used on shutdown. */
  async idle(): Promise<void> {
    await this.polling;
  }

  private poll(): Promise<void> {
    if (this.polling) return this.polling;
    const started = this.clock.now();
    this.polling = this.repo
      .since(this.lastPoll - OVERLAP_MS)
      .then((events) => {
        this.applyAll(events);
        this.lastPoll = started;
        this.syncedAt = started;
        this.prune(started);
        this.onPoll(null);
      })
      .catch((err: unknown) => {
        // The next poll retries; a database outage must not crash the server (logged once, health shows the lag).
        this.onPoll(err);
      })
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  applyAll(events: RevocationEvent[]): void {
    for (const e of events) this.apply(e);
  }

  apply(e: RevocationEvent): void {
    if (e.kind === 'family') this.families.set(e.key, e.expires_at);
    else {
      const key = `${e.kind}:${e.key}`;
      const prev = this.cutoffs.get(key) ?? 0;
      if (e.revoked_at > prev) this.cutoffs.set(key, e.revoked_at);
    }
  }

  private prune(now: number): void {
    for (const [sid, exp] of this.families) if (exp < now) this.families.delete(sid);
  }

  isFamilyRevoked(sid: string): boolean {
    return this.families.has(sid);
  }

  /**
   * True when a token of this kind/key issued at `issuedAtMs` (its `iat`, whole
   * seconds) has been cut off. A cut-off inside the token's own second is
   * ambiguous: the token may be from just before it or just after it (a user
   * unbanned and signed in again, an app re-authorized). Every revocation with
   * a cut-off also revokes all session families it covers, so a token whose
   * family is still live (`inLiveFamily`) was issued after it and is spared; a
   * token without a family is not.
   */
  isCutOff(kind: 'grant' | 'client' | 'user', key: string, issuedAtMs: number, inLiveFamily = false): boolean {
    const cutoff = this.cutoffs.get(`${kind}:${key}`);
    if (cutoff === undefined || issuedAtMs > cutoff) return false;
    return !(inLiveFamily && cutoff - issuedAtMs < 1000);
  }
}
