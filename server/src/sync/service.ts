// The rules of the sync-client feature (api-contract §14) that are not HTTP:
// what the server says about itself and the person (status.php, OCS), the
// mount the WebDAV layer serves them through, the checksums they sent, and
// the devices they are.
import type { FilesService } from '../files/service.js';
import type { DavAccountService } from '../webdav/accounts.js';
import type { DavPrincipal } from '../webdav/auth.js';
import type { Clock } from '../core/clock.js';
import { FolderTags } from './folder-tags.js';
import { SyncMount, type SyncPeople } from './dav-mount.js';
import type { SyncRepository } from './repository.js';
import type { FeedService } from '../files/events/feed.js';
import type { Entry } from '../files/tree.js';
import { FileNumbers } from './file-numbers.js';

/** The Nextcloud version reported: current desktop and mobile clients refuse older servers. */
export const NEXTCLOUD_VERSION = [30, 0, 0, 0] as const;
/** A device's last-seen time is written at most this often. */
const SEEN_EVERY_MS = 60_000;
const USER_AGENT_MAX = 300;

export interface SyncPerson {
  id: string;
  email: string;
  displayName: string;
  quota: { free: number; used: number; total: number; relative: number };
}

export interface SyncPorts {
  /** The person as OCS shows them; undefined when there is no such active person. */
  person(userId: string): Promise<{ id: string; email: string; nickname: string } | undefined>;
  people: SyncPeople;
  siteName(): Promise<string>;
  /** Whether sharing with people is on (files_sharing capabilities). */
  sharingEnabled(): Promise<boolean>;
}

export class SyncService {
  readonly folderTags: FolderTags;
  readonly fileNumbers: FileNumbers;
  private readonly lastSeen = new Map<string, number>();

  constructor(
    private readonly repo: SyncRepository,
    private readonly files: FilesService,
    private readonly accounts: DavAccountService,
    feed: Pick<FeedService, 'current' | 'page'>,
    private readonly ports: SyncPorts,
    private readonly clock: Clock,
    /** Nextcloud's instance id of this site (file-numbers.ts). */
    instanceId: string,
  ) {
    this.folderTags = new FolderTags(repo, feed);
    this.fileNumbers = new FileNumbers(repo, instanceId);
  }

  /** The numbers the OCS Share API shows for these link and grant ids (migration 048: the Android app parses a share id as a long). */
  shareNumbers(shareIds: readonly string[]): Promise<Map<string, number>> {
    return this.repo.shareNumbers(shareIds);
  }

  /** The link's or grant's id of a share id a client sent back (the number shown, or the share's own id); undefined for none. */
  async shareOf(raw: string): Promise<string | undefined> {
    if (!/^\d{1,16}$/.test(raw)) return /^[A-Za-z0-9]{1,64}$/.test(raw) ? raw : undefined;
    const n = Number(raw);
    return n >= 1 && Number.isSafeInteger(n) ? this.repo.shareOfNumber(n) : undefined;
  }

  /** What people are called where others see them. */
  displayNames(ids: readonly string[]): Promise<Map<string, string>> {
    return this.ports.people.displayNames(ids);
  }

  siteName(): Promise<string> {
    return this.ports.siteName();
  }

  sharingEnabled(): Promise<boolean> {
    return this.ports.sharingEnabled();
  }

  mount(prefix: string, principal: DavPrincipal): SyncMount {
    return new SyncMount(prefix, principal, this.files, this.folderTags, this.repo, this.ports.people, this.fileNumbers);
  }

  /** The item's `oc:id` (OC-FileId header); undefined for an item deleted meanwhile. */
  async davFileId(entry: Entry): Promise<string | undefined> {
    const n = (await this.fileNumbers.of([entry.row.id])).get(entry.row.id);
    return n === undefined ? undefined : this.fileNumbers.format(n);
  }

  recordChecksum(blobId: string, checksum: string): Promise<void> {
    return this.repo.recordChecksum(blobId, checksum);
  }

  /** Notes that the device behind a WebDAV account was seen (at most once a minute per account and instance). */
  seen(principal: DavPrincipal, userAgent: string | undefined): void {
    this.seenAccount(principal.accountId, userAgent);
  }

  seenAccount(id: string | null | undefined, userAgent: string | undefined): void {
    if (!id) return;
    const now = this.clock.now();
    if (now - (this.lastSeen.get(id) ?? 0) < SEEN_EVERY_MS) return;
    if (this.lastSeen.size > 10_000) this.lastSeen.clear();
    this.lastSeen.set(id, now);
    // Best effort: a lost update only makes "last seen" a minute older.
    void this.repo.seen(id, (userAgent ?? '').slice(0, USER_AGENT_MAX), now).catch(() => undefined);
  }

  /** The devices (user agent, last seen) of these WebDAV accounts. */
  devices(accountIds: readonly string[]): Promise<Map<string, { user_agent: string; last_seen_at: number }>> {
    return this.repo.devices(accountIds);
  }

  async person(userId: string): Promise<SyncPerson | undefined> {
    const p = await this.ports.person(userId);
    if (!p) return undefined;
    const c = await this.files.capacity(userId);
    const free = Math.max(0, c.total - c.used);
    return {
      id: p.id,
      email: p.email,
      displayName: p.nickname || p.email,
      quota: { free, used: c.used, total: c.total, relative: c.total > 0 ? Math.round((c.used / c.total) * 10000) / 100 : 0 },
    };
  }

  /** Signing out of a client deletes the app password it signed in with. */
  async deleteAppPassword(principal: DavPrincipal): Promise<boolean> {
    if (!principal.accountId) return false;
    await this.accounts.delete(principal.userId, principal.accountId);
    return true;
  }
}
