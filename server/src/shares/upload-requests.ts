// Upload requests (api-contract §13): a share with upload_only on a folder.
// Anyone with the link (and the password) sends files into the folder with
// tus, and sees nothing of it. The bytes go through the file feature's upload
// machinery (files/uploads.ts) under the owner's quota; this module adds what
// the link decides:
// - admission, in the transaction that creates the upload under the owner's
//   tree lock: max_files counts files received plus uploads in flight, so
//   parallel creations cannot pass it; a cancelled or expired upload frees
//   its slot;
// - max_file_size against Upload-Length (and the upload machinery never takes
//   a byte past Upload-Length);
// - the share's state (expiry, password, owner banned, folder trashed) at
//   every request, so an expired link refuses the next PATCH;
// - the file's place: the share's folder, under the first free name, chosen
//   in the transaction that creates the file; and the record the owner sees.
import { linkHolder } from '../files/transfers.js';
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode, badRequest, conflict, forbidden, notFound } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Entry } from '../files/tree.js';
import { parseName } from '../files/names.js';
import { parseMetadata } from '../files/tus.js';
import type { ShareUploadHooks, UploadRow, UploadService, UploadTx as Executor } from '../files/uploads.js';
import type { ShareAccess } from './access.js';
import type { ShareRepository } from './repository.js';
import type { ReceivedCursor, ShareUploadRow, UploadRequestRepository } from './upload-request-repository.js';

/** Longest uploader name kept (characters). */
export const MAX_UPLOADER_LENGTH = 100;
/** The most files one link may be set to accept, and the largest per-file limit (1 TiB). */
export const MAX_FILES_LIMIT = 100_000;
export const MAX_FILE_SIZE_LIMIT = 2 ** 40;

/** Why an upload was refused, in the error envelope's data: the page words it in the visitor's language. */
export type RefusalReason = 'file_too_large' | 'limit_reached' | 'expired' | 'busy';

/** How many bytes uploads through links may have reserved and not sent yet (config.ts). */
export interface PendingLimits {
  perLink: number;
  perAddress: number;
}

/** Seconds a refused creation is told to wait: uploads in flight send bytes or expire within minutes. */
const BUSY_RETRY_AFTER_S = 60;

function refusal(code: number, message: string, reason: RefusalReason, extra: Record<string, unknown> = {}, retryAfterSeconds?: number): DomainError {
  return new DomainError(code as typeof ErrorCode.TooLarge, message, { data: { reason, ...extra }, bodyUnread: true, retryAfterSeconds });
}

/** The uploader's optional name: trimmed, no control characters, bounded. */
export function parseUploader(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const name = raw.normalize('NFC').trim();
  if (name === '') return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) throw badRequest('Upload-Metadata uploader: must not contain control characters');
  if ([...name].length > MAX_UPLOADER_LENGTH) throw badRequest(`Upload-Metadata uploader: at most ${MAX_UPLOADER_LENGTH} characters`);
  return name;
}

export interface ReceivedFile {
  id: string;
  name: string;
  size: number;
  uploader: string | null;
  uploaded_at: string;
}

/** An upload in flight through a link, as its owner sees it. */
export interface PendingUpload {
  id: string;
  name: string;
  uploader: string | null;
  /** Bytes of the owner's quota it holds (its Upload-Length). */
  reserved: number;
  received: number;
  created_at: string;
  /** When it lapses unless more bytes arrive. */
  expires_at: string;
}

export function toReceived(row: ShareUploadRow): ReceivedFile {
  return { id: row.id, name: row.name, size: row.size, uploader: row.uploader, uploaded_at: new Date(row.completed_at ?? row.created_at).toISOString() };
}

function encodeCursor(row: ShareUploadRow): string {
  return Buffer.from(JSON.stringify([row.completed_at, row.id]), 'utf8').toString('base64url');
}

function decodeCursor(token: string): ReceivedCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string' && !parsed[1].includes('\u0000')) {
      return { completedAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    /* fall through */
  }
  throw badRequest('next_page_token: is not a token from this listing');
}

