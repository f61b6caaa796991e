// crypto.hash (one call, no Hash object) costs a fifth to a half of
// createHash's update/digest chain; these run on every token request.
import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string comparison. Both sides are hashed first so that the
 * comparison takes the same time whatever the lengths.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = hash('sha256', a, 'buffer');
  const hb = hash('sha256', b, 'buffer');
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
