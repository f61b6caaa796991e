// Bounded-staleness cache of the few user fields the auth guard needs, so that
// verifying a token costs no database round trip on most requests. A ban or
// deletion on another instance is seen within TTL_MS (contract: at most 5 s);
// on this instance it is seen at once through invalidate().
// Misses of one user that overlap share one read (single flight): thousands
// of connections of one account finding the entry expired together cost one
// query, not one each (issue 32).
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
  /** The read under way for a user; dropped with the entry, so a change never lets later callers join an older read. */
  private readonly loading = new Map<string, Promise<AuthUser | null>>();

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

  /**
   * The last user read, however old (undefined when there is none): for a
   * connection already admitted whose every way of ending is a revocation
   * event (access-tokens.ts recheck), so that holding it open reads nothing.
   */
  peekHeld(id: string): AuthUser | null | undefined {
    return this.entries.get(id)?.user;
  }

  async get(id: string): Promise<AuthUser | null> {
    const hit = this.entries.get(id);
    if (hit && this.clock.now() - hit.at < TTL_MS) return hit.user;
    return this.loading.get(id) ?? this.load(id);
  }

  private load(id: string): Promise<AuthUser | null> {
    const at = this.clock.now();
    const read: Promise<AuthUser | null> = this.repo.findById(id).then(
      (row) => {
        const user = row
          ? { id: row.id, email: row.email, active: row.status === 'active', isAdmin: row.group_is_admin === 1, groupId: row.group_id, tokensValidAfter: Number(row.tokens_valid_after), row }
          : null;
        // Still the current read: no change dropped it meanwhile (a dropped read answers its callers but stores nothing).
        if (this.loading.get(id) === read) {
          this.loading.delete(id);
          this.entries.set(id, { at, user });
        }
        return user;
      },
      (err: unknown) => {
        if (this.loading.get(id) === read) this.loading.delete(id);
        throw err;
      },
    );
    this.loading.set(id, read);
    return read;
  }

  invalidate(id: string): void {
    this.entries.delete(id);
    this.loading.delete(id);
    this.broadcast(id);
  }

  /** Drops an entry another instance changed (every entry for EVERY_USER). */
  forget(id: string): void {
    if (id === EVERY_USER) {
      this.entries.clear();
      this.loading.clear();
    } else {
      this.entries.delete(id);
      this.loading.delete(id);
    }
  }

  /** After a change that touches many users at once (a group's rights). */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.broadcast(EVERY_USER);
  }
}
