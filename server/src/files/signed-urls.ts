// Signed, expiring download URLs: a capability that works without an
// Authorization header (for <video src>, download managers, curl). The key is
// derived from the master key with HKDF (RFC 5869) under its own label, so it
// signs nothing else and the master key itself is never used for it.
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '../crypto/compare.js';

export const MAX_URL_TTL = 7 * 24 * 3600;
const INFO = 'cirrus/files/signed-download/v1';

export interface SignedParams {
  fileId: string;
  /** Unix seconds. */
  expires: number;
  inline: boolean;
}

export class UrlSigner {
  private readonly key: Buffer;

  constructor(masterKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), INFO, 32));
  }

  sign(p: SignedParams): string {
    return createHmac('sha256', this.key).update(`${p.fileId}\n${p.expires}\n${p.inline ? 'inline' : 'attachment'}`).digest('base64url');
  }

  /** Constant-time check of the signature, then of the expiry. */
  verify(p: SignedParams, signature: string, nowMs = Date.now()): 'ok' | 'bad' | 'expired' {
    if (!safeEqual(this.sign(p), signature)) return 'bad';
    return p.expires * 1000 > nowMs ? 'ok' : 'expired';
  }

  /** A path (relative to the base URL) whose last segment is the file name, for clients that save by URL. */
  path(p: SignedParams, name: string): string {
    const q = new URLSearchParams({ expires: String(p.expires), ...(p.inline ? { inline: '1' } : {}), sig: this.sign(p) });
    return `/api/v4/file/signed/${p.fileId}/${encodeURIComponent(name)}?${q.toString()}`;
  }
}
