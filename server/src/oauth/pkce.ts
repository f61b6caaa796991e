// PKCE (RFC 7636) with the only method we accept, S256.
import { createHash } from 'node:crypto';
import { safeEqual } from '../crypto/compare.js';

/** §4.1: 43–128 characters of the unreserved alphabet. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is a base64url SHA-256 without padding: exactly 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** §4.6: the verifier must be well formed and hash to the stored challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return isWellFormedVerifier(verifier) && safeEqual(s256(verifier), challenge);
}
