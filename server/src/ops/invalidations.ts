// Cache invalidations between instances. Each cache registers how it drops
// an entry; a local change drops it here at once and is published through
// Redis so the other instances drop it too (within milliseconds instead of
// their caches' staleness bound of a few seconds). Without Redis, or while
// it is down, those bounds still hold: this is a shortcut, not a guarantee.
import { randomUUID } from 'node:crypto';
import type { RedisBus } from './redis-bus.js';

export type CacheKind = 'user' | 'client' | 'settings';
const KINDS: readonly CacheKind[] = ['user', 'client', 'settings'];

export class Invalidations {
  private readonly droppers = new Map<CacheKind, ((id: string) => void)[]>();
  /** Our own messages come back from Redis: they are recognized and skipped. */
  private readonly origin = randomUUID();

  constructor(private readonly bus?: RedisBus) {}

  /** How `kind` entries are dropped on this instance. */
  on(kind: CacheKind, drop: (id: string) => void): void {
    this.droppers.set(kind, [...(this.droppers.get(kind) ?? []), drop]);
  }

  /** A local change: tell the other instances (this one already dropped its entry). */
  publish(kind: CacheKind, id: string): void {
    if (this.bus) void this.bus.publish('invalidate', JSON.stringify({ origin: this.origin, kind, id }));
  }

  async start(): Promise<void> {
    await this.bus?.subscribe('invalidate', (message) => {
      const m = JSON.parse(message) as { origin?: unknown; kind?: unknown; id?: unknown };
      if (m.origin === this.origin || typeof m.id !== 'string' || !KINDS.includes(m.kind as CacheKind)) return;
      for (const drop of this.droppers.get(m.kind as CacheKind) ?? []) drop(m.id);
    });
  }
}
