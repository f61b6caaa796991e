// PKCE (RFC 7636) with the only method we accept, S256.
import { hash } from 'node:crypto';

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
  // A well-formed verifier is ASCII (§4.1), so its UTF-8 bytes are its ASCII bytes.
  return hash('sha256', verifier, 'base64url');
}

/** Never equal to a stored challenge: those are base64url (see CHALLENGE). */
export const NO_CHALLENGE = '(malformed code_verifier)';

/**
 * §4.6: what the stored challenge must equal for `verifier` to pass: its
 * S256 when it is well formed (§4.1), otherwise a value no challenge equals.
 * The code exchange compares it with the stored challenge in its one query.
 */
export function challengeFor(verifier: string): string {
  return isWellFormedVerifier(verifier) ? s256(verifier) : NO_CHALLENGE;
}
