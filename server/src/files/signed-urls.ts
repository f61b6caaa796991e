// Signed, expiring download URLs: a capability that works without an
// Authorization header (for <video src>, download managers, curl). The key is
// derived from the master key with HKDF (RFC 5869) under its own label, so it
// signs nothing else and the master key itself is never used for it.
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '../crypto/compare.js';
import { nowSeconds, type Clock } from '../core/clock.js';

export const MAX_URL_TTL = 7 * 24 * 3600;
const INFO = 'cirrus/files/signed-download/v1';
// A key of its own, so a file link's signature can never pass as an archive's.
const ARCHIVE_INFO = 'cirrus/files/signed-archive/v1';
/** Ids in one signed archive URL: with 16-character ids the request line stays under Node's 16 KiB header limit. */
export const MAX_SIGNED_ARCHIVE_ITEMS = 400;

export interface SignedArchive {
  ownerId: string;
  ids: readonly string[];
  expires: number;
}

export interface SignedParams {
  fileId: string;
  /** Unix seconds. */
  expires: number;
  inline: boolean;
}

export class UrlSigner {
  private readonly key: Buffer;
  private readonly archiveKey: Buffer;

  constructor(
    masterKey: string,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), INFO, 32));
    this.archiveKey = Buffer.from(hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), ARCHIVE_INFO, 32));
  }

  /** The `expires` (Unix seconds) of a URL valid for `ttlSeconds` from now. */
  expiresIn(ttlSeconds: number): number {
    return nowSeconds(this.clock) + ttlSeconds;
  }

  signArchive(a: SignedArchive): string {
    return createHmac('sha256', this.archiveKey).update(`${a.ownerId}\n${a.ids.join(',')}\n${a.expires}`).digest('base64url');
  }

  verifyArchive(a: SignedArchive, signature: string, nowMs = this.clock.now()): 'ok' | 'bad' | 'expired' {
    if (!safeEqual(this.signArchive(a), signature)) return 'bad';
    return a.expires * 1000 > nowMs ? 'ok' : 'expired';
  }

  /** A path for several items as one ZIP; the last segment is the archive's file name. */
  archivePath(a: SignedArchive, name: string): string {
    const q = new URLSearchParams({ owner: a.ownerId, ids: a.ids.join(','), expires: String(a.expires), sig: this.signArchive(a) });
    return `/api/v4/file/archive/signed/${encodeURIComponent(name)}?${q.toString()}`;
  }

  sign(p: SignedParams): string {
    return createHmac('sha256', this.key).update(`${p.fileId}\n${p.expires}\n${p.inline ? 'inline' : 'attachment'}`).digest('base64url');
  }

  /** Constant-time check of the signature, then of the expiry. */
  verify(p: SignedParams, signature: string, nowMs = this.clock.now()): 'ok' | 'bad' | 'expired' {
    if (!safeEqual(this.sign(p), signature)) return 'bad';
    return p.expires * 1000 > nowMs ? 'ok' : 'expired';
  }

  /** A path (relative to the base URL) whose last segment is the file name, for clients that save by URL. */
  path(p: SignedParams, name: string): string {
    const q = new URLSearchParams({ expires: String(p.expires), ...(p.inline ? { inline: '1' } : {}), sig: this.sign(p) });
    return `/api/v4/file/signed/${p.fileId}/${encodeURIComponent(name)}?${q.toString()}`;
  }
}
