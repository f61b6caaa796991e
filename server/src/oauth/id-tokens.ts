// The id_token signing key (ES256). Generated on first start and kept in the
// `settings` table, so every instance signs with the same key; only the
// public half ever leaves this module (JWKS).
import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey as NodeJwk, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SettingsService } from '../site/settings.js';

export const ID_TOKEN_KEY_SETTING = 'oauth_id_token_key';
export const ID_TOKEN_ALG = 'ES256';

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  nonce?: string;
  auth_time?: number;
  /** The session family the tokens belong to (OIDC Front-Channel Logout §3): names what an RP-initiated logout ends. */
  sid?: string;
  /** With the email scope (OIDC Core §5.1), as userinfo answers them. */
  email?: string;
  email_verified?: boolean;
}

/** A verified id_token of this server (its expiry is the caller's to judge). */
export type VerifiedIdToken = IdTokenClaims & { iat: number; exp: number };

export class IdTokenSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicJwk: JWK,
  ) {}

  /** Loads the key, creating it when absent; concurrent first starts agree on the row that won. */
  static async load(settings: Pick<SettingsService, 'keyOrCreate'>): Promise<IdTokenSigner> {
    const stored = await settings.keyOrCreate(ID_TOKEN_KEY_SETTING, async () => {
      const { privateKey } = await generateKeyPair(ID_TOKEN_ALG, { extractable: true });
      const jwk = await exportJWK(privateKey);
      jwk.kid = await calculateJwkThumbprint(jwk);
      return JSON.stringify(jwk);
    });
    const jwk = JSON.parse(stored) as JWK;
    const privateKey = createPrivateKey({ key: jwk as NodeJwk, format: 'jwk' });
    const { kty, crv, x, y, kid } = jwk;
    return new IdTokenSigner(privateKey, { kty, crv, x, y, kid, alg: ID_TOKEN_ALG, use: 'sig' });
  }

  /**
   * An id_token this server signed (ES256, this key, this issuer), expired or
   * not; null for anything else. For id_token_hint (RP-initiated logout).
   */
  verify(token: string, issuer: string): VerifiedIdToken | null {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > 8192) return null;
    try {
      const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: unknown; kid?: unknown };
      if (header.alg !== ID_TOKEN_ALG || header.kid !== this.publicJwk.kid) return null;
      const publicKey = createPublicKey(this.privateKey);
      const ok = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`, 'utf8'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
      if (!ok) return null;
      const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Partial<VerifiedIdToken>;
      if (claims.iss !== issuer || typeof claims.sub !== 'string' || typeof claims.aud !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return null;
      return claims as VerifiedIdToken;
    } catch {
      return null;
    }
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  /**
   * A compact JWS (RFC 7515) signed with node:crypto directly: jose's SignJWT
   * goes through WebCrypto, whose per-call overhead is a large share of a
   * code exchange's CPU. Signed on the event loop: handing the 25 µs of
   * ECDSA to libuv's thread pool (crypto.sign's callback form, sessions
   * 11-15) cost more than it saved once both cores are busy, because waking
   * a pool thread preempts the event loop on this kind of machine
   * (docs/benchmarks.md, session 16: PostgreSQL exchange 1.13-1.26x faster
   * signed here, SQLite the same rate with 8-12 % less CPU).
   */
  sign(claims: IdTokenClaims, ttlSeconds: number, now: number): string {
    const iat = Math.floor(now / 1000);
    const header = { alg: ID_TOKEN_ALG, kid: this.publicJwk.kid!, typ: 'JWT' };
    const input = `${base64urlJson(header)}.${base64urlJson({ ...claims, iat, exp: iat + ttlSeconds })}`;
    // RFC 7518 §3.4: ES256 signatures are R || S (64 bytes), not DER.
    const signature = sign('sha256', Buffer.from(input, 'utf8'), { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  }
}

function base64urlJson(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