export class UploadRequests {
  constructor(
    private readonly repo: UploadRequestRepository,
    private readonly shares: ShareRepository,
    private readonly access: ShareAccess,
    private readonly uploads: UploadService,
    private readonly clock: Clock,
    private readonly limits: PendingLimits,
  ) {}

  /** What the upload service calls back (registered by shares/module.ts). */
  hooks(): ShareUploadHooks {
    return {
      admit: async (tx: Executor, upload: UploadRow, address: string | null) => {
        const share = await this.repo.shareOf(tx, upload.share_id!);
        if (!share || share.upload_only !== 1) throw notFound('Share not found');
        if (share.max_files !== null && (await this.repo.usedSlots(tx, share.id)) >= share.max_files) {
          throw refusal(ErrorCode.Forbidden, `This link has received all the files it accepts (${share.max_files})`, 'limit_reached', { max_files: share.max_files });
        }
        const meta = parseMetadata(upload.metadata ?? undefined);
        await this.repo.insert(tx, {
          id: upload.id, share_id: share.id, name: upload.target_path.slice(1), size: upload.length ?? 0, uploader: parseUploader(meta.get('uploader')),
          file_id: null, created_at: upload.created_at, completed_at: null, notified_at: null, address,
        });
        await this.checkPending(tx, share.id, upload, address);
      },
      folderId: async (tx: Executor, upload: UploadRow) => {
        const share = await this.repo.shareOf(tx, upload.share_id!);
        if (!share) throw notFound('This upload link no longer exists');
        return share.file_id;
      },
      placed: async (tx: Executor, upload: UploadRow, file: Entry) => {
        return this.repo.markReceived(tx, upload.id, { id: file.row.id, name: file.row.name, size: file.row.size }, this.clock.now());
      },
    };
  }

  /**
   * A stranger's creation reserves its whole Upload-Length of the owner's
   * quota before sending a byte: what the link's uploads (and one address's,
   * through any of the owner's links) have reserved and not sent is bounded,
   * so nobody holds the owner's space by creating and waiting.
   */
  private async checkPending(tx: Executor, shareId: string, upload: UploadRow, address: string | null): Promise<void> {
    const pending = await this.repo.pendingBytes(tx, shareId, upload.owner_id, address ?? '', this.clock.now());
    const over = pending.link > this.limits.perLink ? this.limits.perLink : address !== null && pending.address > this.limits.perAddress ? this.limits.perAddress : null;
    if (over === null) return;
    throw refusal(
      ErrorCode.TooManyRequests,
      `Uploads through this link are waiting for ${over} bytes already; try again when they have arrived`,
      'busy',
      { pending_limit: over },
      BUSY_RETRY_AFTER_S,
    );
  }

  /** tus creation through the link: Upload-Metadata `filename` (required) and `uploader` (optional). */
  async create(shareId: string, token: string | undefined, length: number, metadataHeader: string | undefined, address: string | null = null): Promise<UploadRow> {
    const { share } = await this.access.openForUpload(shareId, token);
    const meta = parseMetadata(metadataHeader);
    const filename = meta.get('filename');
    if (filename === undefined) throw badRequest('Upload-Metadata: needs "filename"');
    const name = parseName(filename, 'Upload-Metadata filename');
    parseUploader(meta.get('uploader'));
    if (share.max_file_size !== null && length > share.max_file_size) {
      throw refusal(ErrorCode.TooLarge, `The file is larger than this link accepts (at most ${share.max_file_size} bytes)`, 'file_too_large', { max_file_size: share.max_file_size });
    }
    const upload = await this.uploads.begin(share.owner_id, [name], 'tus', length, metadataHeader ?? null, { shareId: share.id, address });
    // An empty upload is complete at creation; clients send no PATCH for it.
    if (length === 0) await this.completeNow(upload);
    return upload;
  }

  /** The link is usable now and the upload came through it (404 for any other upload id). */
  private async inFlight(shareId: string, token: string | undefined, uploadId: string): Promise<UploadRow> {
    const { share } = await this.access.openForUpload(shareId, token);
    const upload = await this.repo.findUpload(shareId, uploadId);
    if (!upload || upload.kind !== 'tus' || upload.expires_at < this.clock.now()) throw notFound('Upload not found');
    // The owner may lower the limit while an upload is under way.
    if (share.max_file_size !== null && (upload.length ?? 0) > share.max_file_size) {
      throw refusal(ErrorCode.TooLarge, `The file is larger than this link accepts (at most ${share.max_file_size} bytes)`, 'file_too_large', { max_file_size: share.max_file_size });
    }
    return upload;
  }

