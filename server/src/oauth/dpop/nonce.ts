// Server-provided DPoP nonces (RFC 9449 §8, §9). They are stateless, so every
// instance accepts the others' without sharing anything but the master key:
// a nonce names a time period and carries an HMAC of it; the current and the
// previous period are accepted, so a nonce lives between one and two periods.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/compare.js';
import type { Clock } from '../../core/clock.js';

export const NONCE_PERIOD_MS = 5 * 60_000;

export class DpopNonces {
  private readonly key: Buffer;
  private cached: { period: number; nonce: string } | null = null;

  constructor(
    masterKey: string,
    private readonly clock: Clock,
  ) {
    // A key of its own, derived from the master key: a nonce is no token of anything else.
    this.key = createHmac('sha256', masterKey).update('cirrus dpop nonce').digest();
  }

  private sign(period: number): string {
    return `${period.toString(36)}.${createHmac('sha256', this.key).update(String(period)).digest('base64url').slice(0, 22)}`;
  }

  /** The nonce to hand out now. */
  current(): string {
    const period = Math.floor(this.clock.now() / NONCE_PERIOD_MS);
    if (this.cached?.period !== period) this.cached = { period, nonce: this.sign(period) };
    return this.cached.nonce;
  }

  /** Whether `nonce` was handed out in this period or the one before. */
  isFresh(nonce: string | undefined): boolean {
    if (nonce === undefined || nonce.length > 64) return false;
    const period = Math.floor(this.clock.now() / NONCE_PERIOD_MS);
    return safeEqual(nonce, this.sign(period)) || safeEqual(nonce, this.sign(period - 1));
  }
}
