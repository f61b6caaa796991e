// Device cookies (issue 11 defect 2; OWASP "Slow down online guessing
// attacks with device cookies"). The per-account guess limit protects a
// password, but anyone can trip it: six wrong passwords from rotating
// addresses would lock the owner out too. A browser in which the account
// signed in successfully gets a cookie that names that account and that
// browser; a sign-in that brings a valid one is counted against its own
// per-device limit instead of the account's, so strangers' guesses cannot
// lock it out, and a thief of the cookie still gets only that device's few
// guesses.
//
// The cookie holds no identity and is no credential: `<issued>.<nonce>.<mac>`
// where mac = HMAC(key, e-mail, issued, nonce). It only proves "this account
// signed in here before", checked against the e-mail being signed in to. Its
// name carries a keyed hash of the e-mail, so one browser can hold cookies
// for several accounts without revealing which.
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../crypto/compare.js';
import { systemClock, type Clock } from '../core/clock.js';

/** How long a browser stays trusted after its last successful sign-in. */
export const DEVICE_COOKIE_TTL_MS = 180 * 24 * 3600_000;
const PREFIX = 'cirrus_device_';
/** Only the sign-in routes need it: no other request carries it. */
const COOKIE_PATH = '/api/v4/session';

export class DeviceCookies {
  private readonly key: Buffer;

  constructor(
    masterKey: string,
    private readonly secure: boolean,
    private readonly clock: Clock = systemClock,
  ) {
    // A key of its own, so a device cookie can never be replayed as anything signed with the master key.
    this.key = createHmac('sha256', masterKey).update('cirrus device cookie v1').digest();
  }

  /** The cookie's name for an account (a keyed hash of its e-mail). */
  nameFor(email: string): string {
    return PREFIX + createHmac('sha256', this.key).update('name\0').update(normalize(email)).digest('base64url').slice(0, 22);
  }

  /** The Set-Cookie value for a browser in which `email` just signed in. */
  issue(email: string): string {
    const issued = Math.floor(this.clock.now() / 1000).toString(36);
    const nonce = randomBytes(12).toString('base64url');
    const value = `${issued}.${nonce}.${this.mac(email, issued, nonce)}`;
    const attrs = [`${this.nameFor(email)}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${DEVICE_COOKIE_TTL_MS / 1000}`, 'HttpOnly', 'SameSite=Strict'];
    if (this.secure) attrs.push('Secure');
    return attrs.join('; ');
  }

  /**
   * The device's id (its nonce) when the request's Cookie header holds a
   * valid, unexpired device cookie for `email`; null otherwise (a missing,
   * forged, expired or other account's cookie is simply no device).
   */
  deviceOf(email: string, cookieHeader: string | undefined): string | null {
    if (!cookieHeader || cookieHeader.length > 8192) return null;
    const value = readCookie(cookieHeader, this.nameFor(email));
    if (!value) return null;
    const parts = value.split('.');
    if (parts.length !== 3) return null;
    const [issued, nonce, mac] = parts as [string, string, string];
    if (!/^[0-9a-z]{1,10}$/.test(issued) || !/^[A-Za-z0-9_-]{16}$/.test(nonce)) return null;
    if (!safeEqual(mac, this.mac(email, issued, nonce))) return null;
    const age = this.clock.now() - parseInt(issued, 36) * 1000;
    if (age < -60_000 || age > DEVICE_COOKIE_TTL_MS) return null;
    return nonce;
  }

  private mac(email: string, issued: string, nonce: string): string {
    return createHmac('sha256', this.key).update('mac\0').update(normalize(email)).update('\0').update(issued).update('\0').update(nonce).digest('base64url');
  }
}

function normalize(email: string): string {
  return email.trim().toLowerCase();
}

/** The value of the named cookie in a Cookie header (RFC 6265 §5.4 pairs), or undefined. */
function readCookie(header: string, name: string): string | undefined {
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
