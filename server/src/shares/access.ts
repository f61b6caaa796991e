// The public side of share links, used without an account: page data,
// password unlock, browsing inside a shared folder and downloads.
//
// A share is usable only while it exists, has not expired, has downloads
// left, its owner is active and the shared item is live (not in the trash).
// Every other case answers 404 and never serves bytes. Paths inside a shared
// folder are resolved by walking child rows down from the shared folder, so
// no spelling of a path can reach anything outside it.
import { verifyPassword } from '../crypto/passwords.js';
import { DomainError, ErrorCode, badRequest, forbidden, notFound } from '../core/errors.js';
import { FOLDER } from '../files/service.js';
import type { FilesService } from '../files/service.js';
import { childPath } from '../files/names.js';
import type { Entry } from '../files/tree.js';
import type { Throttle, ThrottlePolicy } from '../throttle/service.js';
import type { ShareRepository, ShareRow } from './repository.js';
import type { OwnersPort } from './service.js';
import type { UnlockTokens } from './unlock-tokens.js';
import { toPublicView, toSharedItemView, type PublicShareView, type SharedItemView } from './views.js';
import type { Clock } from '../core/clock.js';

/** Wrong passwords per share: a few typos are free, then a doubling lock-out (capped at 15 min). */
export const SHARE_POLICY: ThrottlePolicy = { freeFailures: 5, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
/**
 * Wrong share passwords per address, across shares. Stricter than sign-in's
 * 50: share passwords are often short, and no one mistypes them twenty times.
 */
export const SHARE_ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 20, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };

/** A share that may be used now, with its shared item. */
export interface OpenShare {
  share: ShareRow;
  root: Entry;
  ownerNickname: string;
}

/** An item inside a share, with its path relative to the shared item. */
export interface SharedItem {
  open: OpenShare;
  entry: Entry;
  relativePath: string;
}

export class ShareAccess {
  constructor(
    private readonly repo: ShareRepository,
    private readonly files: FilesService,
    private readonly owners: OwnersPort,
    private readonly throttle: Throttle,
    private readonly tokens: UnlockTokens,
    private readonly clock: Clock,
    /** Slots of an upload request in use (files received and in flight; shares/upload-requests.ts). */
    private readonly slotsInUse: (shareId: string) => Promise<number> = async () => 0,
  ) {}

  async open(id: string, now = this.clock.now()): Promise<OpenShare> {
    const share = await this.repo.find(id);
    if (!share) throw notFound('Share not found');
    if (share.expires_at !== null && share.expires_at <= now) throw new DomainError(ErrorCode.NotFound, 'This share has expired', { data: { reason: 'expired' } });
    if (share.download_limit !== null && share.downloads >= share.download_limit) throw notFound('This share has reached its download limit');
    const owner = await this.owners.findById(share.owner_id);
    if (!owner || owner.status !== 'active') throw notFound('Share not found');
    try {
      return { share, root: await this.files.getById(share.owner_id, share.file_id), ownerNickname: owner.nickname };
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') throw notFound('The shared item is no longer available');
      throw err;
    }
  }

  private isUnlocked(share: ShareRow, token: string | undefined): boolean {
    if (share.password_hash === null) return true;
    return token !== undefined && this.tokens.verify(share.id, share.password_hash, token);
  }

