// Bounded-staleness cache of the few user fields the auth guard needs, so that
// verifying a token costs no database round trip on most requests. A ban or
// deletion on another instance is seen within TTL_MS (contract: at most 5 s);
// on this instance it is seen at once through invalidate().
import { LruMap } from '../core/lru-map.js';
import type { AuthUser } from '../core/identity.js';
import type { AccountRepository } from './repository.js';
import { systemClock, type Clock } from '../core/clock.js';

export type { AuthUser };

const TTL_MS = 3000;
/** Not a user id (UIDs have no '*'): names the whole cache in an invalidation. */
const EVERY_USER = '*';
const MAX_ENTRIES = 50_000;

export class UserCache {
  private readonly entries = new LruMap<string, { at: number; user: AuthUser | null }>(MAX_ENTRIES);

  constructor(
    private readonly repo: AccountRepository,
    /** Tells the other instances (through Redis) that this user changed. */
    private readonly broadcast: (id: string) => void = () => undefined,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The cached user when fresh (no await on the hot path); undefined when it must be read. */
  peek(id: string): AuthUser | null | undefined {
    const hit = this.entries.get(id);
    return hit && this.clock.now() - hit.at < TTL_MS ? hit.user : undefined;
  }

  async get(id: string): Promise<AuthUser | null> {
    const now = this.clock.now();
    const hit = this.entries.get(id);
    if (hit && now - hit.at < TTL_MS) return hit.user;
    const row = await this.repo.findById(id);
    const user = row
      ? { id: row.id, email: row.email, active: row.status === 'active', isAdmin: row.group_is_admin === 1, groupId: row.group_id, tokensValidAfter: Number(row.tokens_valid_after), row }
      : null;
    this.entries.set(id, { at: now, user });
    return user;
  }

  invalidate(id: string): void {
    this.entries.delete(id);
    this.broadcast(id);
  }

  /** Drops an entry another instance changed (every entry for EVERY_USER). */
  forget(id: string): void {
    if (id === EVERY_USER) this.entries.clear();
    else this.entries.delete(id);
  }

  /** After a change that touches many users at once (a group's rights). */
  clear(): void {
    this.entries.clear();
    this.broadcast(EVERY_USER);
  }
}
