// Client secrets are 256-bit random strings (or admin-supplied, at least 16
// characters). Stored as HMAC-SHA256 under a pepper derived from the master
// key, not argon2: a high-entropy secret gains nothing from a slow hash, and
// the token endpoint verifies one on every request (docs/security.md).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { secretToken } from '../crypto/random.js';

export const MIN_SUPPLIED_SECRET_LENGTH = 16;

export class ClientSecrets {
  private readonly pepper: Buffer;

  constructor(masterKey: string) {
    // A key of its own, so a client-secret hash says nothing about the JWT key.
    this.pepper = Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), 'cirrus oauth client secret pepper v1', 32));
  }

  generate(): string {
    return secretToken(32);
  }

  hash(secret: string): string {
    return this.mac(secret).toString('hex');
  }

  /**
   * Both sides are 32-byte digests, so they are compared as they are, in
   * constant time (the stored one is always 64 hex digits: `hash` wrote it).
   */
  verify(secret: string, storedHash: string): boolean {
    const stored = Buffer.from(storedHash, 'hex');
    const presented = this.mac(secret);
    return stored.length === presented.length && timingSafeEqual(stored, presented);
  }

  private mac(secret: string): Buffer {
    return createHmac('sha256', this.pepper).update(secret, 'utf8').digest();
  }
}