  /** Opens the share and checks the unlock token of a password-protected one (403 without it). */
  async openUnlocked(id: string, token: string | undefined): Promise<OpenShare> {
    const open = await this.open(id);
    if (!this.isUnlocked(open.share, token)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        token === undefined ? 'This share needs a password: unlock it first' : 'The unlock token is invalid or has expired: unlock the share again',
      );
    }
    return open;
  }

  /**
   * An upload request that may receive files now (unlocked when it has a
   * password). Any other share answers 404 here, as a missing one does.
   */
  async openForUpload(id: string, token: string | undefined): Promise<OpenShare> {
    const open = await this.openUnlocked(id, token);
    if (open.share.upload_only !== 1 || open.root.row.kind !== FOLDER) throw notFound('Share not found');
    return open;
  }

  /** The page data; counts a view. Name and size of a locked share stay hidden; an upload request's folder always. */
  async info(id: string, token: string | undefined): Promise<PublicShareView> {
    const open = await this.open(id);
    await this.repo.addView(id);
    const share = { ...open.share, views: open.share.views + 1 };
    const max = share.max_files;
    const accepting = share.upload_only !== 1 || max === null || (await this.slotsInUse(id)) < max;
    return toPublicView(share, open.root, open.ownerNickname, this.isUnlocked(open.share, token), accepting);
  }

  async unlock(id: string, password: string, address: string): Promise<{ token: string; expires_at: string }> {
    const { share } = await this.open(id);
    if (share.password_hash === null) throw badRequest('password: this share has no password');
    const hash = share.password_hash;
    const right = await this.throttle.attempt(
      [
        { key: `share:${id}`, policy: SHARE_POLICY, clearOnSuccess: true },
        { key: `share-addr:${address}`, policy: SHARE_ADDRESS_POLICY },
      ],
      () => verifyPassword(hash, password),
    );
    if (!right) throw new DomainError(ErrorCode.Forbidden, 'Wrong password for this share');
    const issued = this.tokens.issue(id, share.password_hash);
    return { token: issued.token, expires_at: new Date(issued.expiresAt).toISOString() };
  }

  /** The item at `relativePath` inside the share (`/` or absent: the shared item itself). */
  async item(id: string, relativePath: string | undefined, token: string | undefined): Promise<SharedItem> {
    const open = await this.openUnlocked(id, token);
    // An upload request never shows or serves what its folder holds.
    if (open.share.upload_only === 1) throw forbidden('This link only receives files: its folder cannot be listed or downloaded');
    const entry = await this.files.resolveUnder(open.root, relativePath ?? '/');
    // resolveUnder builds paths by appending to the shared item's own path.
    const rel = entry.path === open.root.path ? '/' : entry.path.slice(open.root.path.length);
    return { open, entry, relativePath: rel };
  }

  async browse(
    id: string,
    relativePath: string | undefined,
    token: string | undefined,
    pageSize: number,
    pageToken?: string,
  ): Promise<{ files: SharedItemView[]; next_page_token: string | null; parent: SharedItemView }> {
    const { open, entry, relativePath: rel } = await this.item(id, relativePath, token);
    if (open.root.row.kind !== FOLDER) throw badRequest('id: this share is a file, not a folder');
    if (entry.row.kind !== FOLDER) throw badRequest('path: is a file, not a folder');
    const page = await this.files.list(entry, pageSize, pageToken);
    return {
      files: page.entries.map((child) => toSharedItemView(child, childPath(rel, child.row.name))),
      next_page_token: page.nextPageToken,
      parent: toSharedItemView(entry, rel),
    };
  }

  /**
   * Counts one download, atomically against the limit and the expiry; a share
   * deleted, expired or used up since it was opened answers 404.
   */
  async claimDownload(id: string): Promise<void> {
    if (!(await this.repo.claimDownload(id, this.clock.now()))) throw notFound('This share is no longer available');
  }

  /** Gives back a download claimed for a response that did not finish sending. */
  async releaseDownload(id: string): Promise<void> {
    await this.repo.releaseDownload(id);
  }

  private readonly downloadListeners: ((id: string) => Promise<void>)[] = [];

  /** Told after a counted download finished sending (notifications: `link_downloaded`). */
  onDownloaded(listener: (id: string) => Promise<void>): void {
    this.downloadListeners.push(listener);
  }

  /** A counted download was sent whole. Never throws: the bytes are out whatever the listeners do. */
  downloaded(id: string): void {
    for (const l of this.downloadListeners) l(id).catch(() => undefined);
  }
}
