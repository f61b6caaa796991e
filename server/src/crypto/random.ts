// The one place that makes random identifiers and secrets.
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Random bytes for the small secrets of every token request (a session id and
 * a jti, 16 bytes each), drawn from a 4 KiB block of the CSPRNG instead of one
 * call each: the cost is in the call, not in the bytes (decision 012). Node's
 * own randomUUID keeps such a cache too. Bytes are handed out once and only
 * as strings, never as the block itself.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function pooledRandom(bytes: number): Buffer {
  if (bytes > POOL_BYTES / 8) return randomBytes(bytes);
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return out;
}

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** An opaque, unguessable short id (no look-alike characters), e.g. a user UID. */
export function shortId(length = 10): string {
  return codeFrom(ALPHABET, length);
}

/** A URL-safe secret with the given number of random bytes (default 32 = 256 bits). */
export function secretToken(bytes = 32): string {
  return pooledRandom(bytes).toString('base64url');
}

/**
 * A primary key for rows inserted on hot paths (session families): 12 hex
 * digits of the millisecond clock, then 128 random bits. Keys that grow with
 * time land at the end of the primary-key index instead of on a random page,
 * which is cheaper to insert into (decision 011). The prefix tells only the
 * creation time, which the tokens carrying the id already state (`iat`); the
 * random part keeps it unguessable.
 */
export function timeOrderedId(now: number): string {
  return `${now.toString(16).padStart(12, '0')}${secretToken(16)}`;
}

export function uuid(): string {
  return randomUUID();
}

/**
 * `length` characters drawn uniformly from `alphabet` (rejection sampling keeps
 * every character equally likely): ids, and codes a person types, such as the
 * device grant's user code.
 */
export function codeFrom(alphabet: string, length: number): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out.push(alphabet[byte % alphabet.length]!);
      if (out.length === length) break;
    }
  }
  return out.join('');
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A code a person copies by hand (two-step recovery codes): lower-case letters and digits without look-alikes, as xxxxx-xxxxx (about 50 bits). */
export function readableCode(): string {
  const code = codeFrom(CODE_ALPHABET, 10);
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