  private async completeNow(upload: UploadRow): Promise<void> {
    const outcome = await this.uploads.complete(upload);
    if (outcome === 'locked') throw new DomainError(ErrorCode.Conflict, 'The upload is being finished by another request; try again', { kind: 'locked' });
    if (outcome === 'gone') throw notFound('Upload not found');
  }

  async head(shareId: string, token: string | undefined, uploadId: string): Promise<UploadRow> {
    const upload = await this.inFlight(shareId, token, uploadId);
    if (upload.upload_offset === upload.length) await this.completeNow(upload);
    return upload;
  }

  async patch(shareId: string, token: string | undefined, uploadId: string, offset: number, source: Readable, contentLength: number | null): Promise<UploadRow> {
    const upload = await this.inFlight(shareId, token, uploadId);
    if (offset !== upload.upload_offset) throw conflict(`Upload-Offset is ${upload.upload_offset}, not ${offset}`);
    const length = upload.length!;
    if (contentLength !== null && offset + contentLength > length) {
      throw new DomainError(ErrorCode.ParamError, 'The body goes past Upload-Length', { bodyUnread: true });
    }
    if (offset === length) {
      await this.completeNow(upload);
      return upload;
    }
    // A stranger's upload holds a slot of the link's, never of the owner's own budget (files/transfers.ts).
    return this.uploads.transfers.upload(linkHolder(shareId), async () => {
      const { state, token: lock } = await this.uploads.write(upload, source, { max: length - offset }, (s) => s.offset === length);
      if (state.offset === length) await this.uploads.finish(upload, state, lock);
      return upload;
    });
  }

  async terminate(shareId: string, token: string | undefined, uploadId: string): Promise<void> {
    await this.inFlight(shareId, token, uploadId);
    await this.uploads.abort(uploadId);
  }

  /** The link is gone: its uploads in flight end now and their reservations go back to the owner's quota. */
  async release(shareId: string): Promise<void> {
    for (const id of await this.repo.uploadIds(shareId)) await this.uploads.abort(id);
  }

  /** The most uploads in flight the owner's view lists (a link's are bounded by its pending bytes anyway). */
  static readonly PENDING_PAGE = 1000;

  /** The owner's view of the uploads in flight through the link: what each has reserved and received. */
  async pending(ownerId: string, shareId: string): Promise<PendingUpload[]> {
    await this.ownedRequest(ownerId, shareId);
    const rows = await this.repo.pending(shareId, UploadRequests.PENDING_PAGE);
    return rows.map((r) => ({
      id: r.id, name: r.name, uploader: r.uploader, reserved: r.length ?? 0, received: r.upload_offset,
      created_at: new Date(r.created_at).toISOString(), expires_at: new Date(r.expires_at).toISOString(),
    }));
  }

  /** The owner cancels an upload in flight through their link: its bytes and reservation go at once. */
  async cancel(ownerId: string, shareId: string, uploadId: string): Promise<void> {
    await this.ownedRequest(ownerId, shareId);
    if (!(await this.repo.findUpload(shareId, uploadId))) throw notFound('Upload not found');
    await this.uploads.abort(uploadId);
  }

  private async ownedRequest(ownerId: string, shareId: string) {
    const share = await this.shares.findOwned(ownerId, shareId);
    if (!share) throw notFound('Share not found');
    if (share.upload_only !== 1) throw forbidden('This share is not an upload request');
    return share;
  }

  /** The owner's view: files received through the link, newest first. */
  async received(ownerId: string, shareId: string, pageSize: number, pageToken?: string): Promise<{ uploads: ReceivedFile[]; next_page_token: string | null }> {
    await this.ownedRequest(ownerId, shareId);
    const rows = await this.repo.received(shareId, pageToken ? decodeCursor(pageToken) : null, pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return { uploads: page.map(toReceived), next_page_token: rows.length > pageSize && last ? encodeCursor(last) : null };
  }
}
