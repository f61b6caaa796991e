// The audit chain (api-contract §17): each row's hash is SHA-256 over the
// previous row's hash and this row's canonical form, so that changing or
// removing any row (or the last one) is found by walking the rows in order.
import { createHash } from 'node:crypto';

/** The hash before the first row (the same value migration 037 stored in the head). */
export const GENESIS_HASH = '0'.repeat(64);

/** A row as stored; `at` in milliseconds, `detail` as its JSON text. */
export interface AuditRow {
  seq: number;
  at: number;
  actor_id: string | null;
  ip: string;
  user_agent: string;
  instance: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: string;
  hash: string;
}

export type UnhashedRow = Omit<AuditRow, 'hash'>;

/**
 * The bytes hashed for a row: a JSON array of every column in a fixed order
 * (JSON escapes the text, so no value can imitate a separator).
 */
export function canonical(row: UnhashedRow): string {
  return JSON.stringify([row.seq, row.at, row.actor_id, row.ip, row.user_agent, row.instance, row.action, row.target_type, row.target_id, row.detail]);
}

/** hex(SHA-256(previous hash, "\n", canonical row)). */
export function chainHash(previous: string, row: UnhashedRow): string {
  return createHash('sha256').update(previous).update('\n').update(canonical(row)).digest('hex');
}

export interface VerifyState {
  /** The seq and hash the next row must follow. */
  seq: number;
  hash: string;
}

/**
 * Checks a run of rows (ascending seq) against the state before them; the
 * first seq that is wrong (a changed row, or the seq of a missing one), or
 * null with the state moved past the rows.
 */
export function verifyRun(state: VerifyState, rows: readonly AuditRow[]): number | null {
  for (const row of rows) {
    const expected = state.seq + 1;
    if (row.seq !== expected) return expected;
    if (chainHash(state.hash, row) !== row.hash) return row.seq;
    state.seq = row.seq;
    state.hash = row.hash;
  }
  return null;
}
