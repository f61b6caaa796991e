// Uploads in flight and downloads in flight per holder (docs/security.md
// "Long-lived connections have a budget"). A body being received or sent holds
// a socket, a file handle and a share of the disk for as long as the client
// likes; one account opening thousands would starve everyone else. The holder
// is the account doing it (`a <user id>`) or, for what strangers do through a
// share link, the link (`l <share id>`): a stranger's traffic never uses up
// the owner's own budget, and one link cannot hold more than one account.
// Slots are counted per instance, taken synchronously (a burst cannot pass the
// limit together) and given back once, when the body ends for any reason.
import { Budget } from '../core/budget.js';
import { DomainError, ErrorCode } from '../core/errors.js';

export interface TransferLimits {
  /** Upload bodies (tus PATCH, PUT /file/content, WebDAV and sync PUT, upload-request PATCH) received at once. */
  uploads: number;
  /** Responses streaming file bytes (downloads, archives, versions, signed URLs, WebDAV GET, share links) at once. */
  downloads: number;
}

export const DEFAULT_TRANSFER_LIMITS: TransferLimits = { uploads: 20, downloads: 100 };

/** What a refused client is told to wait: a transfer in flight usually ends within seconds. */
const RETRY_AFTER_S = 5;

export type TransferKind = 'uploads' | 'downloads';

/** The holder key of an account, or of a share link. */
export const accountHolder = (userId: string): string => `a ${userId}`;
export const linkHolder = (shareId: string): string => `l ${shareId}`;

export class Transfers {
  private readonly budgets: Record<TransferKind, Budget> = { uploads: new Budget(), downloads: new Budget() };
  private readonly held: Record<TransferKind, number> = { uploads: 0, downloads: 0 };

  constructor(readonly limits: TransferLimits = DEFAULT_TRANSFER_LIMITS) {}

  /** Transfers in flight on this instance (the /metrics gauges). */
  inFlight(kind: TransferKind): number {
    return this.held[kind];
  }

  /**
   * One slot of `kind` for `holder`, or 429 with Retry-After. The answer
   * gives it back (once; later calls do nothing). `bodyUnread`: the refused
   * request still has a body coming, so the connection is closed after the answer.
   */
  take(kind: TransferKind, holder: string, bodyUnread = false): () => void {
    const release = this.budgets[kind].take([{ key: holder, limit: this.limits[kind] }]);
    if (!release) {
      const what = kind === 'uploads' ? 'uploads in progress' : 'downloads in progress';
      const who = holder.startsWith('l ') ? 'This link' : 'This account';
      throw new DomainError(ErrorCode.TooManyRequests, `${who} already has ${this.limits[kind]} ${what}; wait for one to finish`, { retryAfterSeconds: RETRY_AFTER_S, bodyUnread });
    }
    this.held[kind]++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held[kind]--;
      release();
    };
  }

  /** Runs `work` holding an upload slot: the body is read within it. */
  async upload<T>(holder: string, work: () => Promise<T>): Promise<T> {
    const release = this.take('uploads', holder, true);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
