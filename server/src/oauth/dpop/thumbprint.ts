// JWK thumbprints (RFC 7638) of the public keys DPoP accepts, and the public
// key objects themselves. Only the required members, in lexicographic order,
// are hashed (§3.2), so the same key always has the same thumbprint.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

/** The members a private or symmetric JWK has and a public one must not (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type PublicJwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string } | { kty: 'OKP'; crv: 'Ed25519'; x: string };

const B64URL = /^[A-Za-z0-9_-]+$/;

function coordinate(value: unknown, bytes: number): string | null {
  if (typeof value !== 'string' || !B64URL.test(value)) return null;
  const decoded = Buffer.from(value, 'base64url');
  return decoded.length === bytes && decoded.toString('base64url') === value ? value : null;
}

/**
 * The public key a proof header carries, for the algorithm it names, or a
 * reason it is refused (private parts, another key type, malformed points).
 */
export function publicJwk(jwk: unknown, alg: string): PublicJwk | string {
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) return 'jwk: must be a JSON object';
  const k = jwk as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((m) => Object.hasOwn(k, m))) return 'jwk: must not contain a private or symmetric key (RFC 9449 §4.2)';
  if (alg === 'ES256') {
    const x = coordinate(k.x, 32);
    const y = coordinate(k.y, 32);
    if (k.kty !== 'EC' || k.crv !== 'P-256' || x === null || y === null) return 'jwk: ES256 needs an EC P-256 public key';
    return { kty: 'EC', crv: 'P-256', x, y };
  }
  const x = coordinate(k.x, 32);
  if (k.kty !== 'OKP' || k.crv !== 'Ed25519' || x === null) return `jwk: ${alg} needs an OKP Ed25519 public key`;
  return { kty: 'OKP', crv: 'Ed25519', x };
}

/** RFC 7638 §3: SHA-256 over the required members in lexicographic order, base64url. */
export function thumbprint(jwk: PublicJwk): string {
  const canonical = jwk.kty === 'EC' ? `{"crv":"${jwk.crv}","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}` : `{"crv":"${jwk.crv}","kty":"OKP","x":"${jwk.x}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** A KeyObject for the key; throws when the point is not on the curve. */
export function keyObject(jwk: PublicJwk): KeyObject {
  return createPublicKey({ key: jwk, format: 'jwk' });
}
