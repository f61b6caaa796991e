// HS256 JSON Web Tokens with node:crypto. Verification runs on every
// authenticated request, so it is hand-checked rather than going through a
// general JOSE library (see docs/benchmarks.md for the measured difference).
// Only HS256 is accepted: any other `alg`, `none` included, fails (RFC 8725 §3.1).
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type JwtClaims = Record<string, unknown>;

export class JwtError extends Error {}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export class Hs256 {
  private readonly key: KeyObject;

  /** The HMAC key is the UTF-8 bytes of the stored master key string, as it is (api-contract §4). */
  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(claims: JwtClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const input = `${HEADER}.${payload}`;
    const sig = createHmac('sha256', this.key).update(input).digest('base64url');
    return `${input}.${sig}`;
  }

  /** Checks the structure, algorithm and signature; returns the claims. Time checks are the caller's. */
  verify(token: string): JwtClaims {
    if (token.length > 8192) throw new JwtError('token too long');
    const first = token.indexOf('.');
    const second = token.indexOf('.', first + 1);
    if (first <= 0 || second <= first + 1 || token.indexOf('.', second + 1) !== -1 || second === token.length - 1) {
      throw new JwtError('malformed token');
    }
    const headerPart = token.slice(0, first);
    if (headerPart !== HEADER) {
      const header = decodeJson(headerPart);
      if (header.alg !== 'HS256') throw new JwtError('unsupported alg');
      if (header.crit !== undefined) throw new JwtError('unsupported crit header');
    }
    const signaturePart = token.slice(second + 1);
    const signature = Buffer.from(signaturePart, 'base64url');
    // Node's decoder skips padding and stray characters and ignores the unused
    // bits of the last one; only the canonical unpadded spelling (RFC 7515 §2)
    // is the token, so other spellings of the same bytes are refused.
    if (signature.toString('base64url') !== signaturePart) throw new JwtError('malformed signature');
    const expected = createHmac('sha256', this.key).update(token.slice(0, second)).digest();
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new JwtError('bad signature');
    return decodeJson(token.slice(first + 1, second));
  }
}

function decodeJson(part: string): JwtClaims {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) throw new JwtError('malformed segment');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed segment');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new JwtError('malformed segment');
  return value as JwtClaims;
}

export const CLOCK_LEEWAY_SECONDS = 30;

/** exp/nbf checks with the contract's leeway (at most 30 s). */
export function checkTimes(claims: JwtClaims, nowSeconds: number): void {
  const { exp, nbf } = claims;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new JwtError('missing exp');
  if (exp + CLOCK_LEEWAY_SECONDS <= nowSeconds) throw new JwtError('expired');
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf - CLOCK_LEEWAY_SECONDS > nowSeconds)) throw new JwtError('not yet valid');
}
