// Revocation events as they travel between instances through Redis. A
// message is checked field by field: anything malformed is dropped whole (the
// database poll still delivers the real events).
import type { RevocationEvent } from './revocation-repository.js';

const KINDS = new Set(['family', 'grant', 'client', 'user']);

export function parseRevocationMessage(message: string): RevocationEvent[] {
  const parsed: unknown = JSON.parse(message);
  if (!Array.isArray(parsed) || parsed.length > 10_000) return [];
  const out: RevocationEvent[] = [];
  for (const e of parsed as Record<string, unknown>[]) {
    if (!e || typeof e !== 'object') return [];
    const { kind, key, revoked_at, expires_at } = e;
    if (typeof kind !== 'string' || !KINDS.has(kind) || typeof key !== 'string' || key.length > 512) return [];
    if (typeof revoked_at !== 'number' || typeof expires_at !== 'number' || !Number.isFinite(revoked_at) || !Number.isFinite(expires_at)) return [];
    out.push({ kind: kind as RevocationEvent['kind'], key, revoked_at, expires_at });
  }
  return out;
}
