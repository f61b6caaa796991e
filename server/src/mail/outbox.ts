// The outbox (api-contract §11): every message is written to the database
// first, and sent by the jobs runner on whichever instance gets to it first.
// A sender claims a message with a compare-and-set (mail/outbox-repository.ts)
// for a lease of LEASE_MS, so two instances never both send it; a message
// whose sender died is taken again once the lease ends. A failed send is
// retried (first after 30 s, then doubling up to an hour) until 24 h have
// passed since it was written; then it is marked failed. A crash between the
// SMTP server's "250" and the database write can still send twice: that is
// the one abnormal case (docs/features/mail.md).
import { secretToken, timeOrderedId } from '../crypto/random.js';
import type { Clock } from '../core/clock.js';
import type { OutboxRepository } from './outbox-repository.js';
import type { MailSender } from './transport.js';

export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 3600_000;
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
export const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const MAX_BATCHES = 50;
/** Bodies of sent and failed messages are deleted after this long. */
export const KEEP_MS = 7 * 24 * 3600_000;

export interface NewMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export class Outbox {
  constructor(
    private readonly repo: OutboxRepository,
    readonly sender: MailSender,
    private readonly clock: Clock,
    /** Asks the jobs runner to deliver now (not awaited: no request waits for SMTP). */
    private readonly kick: () => void = () => undefined,
  ) {}

  /** True when a transport is configured (else flows that need mail answer 40019). */
  async configured(): Promise<boolean> {
    return (await this.sender.config()) !== null;
  }

  async enqueue(mail: NewMail): Promise<string> {
    const now = this.clock.now();
    const id = timeOrderedId(now);
    await this.repo.insert({
      id,
      kind: mail.kind,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      status: 'queued',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      claim_token: null,
      last_error: null,
      created_at: now,
      sent_at: null,
    });
    this.kick();
    return id;
  }

  /** One run of the job: sends what is due, batch after batch until none is left (at most MAX_BATCHES); returns how many were sent. */
  async deliverDue(): Promise<number> {
    let sent = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const { tried, sent: n } = await this.deliverBatch();
      sent += n;
      if (tried < BATCH) break;
    }
    return sent;
  }

  private async deliverBatch(): Promise<{ tried: number; sent: number }> {
    const now = this.clock.now();
    let sent = 0;
    const ids = await this.repo.dueIds(now, BATCH);
    for (const id of ids) {
      const token = secretToken(16);
      const row = await this.repo.claim(id, token, now, now + LEASE_MS);
      if (!row) continue; // another instance took it
      try {
        await this.sender.send({ id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
        await this.repo.markSent(row.id, token, this.clock.now());
        sent++;
      } catch (err) {
        const at = this.clock.now();
        const attempts = row.attempts + 1;
        const retryAt = at + retryDelay(attempts);
        const giveUp = at - row.created_at >= GIVE_UP_AFTER_MS;
        await this.repo.markFailed(row.id, token, describe(err), giveUp ? 'give_up' : { retryAt });
      }
    }
    return { tried: ids.length, sent };
  }

  counts(): Promise<Record<'queued' | 'sent' | 'failed', number>> {
    return this.repo.counts();
  }

  prune(): Promise<void> {
    return this.repo.pruneSent(this.clock.now() - KEEP_MS);
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const response = (err as { response?: unknown }).response;
    return typeof response === 'string' && response ? response : err.message;
  }
  return String(err);
}
