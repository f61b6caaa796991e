// Write locks (RFC 4918 §6, §7, §9.10, §9.11): exclusive and shared, depth 0
// or infinity, with timeouts. Locks live in the database (dav_locks) so every
// instance sees them; they name absolute paths of the owner's tree, so the
// same lock binds every WebDAV account (and token) of that person.
import { randomUUID } from 'node:crypto';
import { DavError } from './errors.js';
import type { DavRepository, LockRow } from './repository.js';
import { escapeXml } from './xml.js';
import type { Clock } from '../core/clock.js';

export const MAX_TIMEOUT_S = 7 * 24 * 3600;
export const DEFAULT_TIMEOUT_S = 3600;
/** A bound on one person's live locks, so LOCK cannot grow the table without limit. */
export const MAX_LOCKS_PER_USER = 1000;
/** A bound on a lock's DAV:owner as stored (clients send a name or a URL). */
export const MAX_OWNER_BYTES = 4096;

export function isUnder(path: string, ancestor: string): boolean {
  return ancestor === '/' ? path !== '/' : path.startsWith(`${ancestor}/`);
}

/** Locks that apply to `path`: on it, or on an ancestor with depth infinity (§7.4). */
export function covering(locks: readonly LockRow[], path: string): LockRow[] {
  return locks.filter((l) => l.path === path || (l.depth === -1 && isUnder(path, l.path)));
}

/** Locks on members below `path` (deleting or moving `path` affects them). */
export function below(locks: readonly LockRow[], path: string): LockRow[] {
  return locks.filter((l) => isUnder(l.path, path));
}

/** `Timeout: Second-600, Infinite` -> seconds granted (capped). */
export function parseTimeout(header: string | undefined): number {
  if (!header) return DEFAULT_TIMEOUT_S;
  for (const part of header.split(',')) {
    const v = part.trim();
    if (/^infinite$/i.test(v)) return MAX_TIMEOUT_S;
    const m = /^second-(\d{1,12})$/i.exec(v);
    if (m) return Math.max(1, Math.min(MAX_TIMEOUT_S, Number(m[1])));
  }
  return DEFAULT_TIMEOUT_S;
}

export interface NewLock {
  path: string;
  depth: 0 | -1;
  exclusive: boolean;
  ownerXml: string | null;
  timeoutS: number;
}

export class LockService {
  constructor(
    private readonly repo: DavRepository,
    readonly clock: Clock,
  ) {}

  live(userId: string): Promise<LockRow[]> {
    return this.repo.liveLocks(userId, this.clock.now());
  }

  /**
   * Fails with 423 unless every lock in `applicable` is satisfied by the
   * submitted tokens: each exclusive lock by its own token, the shared ones by
   * any one of theirs (§6.1, §7.4).
   */
  requireTokens(applicable: readonly LockRow[], submitted: ReadonlySet<string>, hrefOf: (path: string) => string | null): void {
    const missing = applicable.filter((l) => l.exclusive === 1 && !submitted.has(l.token));
    const shared = applicable.filter((l) => l.exclusive === 0);
    if (shared.length && !shared.some((l) => submitted.has(l.token))) missing.push(...shared);
    if (missing.length === 0) return;
    const hrefs = [...new Set(missing.map((l) => hrefOf(l.path)).filter((h): h is string => h !== null))];
    throw new DavError(423, 'The resource is locked', `<D:lock-token-submitted>${hrefs.map((h) => `<D:href>${escapeXml(h)}</D:href>`).join('')}</D:lock-token-submitted>`);
  }

  /**
   * Creates a lock unless it conflicts with one that applies (§6.2, §9.10.5:
   * 423 no-conflicting-lock) or the person holds MAX_LOCKS_PER_USER (507).
   * Checked on `existing` first, then again on the rows inside the inserting
   * transaction, so parallel LOCKs cannot pass the check together.
   */
  async create(userId: string, lock: NewLock, existing: readonly LockRow[]): Promise<LockRow> {
    const admit = (live: readonly LockRow[]) => {
      const affected = [...covering(live, lock.path), ...(lock.depth === -1 ? below(live, lock.path) : [])];
      const conflict = affected.some((l) => lock.exclusive || l.exclusive === 1);
      if (conflict) throw new DavError(423, 'A conflicting lock is held', '<D:no-conflicting-lock/>');
      if (live.length >= MAX_LOCKS_PER_USER) throw new DavError(507, `At most ${MAX_LOCKS_PER_USER} locks may be held at once`);
    };
    admit(existing);
    const now = this.clock.now();
    const row: LockRow = {
      token: `urn:uuid:${randomUUID()}`, user_id: userId, path: lock.path, depth: lock.depth, exclusive: lock.exclusive ? 1 : 0,
      owner_xml: lock.ownerXml, timeout_s: lock.timeoutS, expires_at: now + lock.timeoutS * 1000, created_at: now,
    };
    await this.repo.insertLock(row, now, admit);
    return row;
  }

  async refresh(row: LockRow, timeoutS: number): Promise<LockRow> {
    const expires = this.clock.now() + timeoutS * 1000;
    await this.repo.refreshLock(row.user_id, row.token, timeoutS, expires);
    return { ...row, timeout_s: timeoutS, expires_at: expires };
  }

  /** Locks on `path` and below end when the resource is deleted or moved away (§7.7 for MOVE). */
  async dropAt(userId: string, locks: readonly LockRow[], path: string): Promise<void> {
    await this.repo.deleteLocks(userId, locks.filter((l) => l.path === path || isUnder(l.path, path)).map((l) => l.token));
  }

  async remove(userId: string, token: string): Promise<void> {
    await this.repo.deleteLocks(userId, [token]);
  }
}

/** The DAV:activelock element of a lock (§14.1), for lockdiscovery; its timeout is what is left at `now`. */
export function activeLockXml(lock: LockRow, rootHref: string | null, now: number): string {
  const remaining = Math.max(0, Math.ceil((lock.expires_at - now) / 1000));
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>${lock.exclusive ? '<D:exclusive/>' : '<D:shared/>'}</D:lockscope>` +
    `<D:depth>${lock.depth === -1 ? 'infinity' : '0'}</D:depth>${lock.owner_xml ?? ''}<D:timeout>Second-${remaining}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>${rootHref !== null ? `<D:lockroot><D:href>${escapeXml(rootHref)}</D:href></D:lockroot>` : ''}</D:activelock>`
  );
}

export const SUPPORTED_LOCK_XML =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';
