// argon2id password hashing. Parameters are recorded in docs/security.md:
// m = 19 MiB, t = 2, p = 1 (OWASP Password Storage Cheat Sheet minimum for argon2id).
import { hash, verify, Algorithm } from '@node-rs/argon2';

export const ARGON2_PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}

// Verifying against this when the account does not exist keeps the response
// time of "unknown e-mail" equal to "wrong password".
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('cirrus-timing-equalizer');
  await verifyPassword(await dummyHash, password);
}
