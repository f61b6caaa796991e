// Share links, the owner's and the administrator's side: create, list, read,
// change and delete. The public side (page data, unlock, browse, download) is
// access.ts. A share names a file row by id; its path is looked up when shown.
import { hashPassword } from '../crypto/passwords.js';
import { shortId } from '../crypto/random.js';
import { DomainError, ErrorCode, badRequest, notFound } from '../core/errors.js';
import { FOLDER, type FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import type { AdminShareQuery, ListCursor, SharePatch, ShareRepository, ShareRow } from './repository.js';
import { toShareView, type AdminShareView, type ShareView } from './views.js';
import type { Clock } from '../core/clock.js';

/** How far ahead an expiry may be set (10 years). */
export const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;
export const MAX_DOWNLOAD_LIMIT = 1_000_000;

/** What the share feature needs to know about users (AccountService satisfies it). */
export interface OwnersPort {
  findById(id: string): Promise<{ id: string; nickname: string; email: string; status: string } | undefined>;
}

export interface ExpiryInput {
  /** RFC 3339 with an explicit offset; null removes the expiry (on change). */
  expires_at?: string | null;
  /** Seconds from now. */
  expires_in?: number;
}

export interface NewShare extends ExpiryInput {
  path: string;
  password?: string;
  download_limit?: number | null;
  /** An upload request (folders only): people with the link send files in and see nothing. */
  upload_only?: boolean;
  max_file_size?: number;
  max_files?: number;
  notify_downloads?: boolean;
  /** Whether pictures go out without their location (default true; media/strip-location.ts). */
  strip_location?: boolean;
}

export interface ShareChange extends ExpiryInput {
  /** A new password, or null to remove it. */
  password?: string | null;
  download_limit?: number | null;
  max_file_size?: number | null;
  max_files?: number | null;
  notify_downloads?: boolean;
  strip_location?: boolean;
}

/** How many files each share received (upload requests); the default counts none. */
export type ReceivedCounts = (shareIds: readonly string[]) => Promise<Map<string, number>>;

/** The rules of an upload request's settings; throws on a combination that makes no sense. */
function checkUploadSettings(input: NewShare, entry: Entry): void {
  if (input.upload_only === true) {
    if (entry.row.kind !== FOLDER) throw badRequest('upload_only: only a folder can receive uploads; share the folder that should receive them');
    if (input.download_limit !== undefined && input.download_limit !== null) throw badRequest('download_limit: an upload request serves no downloads');
    return;
  }
  if (input.max_file_size !== undefined || input.max_files !== undefined) throw badRequest('max_file_size, max_files: only for upload requests (upload_only: true)');
}

/** 128-bit-ish share ids: 16 characters of a 57-letter alphabet (about 93 bits). */
export function newShareId(): string {
  return shortId(16);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** The expiry in Unix ms: undefined = unchanged / none, null = remove. */
export function parseExpiry(input: ExpiryInput, now: number): number | null | undefined {
  if (input.expires_at !== undefined && input.expires_in !== undefined) throw badRequest('expires_at, expires_in: give at most one');
  if (input.expires_in !== undefined) return now + input.expires_in * 1000;
  if (input.expires_at === undefined || input.expires_at === null) return input.expires_at;
  const ms = RFC3339.test(input.expires_at) ? Date.parse(input.expires_at) : NaN;
  if (!Number.isFinite(ms)) throw badRequest('expires_at: must be an RFC 3339 date-time with an offset (e.g. 2030-01-31T12:00:00Z)');
  if (ms <= now) throw badRequest('expires_at: must be in the future');
  if (ms > now + MAX_EXPIRY_SECONDS * 1000) throw badRequest('expires_at: must be at most 10 years ahead');
  return ms;
}

function encodeCursor(row: ShareRow): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id]), 'utf8').toString('base64url');
}

function decodeCursor(token: string): ListCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string' && !parsed[1].includes('\u0000')) {
      return { createdAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    /* fall through */
  }
  throw badRequest('next_page_token: is not a token from this listing');
}

export class ShareService {
  constructor(
    private readonly repo: ShareRepository,
    private readonly files: FilesService,
    private readonly owners: OwnersPort,
    private readonly baseUrl: string,
    private readonly clock: Clock,
    private readonly receivedCounts: ReceivedCounts = async () => new Map(),
    /** Ends the uploads in flight through a link that is gone, giving their reservations back to the owner's quota. */
    private readonly releaseUploads: (shareId: string) => Promise<void> = async () => {},
  ) {}

