// The only SQL of the audit log. Appends are serialised by the database, not
// by this process: the transaction first updates the single chain-head row
// (a row lock on PostgreSQL, the write lock on SQLite), so writers on every
// instance take turns and each batch follows the previous one exactly.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { chainHash, type AuditRow, type UnhashedRow } from './chain.js';

/** An event as recorded, before the chain gives it a seq and a hash. */
export type PendingRow = Omit<UnhashedRow, 'seq'>;

export interface AuditFilter {
  /** An action name, or a prefix ending in "." (matches every name under it). */
  action?: string;
  actorId?: string;
  /** Milliseconds, inclusive. */
  since?: number;
  until?: number;
}

export interface ChainHead {
  seq: number;
  hash: string;
  pruned_seq: number;
  pruned_hash: string;
}

const COLUMNS = ['seq', 'at', 'actor_id', 'ip', 'user_agent', 'instance', 'action', 'target_type', 'target_id', 'detail', 'hash'] as const;

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends the rows after the chain's head, in one transaction; returns the seqs they got. */
  async append(rows: readonly PendingRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    return this.db.transaction().execute(async (tx) => {
      // First statement of the transaction: it takes the lock every other writer waits for.
      const head = await tx
        .updateTable('audit_head')
        .set((eb) => ({ seq: eb('seq', '+', rows.length) }))
        .where('id', '=', 1)
        .returning(['seq', 'hash'])
        .executeTakeFirstOrThrow();
      let seq = Number(head.seq) - rows.length;
      let hash = head.hash;
      const out: AuditRow[] = [];
      for (const row of rows) {
        seq++;
        const unhashed: UnhashedRow = { seq, ...row };
        hash = chainHash(hash, unhashed);
        out.push({ ...unhashed, hash });
      }
      // A few rows per statement (SQLite allows 32766 parameters; 11 columns each).
      for (let i = 0; i < out.length; i += 500) await tx.insertInto('audit_log').values(out.slice(i, i + 500)).execute();
      await tx.updateTable('audit_head').set({ hash }).where('id', '=', 1).execute();
      return out.map((r) => r.seq);
    });
  }

  async head(): Promise<ChainHead> {
    const row = await this.db.selectFrom('audit_head').select(['seq', 'hash', 'pruned_seq', 'pruned_hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { seq: Number(row.seq), hash: row.hash, pruned_seq: Number(row.pruned_seq), pruned_hash: row.pruned_hash };
  }

  /** Newest first, older than `beforeSeq` when given. */
  async newest(filter: AuditFilter, beforeSeq: number | undefined, limit: number): Promise<AuditRow[]> {
    let q = this.filtered(filter).select(COLUMNS).orderBy('seq', 'desc').limit(limit);
    if (beforeSeq !== undefined) q = q.where('seq', '<', beforeSeq);
    return (await q.execute()).map(normalize);
  }

  /** Oldest first, after `afterSeq`. */
  async after(filter: AuditFilter, afterSeq: number, limit: number): Promise<AuditRow[]> {
    const rows = await this.filtered(filter).select(COLUMNS).where('seq', '>', afterSeq).orderBy('seq', 'asc').limit(limit).execute();
    return rows.map(normalize);
  }

  /** The rows written by these instances at or after `since` (ms): what a recovered spool may already hold. */
  async ofInstances(instances: readonly string[], since: number): Promise<AuditRow[]> {
    if (instances.length === 0) return [];
    const rows = await this.db.selectFrom('audit_log').select(COLUMNS).where('instance', 'in', instances).where('at', '>=', since).execute();
    return rows.map(normalize);
  }

  /**
   * Removes the rows older than `before` (ms), keeping the last row: the head
   * remembers the hash of the last row removed, where verify starts. Returns
   * how many rows went.
   */
  async pruneBefore(before: number): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const head = await tx.updateTable('audit_head').set((eb) => ({ seq: eb('seq', '+', 0) })).where('id', '=', 1).returning(['seq', 'pruned_seq']).executeTakeFirstOrThrow();
      const last = await tx
        .selectFrom('audit_log')
        .select(['seq', 'hash'])
        .where('at', '<', before)
        .where('seq', '<', Number(head.seq))
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last || Number(last.seq) <= Number(head.pruned_seq)) return 0;
      const gone = await tx.deleteFrom('audit_log').where('seq', '<=', Number(last.seq)).executeTakeFirst();
      await tx.updateTable('audit_head').set({ pruned_seq: Number(last.seq), pruned_hash: last.hash }).where('id', '=', 1).execute();
      return Number(gone.numDeletedRows);
    });
  }

  private filtered(filter: AuditFilter) {
    let q = this.db.selectFrom('audit_log');
    if (filter.action !== undefined) {
      if (filter.action.endsWith('.')) {
        const pattern = filter.action.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
        q = q.where(sql<boolean>`action like ${pattern} escape '\\'`);
      } else q = q.where('action', '=', filter.action);
    }
    if (filter.actorId !== undefined) q = q.where('actor_id', '=', filter.actorId);
    if (filter.since !== undefined) q = q.where('at', '>=', filter.since);
    if (filter.until !== undefined) q = q.where('at', '<=', filter.until);
    return q;
  }
}

function normalize(row: AuditRow): AuditRow {
  return { ...row, seq: Number(row.seq), at: Number(row.at) };
}
