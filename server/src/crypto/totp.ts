// TOTP (RFC 6238) with SHA-1, 6 digits, 30 s steps: what every authenticator
// app speaks. The HOTP arithmetic, base32 and the otpauth:// URI come from the
// `otpauth` library; what is ours is the policy: one step of drift either
// way, constant-time comparison, and the matched step returned so callers can
// refuse a code used twice.
import { HOTP, Secret, TOTP } from 'otpauth';
import { safeEqual } from './compare.js';

const DIGITS = 6;
const PERIOD_S = 30;

export function base32Encode(buf: Buffer): string {
  return new Secret({ buffer: new Uint8Array(buf).buffer }).base32;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  // The library skips characters it does not know; a secret with any is refused instead (RFC 4648 §3.3).
  if (!/^[A-Z2-7]*$/.test(clean)) throw new Error('invalid base32');
  return Buffer.from(Secret.fromBase32(clean).bytes);
}

/** 160 random bits, the size RFC 4226 §4 recommends for HMAC-SHA-1. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The code of one 30-second step (RFC 6238 §4: HOTP of the step number). */
export function totpAt(secret: string, counter: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, counter });
}

/**
 * Accepts the current step and one step either side for clock drift; returns
 * the step the code belongs to (so callers can refuse replays), or null.
 */
export function matchTotp(secret: string, otp: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(otp)) return null;
  const step = Math.floor(nowMs / (PERIOD_S * 1000));
  let matched: number | null = null;
  // Every candidate is compared (no early exit), so the time taken says nothing about which one matched.
  for (const delta of [-1, 0, 1]) if (safeEqual(totpAt(secret, step + delta), otp)) matched = step + delta;
  return matched;
}

export function otpauthUri(secret: string, account: string, issuer: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S }).toString();
}
