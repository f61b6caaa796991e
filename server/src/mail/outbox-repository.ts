import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { MailOutboxTable } from '../db/schema.js';

export type OutboxRow = Selectable<MailOutboxTable>;

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async insert(row: OutboxRow): Promise<void> {
    await this.db.insertInto('mail_outbox').values(row).execute();
  }

  /** Ids of queued messages due now and not held by a sender. */
  async dueIds(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Compare-and-set: takes the message for one sender until `until`. Only one
   * of several instances racing for it gets true (the row's own condition is
   * re-checked by the UPDATE, on PostgreSQL after the other's commit).
   */
  async claim(id: string, token: string, now: number, until: number): Promise<OutboxRow | undefined> {
    const res = await this.db
      .updateTable('mail_outbox')
      .set({ claim_token: token, claimed_until: until })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    return this.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).where('claim_token', '=', token).executeTakeFirst();
  }

  async markSent(id: string, token: string, now: number): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), claimed_until: null, claim_token: null, last_error: null }))
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async markFailed(id: string, token: string, error: string, next: { retryAt: number } | 'give_up'): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_error: error.slice(0, 500),
        claimed_until: null,
        claim_token: null,
        ...(next === 'give_up' ? { status: 'failed' as const } : { next_attempt_at: next.retryAt }),
      }))
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async counts(): Promise<Record<'queued' | 'sent' | 'failed', number>> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const out = { queued: 0, sent: 0, failed: 0 };
    for (const r of rows) if (r.status in out) out[r.status] = Number(r.n);
    return out;
  }

  /** Sent messages hold link tokens and personal text: their bodies are kept only for a while. */
  async pruneSent(before: number): Promise<void> {
    await this.db.deleteFrom('mail_outbox').where('status', 'in', ['sent', 'failed']).where('created_at', '<', before).execute();
  }
}
