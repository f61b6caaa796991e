// Unlock tokens: proof that the password of one share was given, so that it is
// not resent with every listing and download. A token is `<exp>.<mac>`, an
// HMAC over the share id, the expiry and the share's current password hash,
// under a key derived from the master key with HKDF (RFC 5869) under its own
// label: it works for this share only, dies at `exp`, and dies at once when
// the owner changes or removes the password (the hash it was bound to is gone).
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '../crypto/compare.js';
import type { Clock } from '../core/clock.js';

export const UNLOCK_TTL_SECONDS = 3600;
const INFO = 'cirrus/shares/unlock/v1';
const FORMAT = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export class UnlockTokens {
  private readonly key: Buffer;

  constructor(
    masterKey: string,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), INFO, 32));
  }

  private mac(shareId: string, exp: number, passwordHash: string): string {
    return createHmac('sha256', this.key).update(`${shareId}\n${exp}\n${passwordHash}`).digest('base64url');
  }

  issue(shareId: string, passwordHash: string, nowMs = this.clock.now()): { token: string; expiresAt: number } {
    const exp = Math.floor(nowMs / 1000) + UNLOCK_TTL_SECONDS;
    return { token: `${exp}.${this.mac(shareId, exp, passwordHash)}`, expiresAt: exp * 1000 };
  }

  verify(shareId: string, passwordHash: string, token: string, nowMs = this.clock.now()): boolean {
    const m = FORMAT.exec(token);
    if (!m) return false;
    const exp = Number(m[1]);
    // The MAC is checked before the expiry so that timing tells nothing about a forged token.
    if (!safeEqual(this.mac(shareId, exp, passwordHash), m[2]!)) return false;
    return exp * 1000 > nowMs;
  }
}
