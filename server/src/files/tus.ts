// The tus 1.0 core protocol with the creation, termination and expiration
// extensions (https://tus.io/protocols/resumable-upload), on top of the upload
// service: a creation reserves the declared Upload-Length, each PATCH appends
// under a lock at the exact offset, and the last byte turns the upload into a file.
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode, badRequest, conflict, notFound } from '../core/errors.js';
import { checkPathLimits, joinPath, parseName, parsePath } from './names.js';
import type { Entry } from './tree.js';
import type { UploadService } from './uploads.js';
import type { UploadRow } from './upload-repository.js';
import type { FileStore } from './repository.js';
import type { Clock } from '../core/clock.js';
import { accountHolder } from './transfers.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,termination,expiration';
const MAX_METADATA = 8 * 1024;

/** Parses Upload-Metadata: comma-separated `key base64value` pairs, keys unique (tus 1.0 §Upload-Metadata). */
export function parseMetadata(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (header === undefined || header.trim() === '') return out;
  if (header.length > MAX_METADATA) throw badRequest('Upload-Metadata: is too long');
  for (const pair of header.split(',')) {
    const parts = pair.trim().split(' ');
    const key = parts[0] ?? '';
    if (!/^[\x21-\x7e]+$/.test(key) || parts.length > 2) throw badRequest('Upload-Metadata: malformed pair');
    if (out.has(key)) throw badRequest(`Upload-Metadata: duplicate key ${key}`);
    const encoded = parts[1] ?? '';
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw badRequest(`Upload-Metadata: ${key} is not base64`);
    let value: string;
    try {
      value = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
    } catch {
      throw badRequest(`Upload-Metadata: ${key} is not UTF-8`);
    }
    out.set(key, value);
  }
  return out;
}

/** The target of an upload: `path`, or `filename` in `folder` (default `/`). */
export function targetOf(meta: Map<string, string>): string[] {
  const path = meta.get('path');
  if (path !== undefined) return parsePath(path, 'Upload-Metadata path');
  const filename = meta.get('filename');
  if (filename === undefined) throw badRequest('Upload-Metadata: needs "path", or "filename" (and optionally "folder")');
  const folder = parsePath(meta.get('folder') ?? '/', 'Upload-Metadata folder');
  const names = [...folder, parseName(filename, 'Upload-Metadata filename')];
  checkPathLimits(Buffer.byteLength(joinPath(names), 'utf8'), names.length, 'Upload-Metadata filename', 'the folder and file name together');
  return names;
}

export interface PatchResult {
  upload: UploadRow;
  /** The file, once the last byte arrived. */
  file: Entry | null;
}

export class TusService {
  constructor(
    private readonly uploads: UploadService,
    private readonly store: FileStore,
    private readonly clock: Clock,
  ) {}

  async create(actorId: string, length: number, metadataHeader: string | undefined, writer: string | null = null): Promise<PatchResult> {
    const sc = await this.uploads.scope(actorId, targetOf(parseMetadata(metadataHeader)));
    const upload = await this.uploads.begin(sc.ownerId, sc.names, 'tus', length, metadataHeader ?? null, { source: writer, author: actorId });
    // An empty upload is complete at creation; clients send no PATCH for it.
    if (length === 0) await this.completeNow(upload);
    return { upload, file: null };
  }

  /** Finishes an upload whose bytes are all here; the file exists when this resolves. */
  private async completeNow(upload: UploadRow): Promise<void> {
    const outcome = await this.uploads.complete(upload);
    if (outcome === 'locked') throw new DomainError(ErrorCode.Conflict, 'The upload is being finished by another request; try again', { kind: 'locked' });
    if (outcome === 'gone') throw notFound('Upload not found');
  }

  /**
   * HEAD: the upload's offset. An upload with every byte received but no
   * file yet (its finisher crashed or failed) is finished first, so the
   * answer never says complete for a file that does not exist.
   */
  async head(ownerId: string, id: string): Promise<UploadRow> {
    const upload = await this.status(ownerId, id);
    if (upload.upload_offset === upload.length) await this.completeNow(upload);
    return upload;
  }

  async status(actorId: string, id: string): Promise<UploadRow> {
    const upload = (await this.store.uploads.find(actorId, id)) ?? (await this.sharedUpload(actorId, id));
    if (!upload || upload.kind !== 'tus' || upload.expires_at < this.clock.now()) throw notFound('Upload not found');
    return upload;
  }

  /**
   * An upload into a folder shared with `actorId` (the row belongs to the
   * folder's owner, whose quota it reserves). Its target is resolved again on
   * every request, so a revoked or downgraded grant stops it at the next PATCH.
   */
  private async sharedUpload(actorId: string, id: string): Promise<UploadRow | undefined> {
    const upload = await this.store.uploads.findAny(id);
    if (!upload || upload.metadata === null) return undefined;
    try {
      const sc = await this.uploads.scope(actorId, targetOf(parseMetadata(upload.metadata)));
      return sc.ownerId === upload.owner_id && joinPath(sc.names) === upload.target_path ? upload : undefined;
    } catch {
      return undefined;
    }
  }

  async patch(ownerId: string, id: string, offset: number, source: Readable, contentLength: number | null): Promise<PatchResult> {
    const upload = await this.status(ownerId, id);
    if (offset !== upload.upload_offset) throw conflict(`Upload-Offset is ${upload.upload_offset}, not ${offset}`);
    const length = upload.length!;
    if (contentLength !== null && offset + contentLength > length) {
      throw new DomainError(ErrorCode.ParamError, 'The body goes past Upload-Length', { bodyUnread: true });
    }
    if (offset === length) {
      // Every byte is here already: a retry after a lost answer or a crash. Finish it (idempotent).
      await this.completeNow(upload);
      return { upload, file: null };
    }
    // The body is received (and the file placed) holding one of the asker's upload slots.
    return this.uploads.transfers.upload(accountHolder(ownerId), async () => {
      const { state, token } = await this.uploads.write(upload, source, { max: length - offset }, (s) => s.offset === length);
      if (state.offset < length) return { upload, file: null };
      return { upload, file: await this.uploads.finish(upload, state, token) };
    });
  }

  async terminate(ownerId: string, id: string): Promise<void> {
    await this.status(ownerId, id);
    await this.uploads.abort(id);
  }

  location(upload: UploadRow): string {
    return `/api/v4/file/upload/${upload.id}`;
  }
}
