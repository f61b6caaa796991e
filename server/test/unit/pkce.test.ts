// Unit tests of oauth/pkce.ts: RFC 7636 with S256 only (api-contract §5:
// "Only S256 challenges").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { challengeFor, isWellFormedChallenge, isWellFormedVerifier, s256 } from '../../src/oauth/pkce.js';

// What the code exchange does: the stored challenge must equal challengeFor(verifier).
const verifierMatches = (verifier: string, challenge: string): boolean => challengeFor(verifier) === challenge;

// RFC 7636 Appendix B: the verifier is the base64url of these 32 octets, and its S256 challenge.
const B_OCTETS = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
const B_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const B_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE (RFC 7636)', () => {
  it('Appendix B: the example verifier hashes to the example S256 challenge', () => {
    assert.equal(Buffer.from(B_OCTETS).toString('base64url'), B_VERIFIER);
    assert.equal(s256(B_VERIFIER), B_CHALLENGE);
    assert.equal(verifierMatches(B_VERIFIER, B_CHALLENGE), true);
  });

  it('§4.1: a verifier is 43 to 128 characters', () => {
    assert.equal(isWellFormedVerifier('a'.repeat(42)), false);
    assert.equal(isWellFormedVerifier('a'.repeat(43)), true);
    assert.equal(isWellFormedVerifier('a'.repeat(128)), true);
    assert.equal(isWellFormedVerifier('a'.repeat(129)), false);
    assert.equal(isWellFormedVerifier(''), false);
  });

  it('§4.1: a verifier uses the unreserved characters [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~" only', () => {
    const base = 'a'.repeat(42);
    for (const c of ['A', 'z', '0', '9', '-', '.', '_', '~']) assert.equal(isWellFormedVerifier(base + c), true, c);
    for (const c of ['+', '/', '=', ' ', '%', '!', '*', '\n', 'é', '\u0000', '😀']) assert.equal(isWellFormedVerifier(base + c), false, JSON.stringify(c));
  });

  it('§4.2: an S256 challenge is the unpadded base64url of a SHA-256: exactly 43 characters of that alphabet', () => {
    assert.equal(isWellFormedChallenge(B_CHALLENGE), true);
    assert.equal(isWellFormedChallenge(B_CHALLENGE.slice(1)), false);
    assert.equal(isWellFormedChallenge(B_CHALLENGE + 'A'), false);
    assert.equal(isWellFormedChallenge(B_CHALLENGE + '='), false, 'padding');
    assert.equal(isWellFormedChallenge(B_CHALLENGE.replace('-', '+')), false, 'base64, not base64url');
    assert.equal(isWellFormedChallenge('a'.repeat(42) + '.'), false, '"." is a verifier character, not base64url');
    for (let i = 0; i < 50; i++) assert.equal(isWellFormedChallenge(s256(randomBytes(32).toString('base64url'))), true);
  });

  it('§4.6: a verifier that does not hash to the challenge is refused', () => {
    const other = randomBytes(32).toString('base64url');
    assert.equal(verifierMatches(other, B_CHALLENGE), false);
    assert.equal(verifierMatches(B_VERIFIER.slice(0, -1) + 'l', B_CHALLENGE), false);
    assert.equal(verifierMatches(B_VERIFIER, B_CHALLENGE.toLowerCase()), false);
  });

  it('§4.2 "plain" is not accepted: a verifier sent as its own challenge does not match', () => {
    const verifier = 'a'.repeat(43); // also a well-formed 43-character challenge
    assert.equal(isWellFormedChallenge(verifier), true);
    assert.equal(verifierMatches(verifier, verifier), false);
  });

  it('§4.1: a malformed verifier is refused even if it hashes to the challenge', () => {
    const short = 'abc';
    assert.equal(verifierMatches(short, s256(short)), false);
    const long = 'a'.repeat(129);
    assert.equal(verifierMatches(long, s256(long)), false);
    const wrongChars = '+'.repeat(43);
    assert.equal(verifierMatches(wrongChars, s256(wrongChars)), false);
  });

  it('round trip: any well-formed random verifier matches its own S256', () => {
    for (let i = 0; i < 50; i++) {
      const v = randomBytes(32 + i).toString('base64url').slice(0, 43 + i);
      assert.equal(isWellFormedVerifier(v), true, v);
      assert.equal(verifierMatches(v, s256(v)), true, v);
    }
  });
});
