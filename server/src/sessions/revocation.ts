// Revoking session families, OAuth grants and clients: marks the database
// rows, records an event every instance picks up, and applies it locally at once.
import type { RevocationCache } from './revocation-cache.js';
import type { RevocationEvent, RevocationRepository } from './revocation-repository.js';
import type { SessionRepository, SessionRow } from './repository.js';
import type { Clock } from '../core/clock.js';

/** Access tokens never outlive this; events older than it can be pruned. */
export const MAX_ACCESS_TTL_MS = 24 * 3600 * 1000;

export class RevocationService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly events: RevocationRepository,
    readonly cache: RevocationCache,
    private readonly clock: Clock,
    /** Publishes recorded events to the other instances (Redis); they poll the database too. */
    private readonly broadcast: (events: RevocationEvent[]) => void = () => undefined,
  ) {}

  private async record(events: RevocationEvent[]): Promise<void> {
    await this.events.insert(events);
    this.cache.applyAll(events);
    if (events.length) this.broadcast(events);
  }

  private familyEvents(rows: SessionRow[], now: number): RevocationEvent[] {
    // An access token of the family lives at most MAX_ACCESS_TTL_MS past the revocation.
    return rows.map((r) => ({ kind: 'family', key: r.id, revoked_at: now, expires_at: now + MAX_ACCESS_TTL_MS }));
  }

  async revokeFamily(sid: string, reason: string): Promise<void> {
    const now = this.clock.now();
    const rows = await this.sessions.revoke({ id: sid }, reason, now);
    // Record the event even if the row was already revoked by a racing request: it is idempotent.
    await this.record(this.familyEvents(rows.length ? rows : [{ id: sid } as SessionRow], now));
  }

  async revokeUserSessions(userId: string, reason: string, exceptSid?: string): Promise<void> {
    const now = this.clock.now();
    const rows = await this.sessions.revoke({ userId, exceptId: exceptSid }, reason, now);
    await this.record(this.familyEvents(rows, now));
  }

  /** Everything a user granted a client stops: refresh tokens at once, access tokens via the cutoff. */
  async revokeGrant(userId: string, clientId: string, reason: string): Promise<void> {
    const now = this.clock.now();
    const rows = await this.sessions.revoke({ userId, clientId }, reason, now);
    await this.record([...this.familyEvents(rows, now), { kind: 'grant', key: `${userId} ${clientId}`, revoked_at: now, expires_at: now + MAX_ACCESS_TTL_MS }]);
  }

  async revokeClient(clientId: string, reason: string): Promise<void> {
    const now = this.clock.now();
    const rows = await this.sessions.revoke({ clientId }, reason, now);
    await this.record([...this.familyEvents(rows, now), { kind: 'client', key: clientId, revoked_at: now, expires_at: now + MAX_ACCESS_TTL_MS }]);
  }

  /** All of a user's tokens issued up to now stop (ban, delete). */
  async revokeUser(userId: string, reason: string): Promise<void> {
    const now = this.clock.now();
    const rows = await this.sessions.revoke({ userId }, reason, now);
    await this.record([...this.familyEvents(rows, now), { kind: 'user', key: userId, revoked_at: now, expires_at: now + MAX_ACCESS_TTL_MS }]);
  }

  async prune(): Promise<void> {
    const now = this.clock.now();
    await this.events.prune(now);
    await this.sessions.pruneExpired(now);
  }
}
