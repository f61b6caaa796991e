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
  /** The protected header, the same for every token of this key. */
  private readonly encodedHeader: string;

  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicJwk: JWK,
  ) {
    this.encodedHeader = base64urlJson({ alg: ID_TOKEN_ALG, kid: publicJwk.kid!, typ: 'JWT' });
  }

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
   * code exchange's CPU. The ECDSA runs on libuv's thread pool (crypto.sign's
   * callback form) while the event loop serves other requests. Which is
   * faster depends on how busy the machine's other cores are: session 16
   * measured signing on the loop faster, on another machine and before the
   * statements were grouped (decisions 026, 027); session 18 measured the
   * pool 1.13x faster for the exchange on both databases (docs/benchmarks.md).
   */
  sign(claims: IdTokenClaims, ttlSeconds: number, now: number): Promise<string> {
    const iat = Math.floor(now / 1000);
    const input = `${this.encodedHeader}.${base64urlJson({ ...claims, iat, exp: iat + ttlSeconds })}`;
    return new Promise((resolve, reject) => {
      // RFC 7518 §3.4: ES256 signatures are R || S (64 bytes), not DER.
      sign('sha256', Buffer.from(input, 'utf8'), { key: this.privateKey, dsaEncoding: 'ieee-p1363' }, (err, signature) => {
        if (err) reject(err);
        else resolve(`${input}.${signature.toString('base64url')}`);
      });
    });
  }
}

function base64urlJson(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
