// The jti replay check of RFC 9449 §11.1: a proof is accepted once within
// the window its iat allows. With Redis the claim is shared by every instance
// (SET NX PX); without it, or while Redis is unreachable, each instance
// remembers the proofs it saw in a bounded map.
import { LruMap } from '../../core/lru-map.js';
import type { Clock } from '../../core/clock.js';

/** At 200,000 entries the map covers more than 1,600 proofs a second for the longest life an entry needs (2 min). */
const LOCAL_MAX = 200_000;

export interface SharedClaims {
  /** true: claimed now; false: claimed before; undefined: the shared store is unavailable. */
  claim(key: string, ttlMs: number): Promise<boolean | undefined>;
}

export class ReplayCache {
  private readonly local = new LruMap<string, number>(LOCAL_MAX);

  constructor(
    private readonly clock: Clock,
    private readonly shared?: SharedClaims,
  ) {}

  /** True the first time `key` is seen before `untilMs`; false for a replay. */
  async firstUse(key: string, untilMs: number): Promise<boolean> {
    const ttl = untilMs - this.clock.now();
    if (this.shared) {
      const claimed = await this.shared.claim(`dpop:${key}`, ttl);
      if (claimed !== undefined) return claimed;
    }
    return this.firstUseLocally(key, untilMs);
  }

  private firstUseLocally(key: string, untilMs: number): boolean {
    const now = this.clock.now();
    const seen = this.local.get(key);
    if (seen !== undefined && seen > now) return false;
    this.local.set(key, untilMs);
    return true;
  }
}