  /** The shared item as its owner sees it now; null while it is in the trash. */
  private async entryOf(share: ShareRow): Promise<Entry | null> {
    try {
      return await this.files.getById(share.owner_id, share.file_id);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  private async view(share: ShareRow, received?: Map<string, number>): Promise<ShareView> {
    const counts = received ?? (share.upload_only === 1 ? await this.receivedCounts([share.id]) : new Map<string, number>());
    return toShareView(share, await this.entryOf(share), this.baseUrl, this.clock.now(), counts.get(share.id) ?? 0);
  }

  private async views(rows: ShareRow[]): Promise<ShareView[]> {
    const received = await this.receivedCounts(rows.filter((r) => r.upload_only === 1).map((r) => r.id));
    return Promise.all(rows.map((r) => this.view(r, received)));
  }

  async create(ownerId: string, input: NewShare): Promise<ShareView> {
    const now = this.clock.now();
    const expiresAt = parseExpiry(input, now) ?? null;
    const entry = await this.files.resolve(ownerId, input.path);
    // Sharing the root would publish the whole account, trash restores included.
    if (entry.row.parent_id === null) throw badRequest('path: the root folder cannot be shared');
    checkUploadSettings(input, entry);
    // Uploads land in the link owner's tree; a folder of someone else's (shared, or a team folder) is not theirs to fill.
    if (input.upload_only === true && entry.row.owner_id !== ownerId) throw new DomainError(ErrorCode.Forbidden, 'upload_only: an upload request can only be made on one of your own folders');
    const row: ShareRow = {
      id: newShareId(),
      owner_id: ownerId,
      file_id: entry.row.id,
      password_hash: input.password !== undefined ? await hashPassword(input.password) : null,
      expires_at: expiresAt,
      download_limit: input.download_limit ?? null,
      downloads: 0,
      views: 0,
      created_at: now,
      updated_at: now,
      upload_only: input.upload_only === true ? 1 : 0,
      max_file_size: input.max_file_size ?? null,
      max_files: input.max_files ?? null,
      notify_downloads: input.notify_downloads === true ? 1 : 0,
      strip_location: input.strip_location === false ? 0 : 1,
    };
    await this.repo.insert(row);
    return toShareView(row, entry, this.baseUrl, now);
  }

  /** The owner's shares, newest first; with `path`, only the shares of that item (404 when it does not exist). */
  async list(ownerId: string, pageSize: number, pageToken?: string, path?: string): Promise<{ shares: ShareView[]; next_page_token: string | null }> {
    const after = pageToken ? decodeCursor(pageToken) : null;
    const fileId = path === undefined ? undefined : (await this.files.resolve(ownerId, path)).row.id;
    const rows = await this.repo.listByOwner(ownerId, after, pageSize + 1, fileId);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      shares: await this.views(page),
      next_page_token: rows.length > pageSize && last ? encodeCursor(last) : null,
    };
  }

  private async owned(ownerId: string, id: string): Promise<ShareRow> {
    const row = await this.repo.findOwned(ownerId, id);
    // Someone else's share is "not found", like one that does not exist.
    if (!row) throw notFound('Share not found');
    return row;
  }

  async get(ownerId: string, id: string): Promise<ShareView> {
    return this.view(await this.owned(ownerId, id));
  }

  async update(ownerId: string, id: string, change: ShareChange): Promise<ShareView> {
    const current = await this.owned(ownerId, id);
    const patch: SharePatch = {};
    if (change.max_file_size !== undefined || change.max_files !== undefined) {
      if (current.upload_only !== 1) throw badRequest('max_file_size, max_files: only for upload requests');
      if (change.max_file_size !== undefined) patch.max_file_size = change.max_file_size;
      if (change.max_files !== undefined) patch.max_files = change.max_files;
    }
    if (current.upload_only === 1 && change.download_limit !== undefined && change.download_limit !== null) throw badRequest('download_limit: an upload request serves no downloads');
    const expiresAt = parseExpiry(change, this.clock.now());
    if (expiresAt !== undefined) patch.expires_at = expiresAt;
    if (change.download_limit !== undefined) patch.download_limit = change.download_limit;
    if (change.notify_downloads !== undefined) patch.notify_downloads = change.notify_downloads ? 1 : 0;
    if (change.strip_location !== undefined) patch.strip_location = change.strip_location ? 1 : 0;
    if (change.password !== undefined) patch.password_hash = change.password === null ? null : await hashPassword(change.password);
    patch.updated_at = this.clock.now();
    if (!(await this.repo.update(ownerId, id, patch))) throw notFound('Share not found');
    return this.get(ownerId, id);
  }

  async delete(ownerId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(id, ownerId))) throw notFound('Share not found');
    await this.releaseUploads(id);
  }

  async adminList(page: number, pageSize: number, q: AdminShareQuery = {}): Promise<{ shares: AdminShareView[]; pagination: { page: number; page_size: number; total: number } }> {
    const [rows, total] = await Promise.all([this.repo.adminList(q, (page - 1) * pageSize, pageSize), this.repo.adminCount(q)]);
    const shares = await Promise.all(
      rows.map(async (row) => {
        const owner = await this.owners.findById(row.owner_id);
        return { ...(await this.view(row)), owner: owner ? { id: owner.id, nickname: owner.nickname, email: owner.email } : null };
      }),
    );
    return { shares, pagination: { page, page_size: pageSize, total } };
  }

  async adminDelete(id: string): Promise<void> {
    if (!(await this.repo.delete(id))) throw notFound('Share not found');
    await this.releaseUploads(id);
  }
}
