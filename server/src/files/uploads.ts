// Uploads: bytes stream into a staging area (memory stays flat), then become a
// blob (fsync + atomic rename), and only then does one transaction point a file
// row at it. An upload row leases the staging area, the blob id and a quota
// reservation taken atomically up front; whoever deletes the row cleans up, so
// an interrupted, aborted, over-quota or expired upload leaves nothing behind.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { transferred } from '../ops/heap.js';
import { crc32 } from 'node:zlib';
import { DomainError, ErrorCode, badRequest, conflict, notFound } from '../core/errors.js';
import { secretToken, shortId } from '../crypto/random.js';
import { FILE, FOLDER, newBlobId, newFileRow, type Executor, type FileRow, type FileStore } from './repository.js';
import type { UploadRow } from './upload-repository.js';
import { joinPath, numberedName, parsePath } from './names.js';
import { requirePortableName } from './name-rules.js';
import { mimeFor } from './mime.js';
import type { Entry, Quotas, Tree } from './tree.js';
import type { FilesService } from './service.js';
import type { Scope } from './scopes.js';
import { StagingInterrupted, type StagingState } from './storage/driver.js';
import { crc32OfZeros } from './crc32.js';
import { supersede } from './version-swap.js';
import type { Clock } from '../core/clock.js';
import { personActor } from '../core/actor.js';
import { accountHolder, type Transfers } from './transfers.js';

export interface UploadOptions {
  /** A request that sends nothing for this long is cut off. */
  idleTimeoutMs: number;
  /** How long an unfinished tus upload lives after its last activity. */
  tusExpiryMs: number;
  /**
   * The same for an upload through an upload-request link: a stranger's
   * reservation of the owner's quota lasts only while bytes keep coming
   * (issue 32, finding 5), so a creation that sends nothing frees it within minutes.
   */
  linkIdleExpiryMs: number;
  /** Lease of a streamed PUT (renewed while bytes flow); after a crash the sweeper reclaims it. */
  putLeaseMs: number;
  /** Write lock of one request on an upload (renewed while bytes flow). */
  lockMs: number;
  heartbeatMs: number;
  /** Reservation step for bodies of unknown length. */
  growStep: number;
}

export const DEFAULT_UPLOAD_OPTIONS: UploadOptions = {
  idleTimeoutMs: 60_000,
  tusExpiryMs: 24 * 3600_000,
  linkIdleExpiryMs: 10 * 60_000,
  putLeaseMs: 15 * 60_000,
  lockMs: 2 * 60_000,
  heartbeatMs: 20_000,
  growStep: 16 * 1024 * 1024,
};

class IdleTimeout extends Error {}

/** Which process this is, and when a lock owner counts as dead (files/liveness.ts). */
export interface Liveness {
  readonly id: string;
  deadBefore(now: number): number;
}

/** The write lock was taken over (this process was taken for dead): stop writing. */
function lockLost(): DomainError {
  return new DomainError(ErrorCode.Conflict, 'Another request took over this upload', { kind: 'locked', bodyUnread: true });
}

/** The row was deleted under a finisher (terminated, expired, or its owner deleted): whoever deleted it cleaned up. */
class LeaseGone extends Error {}

/** The outcome of finishing an upload whose bytes are all received. */
export type CompleteOutcome = 'finished' | 'locked' | 'gone';

/** Bytes appended under a write lock that is still held (to finish the upload with). */
export interface HeldWrite {
  state: StagingState;
  token: string;
}

function tooLarge(message: string): DomainError {
  // The rest of the body is not read.
  return new DomainError(ErrorCode.TooLarge, message, { bodyUnread: true });
}

interface WriteLimits {
  /** Most bytes this request may add. */
  max: number;
  /** Reserve quota as the body grows (bodies of unknown length). */
  grow?: (total: number) => Promise<void>;
  /** Sees each piece of the body as it goes to the store (a running checksum). */
  observe?: (bytes: Buffer) => void;
}

export type { UploadRow };

/** A stored piece of a file sent in parts: the object holding its bytes, and their count. */
export interface Piece {
  key: string;
  size: number;
}

/** The target recorded on a piece's upload row (it never becomes a file there). */
const PIECE_NAME = '.piece';
/**
 * A spool outlives its transfer's 24 idle hours (sync/chunked.ts), so the
 * transfer's sweep deletes it first; this expiry is the backstop.
 */
const SPOOL_EXPIRY_MS = 48 * 3600_000;

/**
 * A body already written to a spool, in order: `put` makes the spool itself
 * the file when it can (a rename, not a second write of every byte), and
 * otherwise stores what `read()` streams.
 */
export interface SpooledBody {
  readonly spoolId: string;
  readonly size: number;
  /** The SHA-1 of its bytes, hex, when it was computed as they arrived. */
  readonly sha1?: string;
  read(): Readable;
}

export function isSpooled(body: Readable | SpooledBody): body is SpooledBody {
  return 'spoolId' in body;
}
/** The transaction a share hook runs in (handed on to the share feature's repository). */
export type UploadTx = Executor;

/**
 * Uploads through an upload-request link (shares/upload-requests.ts) land in
 * the share's folder under a fresh name, never overwriting; the share feature
 * says which folder, may refuse a creation (its limits) and records the file,
 * each time inside the transaction that creates the upload or places the file.
 */
export interface ShareUploadHooks {
  /**
   * In the creation's transaction (the owner's tree lock held; `tx` is its
   * executor, the upload's row already in it): throws to refuse the upload.
   * `address` is the client's.
   */
  admit(tx: UploadTx, upload: UploadRow, address: string | null): Promise<void>;
  /** The id of the folder the upload goes to; throws when the share or its folder is gone. */
  folderId(tx: UploadTx, upload: UploadRow): Promise<string>;
  /** Answers the name the uploader gave (null: none), for the item's history. */
  placed(tx: UploadTx, upload: UploadRow, file: Entry): Promise<string | null>;
}

/**
 * Checks stored bytes before their file exists (antivirus/scanner.ts): resolves
 * to let the file appear, throws to refuse it. A refusal of kind
 * 'unavailable' keeps a tus upload for a retry; any other cancels it.
 */
export interface UploadCheck {
  check(upload: { ownerId: string; name: string; shareId: string | null }, open: () => Promise<Readable>): Promise<void>;
}

export class UploadService {
  readonly options: UploadOptions;
  /** Set by the share feature (shares/module.ts). */
  shareHooks: ShareUploadHooks | null = null;
  /** Set when a virus scanner is configured (services.ts). */
  check: UploadCheck | null = null;

  constructor(
    private readonly tree: Tree,
    private readonly files: FilesService,
    private readonly quotas: Quotas,
    private readonly liveness: Liveness,
    private readonly clock: Clock,
    options: Partial<UploadOptions> = {},
  ) {
    this.options = { ...DEFAULT_UPLOAD_OPTIONS, ...options };
  }

  private get store(): FileStore {
    return this.tree.store;
  }

  /** Fails early (before any byte is read) when the target cannot hold a file. */
  async checkTarget(ownerId: string, names: readonly string[]): Promise<void> {
    if (names.length === 0) throw conflict('The root folder cannot be overwritten with a file');
    const rows = await this.tree.walk(this.store, ownerId, names);
    // Names the upload would create (the file, missing folders) must suit every client.
    for (const name of names.slice(rows.length)) requirePortableName(name, 'path');
    await this.checkCaseTwin(ownerId, names, rows);
    const last = rows[rows.length - 1];
    if (!last) return;
    if (rows.length < names.length && last.kind !== FOLDER) throw conflict(`${joinPath(names.slice(0, rows.length))} is a file, not a folder`);
    if (rows.length === names.length && last.kind === FOLDER) throw conflict(`${joinPath(names)} is a folder`);
  }

  /** A new file whose name another item of its folder has in another case is refused now, not when its bytes have arrived. */
  private async checkCaseTwin(ownerId: string, names: readonly string[], rows: readonly FileRow[]): Promise<void> {
    if (rows.length !== names.length - 1) return;
    const parent = rows.length > 0 ? rows[rows.length - 1]! : await this.tree.root(ownerId);
    if (parent.kind !== FOLDER) return;
    const taken = await this.store.tree.findChildFolded(parent.id, names[names.length - 1]!);
    if (taken) throw conflict(`${joinPath(names)}: "${taken.name}" already exists (names that differ only in case are the same name)`);
  }

  /** Reserves quota and records the upload; its staging area exists when this resolves. */
  async begin(ownerId: string, names: readonly string[], kind: UploadRow['kind'], length: number | null, metadata: string | null, via: { source?: string | null; author?: string | null; shareId?: string | null; address?: string | null; piece?: boolean } = {}): Promise<UploadRow> {
    const shareId = via.shareId ?? null;
    const source = via.source ?? null;
    const author = via.author ?? null;
    // Through a share the name is only a wish: a clash gets a fresh name when the file is placed.
    // A piece (storePiece) has no target of its own.
    if (!via.piece) {
      if (shareId === null) await this.checkTarget(ownerId, names);
      else requirePortableName(names[names.length - 1]!, 'filename');
    }
    const quota = await this.quotas.quotaOf(ownerId);
    const reserve = length ?? 0;
    const now = this.clock.now();
    const row: UploadRow = {
      id: shortId(24), owner_id: ownerId, kind, target_path: joinPath(names), blob_id: newBlobId(), length, upload_offset: 0, crc32: 0,
      // A PUT's row is born locked by its request (no claim follows), its lease this process's: if it dies, any instance reclaims the reservation.
      reserved: reserve, metadata, lock_token: kind === 'put' ? secretToken(12) : null, lock_expires_at: kind === 'put' ? now + this.options.lockMs : null,
      lock_owner: kind === 'put' ? this.liveness.id : null, created_at: now,
      expires_at: this.expiry({ kind, share_id: shareId }, now),
      share_id: shareId, source, author,
    };
    await this.files.mutate(ownerId, async (s) => {
      await this.reserveOrRefuse(s, ownerId, reserve, quota);
      await s.uploads.insert(row);
      if (shareId !== null) await this.sharePort().admit(s.db, row, via.address ?? null);
    }, personActor(author));
    try {
      await this.tree.storage.createStaging(row.id, row.blob_id);
    } catch (err) {
      await this.abort(row.id);
      throw err;
    }
    return row;
  }

  /** Reserves `bytes` of the owner's quota, in the caller's transaction; 413 when they do not fit. */
  private async reserveOrRefuse(s: FileStore, ownerId: string, bytes: number, quota: number): Promise<void> {
    if (!(await s.usage.reserve(ownerId, bytes, quota))) throw tooLarge(await this.quotaMessage(s, ownerId, bytes, quota));
  }

  private async quotaMessage(s: FileStore, ownerId: string, bytes: number, quota: number): Promise<string> {
    const usage = await s.usage.get(ownerId);
    const free = Math.max(0, quota - (usage?.used ?? 0) - (usage?.reserved ?? 0));
    return `Not enough storage space: the upload needs ${bytes} bytes, ${free} are available`;
  }

  /** Uploads and downloads in flight per account or link (files/transfers.ts). */
  get transfers(): Transfers {
    return this.files.transfers;
  }

  /**
   * PUT /file/content (and WebDAV, sync PUT): streams a whole body into a new
   * file version, holding one of the asker's upload slots. `modifiedAt`: the
   * modification time to keep (a sync client's X-OC-Mtime), set in the same
   * transaction that places the file; otherwise now.
   */
  put(actorId: string, path: string, body: Readable | SpooledBody, declaredLength: number | null, writer: string | null = null, modifiedAt?: number): Promise<Entry> {
    return this.transfers.upload(accountHolder(actorId), () => this.putHeld(actorId, path, body, declaredLength, writer, modifiedAt));
  }

  private async putHeld(actorId: string, path: string, body: Readable | SpooledBody, declaredLength: number | null, writer: string | null, modifiedAt: number | undefined): Promise<Entry> {
    // A write into a folder shared with the asker lands in (and is charged to) the owner's tree.
    const sc = await this.files.scope(actorId, path, 'write');
    let source: Readable;
    if (isSpooled(body)) {
      const placed = await this.placeSpool(sc, body, writer, actorId, modifiedAt);
      if (placed) return sc.view(placed);
      source = body.read();
    } else source = body;
    const upload = await this.begin(sc.ownerId, sc.names, 'put', declaredLength, null, { source: writer, author: actorId });
    let held: HeldWrite;
    try {
      held = await this.write(
        upload,
        source,
        { max: declaredLength ?? Number.MAX_SAFE_INTEGER, grow: declaredLength === null ? (total) => this.grow(upload, total) : undefined },
        () => true,
      );
      if (declaredLength !== null && held.state.offset !== declaredLength) throw badRequest('The body is shorter than its Content-Length');
    } catch (err) {
      await this.abort(upload.id);
      throw err;
    }
    return sc.view(await this.finish(upload, held.state, held.token, modifiedAt, true));
  }

  // ---- pieces: one file sent in several requests (the sync clients' chunked uploads) ----

  /**
   * Stores one piece of a file sent in parts: streamed into an object of its
   * own (never whole in memory), its size reserved from the owner's quota
   * until `releasePieces` or `dropPieces`. Until it is stored an upload row
   * leases it, so a crash midway leaves nothing (the reclaimer aborts
   * orphaned PUTs). `max`: the most bytes the piece may have.
   */
  storePiece(ownerId: string, source: Readable, declaredLength: number | null, max: number): Promise<Piece> {
    return this.transfers.upload(accountHolder(ownerId), () => this.storePieceHeld(ownerId, source, declaredLength, max));
  }

  private async storePieceHeld(ownerId: string, source: Readable, declaredLength: number | null, max: number): Promise<Piece> {
    if (declaredLength !== null && declaredLength > max) throw tooLarge('The chunk goes past the total length of the upload');
    const upload = await this.begin(ownerId, [PIECE_NAME], 'put', declaredLength, null, { author: ownerId, piece: true });
    try {
      const held = await this.write(upload, source, { max, grow: declaredLength === null ? (total) => this.grow(upload, total) : undefined }, () => true);
      const size = held.state.offset;
      if (declaredLength !== null && size !== declaredLength) throw badRequest('The body is shorter than its Content-Length');
      if (size > 0) await this.tree.storage.commit(upload.id, upload.blob_id, size, true);
      else await this.tree.storage.deleteStaging(upload.id);
      // The row goes; its reservation stays with the piece, exactly its size.
      const lease = await this.store.transaction(async (s) => {
        const row = await s.uploads.take(upload.id, held.token);
        if (row) await s.usage.adjust(ownerId, { reserved: size - row.reserved });
        return row;
      });
      if (!lease) throw notFound('Upload not found (it expired or was cancelled)');
      return { key: upload.blob_id, size };
    } catch (err) {
      // Cleans up only while the row is still ours (whoever took it cleaned up).
      await this.abort(upload.id);
      throw err;
    }
  }

  /** The bytes of a stored piece. */
  async readPiece(piece: Piece): Promise<Readable> {
    return piece.size === 0 ? Readable.from([]) : this.tree.storage.read(piece.key);
  }

  /** Gives up the reservation pieces hold (their bytes stay, e.g. while they become a file). */
  async releasePieces(ownerId: string, bytes: number): Promise<void> {
    if (bytes !== 0) await this.store.transaction((s) => s.usage.adjust(ownerId, { reserved: -bytes }));
  }

  /** Takes the reservation of pieces back (becoming a file failed), whether or not the quota has room now. */
  async holdPieces(ownerId: string, bytes: number): Promise<void> {
    if (bytes !== 0) await this.store.transaction((s) => s.usage.adjust(ownerId, { reserved: bytes }));
  }

  /** Deletes pieces; `reserved`: they still hold their reservation, which is released. */
  async dropPieces(ownerId: string, pieces: readonly Piece[], reserved: boolean): Promise<void> {
    if (reserved) await this.releasePieces(ownerId, pieces.reduce((n, p) => n + p.size, 0));
    for (const p of pieces) await this.tree.storage.deleteBlob(p.key);
  }

  // ---- spools: the pieces of one file written in place, one after another ----

  /**
   * Whether pieces can be written in place: the store can read a staging area
   * back before it is committed (the local disk). On S3, a staging area is a
   * multipart upload, and each piece stays an object of its own.
   */
  get spools(): boolean {
    return typeof this.tree.storage.readStaging === 'function';
  }

  /**
   * A new, empty spool of `ownerId`: a staging area that pieces are appended
   * to (`appendToSpool`) and that may become a file (`put` of a SpooledBody).
   * It reserves nothing itself; each piece reserves its own size.
   */
  async openSpool(ownerId: string): Promise<string> {
    return (await this.begin(ownerId, [PIECE_NAME], 'spool', null, null, { author: ownerId, piece: true })).id;
  }

  /**
   * Appends one piece of `length` bytes to a spool whose end is `at`, under
   * the spool's write lock: all of it or nothing (a failed piece's bytes are
   * cut by the next append). Its size is reserved from the owner's quota
   * first and stays reserved, held by the piece, as for `storePiece`.
   * Resolves with where the piece starts, or null, with the body unread, when
   * the spool cannot take it now (another request is appending, its end is
   * not `at`, or it is gone): the caller stores the piece on its own instead.
   * `observe` sees the piece's bytes as they are stored.
   */
  appendToSpool(spoolId: string, ownerId: string, at: number, source: Readable, length: number, max: number, observe?: (bytes: Buffer) => void): Promise<number | null> {
    return this.transfers.upload(accountHolder(ownerId), () => this.appendToSpoolHeld(spoolId, ownerId, at, source, length, max, observe));
  }

  private async appendToSpoolHeld(spoolId: string, ownerId: string, at: number, source: Readable, length: number, max: number, observe?: (bytes: Buffer) => void): Promise<number | null> {
    if (length > max) throw tooLarge('The chunk goes past the total length of the upload');
    const spool = await this.findSpool(spoolId);
    if (!spool || spool.owner_id !== ownerId || spool.upload_offset !== at) return null;
    const token = secretToken(12);
    if (!(await this.claim(spool, token))) return null;
    spool.lock_token = token;
    const quota = await this.quotas.quotaOf(ownerId);
    try {
      await this.files.mutate(ownerId, async (s) => {
        await this.reserveOrRefuse(s, ownerId, length, quota);
      }, personActor(ownerId));
    } catch (err) {
      await this.store.uploads.unlock(spoolId, token);
      throw err;
    }
    try {
      const held = await this.write(spool, source, { max: length, observe }, () => false);
      if (held.state.offset - at !== length) throw badRequest('The body is shorter than its Content-Length');
    } catch (err) {
      await this.releasePieces(ownerId, length);
      throw err;
    }
    return at;
  }

  /** The bytes of a piece in a spool. */
  async readSpool(spoolId: string, start: number, size: number): Promise<Readable> {
    if (size === 0) return Readable.from([]);
    return this.tree.storage.readStaging!(spoolId, { start, end: start + size - 1 });
  }

  /** How many bytes a spool holds, or null when it is gone. */
  async spoolSize(spoolId: string): Promise<number | null> {
    return (await this.findSpool(spoolId))?.upload_offset ?? null;
  }

  private async findSpool(spoolId: string): Promise<UploadRow | undefined> {
    const row = await this.store.uploads.findAny(spoolId);
    return row?.kind === 'spool' ? row : undefined;
  }

  /** Deletes a spool and its bytes (the reservations its pieces hold are the caller's to release). */
  async dropSpool(spoolId: string): Promise<void> {
    await this.abort(spoolId);
  }

  /**
   * The spool becomes the file, renamed into place, when it holds exactly the
   * body's bytes and is charged to the tree the file goes to (not one shared
   * with the writer by another person); null otherwise, and nothing changed.
   */
  private async placeSpool(sc: Scope, body: SpooledBody, writer: string | null, author: string, modifiedAt: number | undefined): Promise<Entry | null> {
    const spool = await this.findSpool(body.spoolId);
    if (!spool || spool.owner_id !== sc.ownerId || spool.upload_offset !== body.size) return null;
    await this.checkTarget(sc.ownerId, sc.names);
    const token = secretToken(12);
    if (!(await this.claim(spool, token))) return null;
    const target = { target_path: joinPath(sc.names), source: writer, author };
    const quota = await this.quotas.quotaOf(sc.ownerId);
    try {
      // As begin() does for a PUT, the file's size is reserved under the quota (the pieces' reservation was handed over by the caller).
      await this.files.mutate(sc.ownerId, async (s) => {
        await this.reserveOrRefuse(s, sc.ownerId, body.size, quota);
        await s.uploads.amend(spool.id, token, { ...target, reserved: body.size });
      }, personActor(author));
    } catch (err) {
      await this.store.uploads.unlock(spool.id, token);
      throw err;
    }
    Object.assign(spool, target, { reserved: body.size, lock_token: token });
    return this.finish(spool, { offset: body.size, crc32: spool.crc32 }, token, modifiedAt);
  }

  /** A spool that did not become a file gives back the file's reservation and its lock. */
  private async unholdSpool(spool: UploadRow, token: string): Promise<void> {
    await this.store.transaction(async (s) => {
      if (await s.uploads.amend(spool.id, token, { reserved: 0, target_path: PIECE_NAME })) await s.usage.adjust(spool.owner_id, { reserved: -spool.reserved });
    });
    await this.store.uploads.unlock(spool.id, token);
  }

  /** Where `actorId`'s upload target lies (their tree, or a tree shared with them for writing). */
  scope(actorId: string, names: string[]): Promise<Scope> {
    return this.files.scope(actorId, names, 'write');
  }

  /** Server-side import of a local file (moved, not copied): tooling and tests. */
  async importLocalFile(ownerId: string, path: string, localPath: string): Promise<Entry> {
    const names = parsePath(path);
    const { size, blocks } = await stat(localPath);
    let crc = 0;
    // A file with no allocated blocks is one hole, all zeros (sparse disk images): no need to read it.
    if (blocks === 0 && size > 4096) crc = crc32OfZeros(size);
    else for await (const chunk of createReadStream(localPath, { highWaterMark: 1024 * 1024 })) crc = crc32(chunk as Buffer, crc);
    const upload = await this.begin(ownerId, names, 'put', size, null);
    const token = upload.lock_token!;
    try {
      await this.tree.storage.adoptStaging(upload.id, localPath);
    } catch (err) {
      await this.abort(upload.id);
      throw err;
    }
    return this.finish(upload, { offset: size, crc32: crc }, token);
  }

  /** Extends the reservation of a body of unknown length as it grows. */
  private async grow(upload: UploadRow, total: number): Promise<void> {
    if (total <= upload.reserved) return;
    const quota = await this.quotas.quotaOf(upload.owner_id);
    const need = total - upload.reserved;
    await this.files.mutate(upload.owner_id, async (s) => {
      let step = Math.max(need, this.options.growStep);
      if (!(await s.usage.reserve(upload.owner_id, step, quota))) {
        step = need;
        if (!(await s.usage.reserve(upload.owner_id, step, quota))) throw tooLarge(await this.quotaMessage(s, upload.owner_id, total, quota));
      }
      upload.reserved += step;
      await s.uploads.setReserved(upload.id, upload.reserved);
    }, personActor(upload.author));
  }

  private claim(upload: UploadRow, token: string): Promise<boolean> {
    const now = this.clock.now();
    return this.store.uploads.claim(upload.id, upload.upload_offset, {
      token, owner: this.liveness.id, now, until: now + this.options.lockMs, deadBefore: this.liveness.deadBefore(now),
    });
  }

  private expiry(upload: Pick<UploadRow, 'kind' | 'share_id'>, now = this.clock.now()): number {
    if (upload.kind === 'spool') return now + SPOOL_EXPIRY_MS;
    return now + (upload.kind === 'put' ? this.options.putLeaseMs : upload.share_id !== null ? this.options.linkIdleExpiryMs : this.options.tusExpiryMs);
  }

  /**
   * Appends a request body to an upload under its write lock. Durable
   * progress is recorded as it grows (tus: every few MiB, so a crash midway
   * loses at most that) and when the client goes away midway (tus resumes
   * from it). When `keepLock(state)` says the upload is complete, the lock is
   * kept for `finish`, so nobody else can finish or change it meanwhile;
   * otherwise it is released.
   */
  async write(upload: UploadRow, source: Readable, limits: WriteLimits, keepLock: (state: StagingState) => boolean): Promise<HeldWrite> {
    // A PUT's row was born locked by this request (begin), a spool's was claimed by appendToSpool;
    // a tus upload's lock is claimed per request.
    const born = upload.kind !== 'tus' && upload.lock_token !== null;
    const token = born ? upload.lock_token! : secretToken(12);
    if (!born && !(await this.claim(upload, token))) {
      const current = await this.store.uploads.findAny(upload.id);
      if (!current) throw notFound('Upload not found');
      if (current.upload_offset !== upload.upload_offset) throw conflict(`Upload-Offset is ${current.upload_offset}`);
      throw new DomainError(ErrorCode.Conflict, 'Another request is writing to this upload', { kind: 'locked' });
    }
    const from: StagingState = { offset: upload.upload_offset, crc32: upload.crc32 };
    const record =
      upload.kind === 'tus'
        ? async (s: StagingState) => {
            if (!(await this.store.uploads.progress(upload.id, token, { upload_offset: s.offset, crc32: s.crc32, expires_at: this.expiry(upload) }))) throw lockLost();
          }
        : undefined;
    let state = from;
    let failure: unknown = null;
    try {
      state = await this.tree.storage.append(upload.id, from, this.meter(upload, token, source, limits), record);
    } catch (err) {
      failure = err;
      if (err instanceof StagingInterrupted) {
        // A rule broken by the body (too long, over quota) voids this request's bytes; a broken connection
        // keeps them, but for a spool, where a chunk is all or nothing (the next append cuts them).
        state = err.cause instanceof DomainError || upload.kind === 'spool' ? from : err.state;
        failure = classify(err.cause, source);
      }
    }
    const expires = this.expiry(upload);
    const patch = { upload_offset: state.offset, crc32: state.crc32, expires_at: expires };
    if (failure === null && keepLock(state)) {
      // Every byte is durable and recorded before anyone may call the upload complete; the lock stays for finish.
      // A PUT is never resumed, only finished by this request or aborted: its offset needs no record (finish checks the lock).
      if (upload.kind !== 'put' && !(await this.store.uploads.progress(upload.id, token, patch))) failure = lockLost();
    } else {
      await this.store.uploads.release(upload.id, token, patch);
    }
    upload.upload_offset = state.offset;
    upload.crc32 = state.crc32;
    upload.expires_at = expires;
    if (failure !== null) throw failure;
    return { state, token };
  }

  private async *meter(upload: UploadRow, token: string, source: Readable, limits: WriteLimits): AsyncGenerator<Uint8Array> {
    const timer = setTimeout(() => source.destroy(new IdleTimeout('idle')), this.options.idleTimeoutMs);
    let received = 0;
    let lastBeat = this.clock.now();
    try {
      // destroyOnReturn: false keeps the socket open when we stop early, so the error response reaches the client.
      for await (const chunk of source.iterator({ destroyOnReturn: false })) {
        timer.refresh();
        const buf = chunk as Buffer;
        received += buf.length;
        transferred(buf.length);
        if (received > limits.max) {
          throw upload.kind === 'tus'
            ? new DomainError(ErrorCode.ParamError, 'The body goes past Upload-Length', { bodyUnread: true })
            : tooLarge('The body is longer than allowed');
        }
        if (limits.grow) await limits.grow(upload.upload_offset + received);
        limits.observe?.(buf);
        if (this.clock.now() - lastBeat >= this.options.heartbeatMs) {
          lastBeat = this.clock.now();
          if (!(await this.store.uploads.heartbeat(upload.id, token, lastBeat + this.options.lockMs, this.expiry(upload, lastBeat)))) throw lockLost();
        }
        yield buf;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Turns complete staged bytes into the file at the upload's target path,
   * under the write lock `token`. Every step can be repeated after a crash:
   * the blob commit is idempotent, and the row (deleted in the transaction
   * that places the file) says the file does not exist yet. `justWritten`:
   * this request's own write just stored `state` (StorageDriver.commit).
   */
  async finish(upload: UploadRow, state: StagingState, token: string, modifiedAt?: number, justWritten = false): Promise<Entry> {
    const names = parsePath(upload.target_path);
    const size = state.offset;
    const freed: string[] = [];
    let entry: Entry;
    try {
      if (size > 0) await this.tree.storage.commit(upload.id, upload.blob_id, size, justWritten);
      else await this.tree.storage.deleteStaging(upload.id);
      // Scanned once stored and before the row exists: nothing unscanned is ever visible.
      if (size > 0 && this.check) {
        await this.check.check({ ownerId: upload.owner_id, name: names[names.length - 1] ?? '', shareId: upload.share_id }, () => this.tree.storage.read(upload.blob_id));
      }
      entry = await this.files.mutate(upload.owner_id, async (s) => {
        const lease = await s.uploads.take(upload.id, token);
        if (!lease) throw new LeaseGone();
        await s.usage.adjust(upload.owner_id, { reserved: -lease.reserved });
        const blob = size > 0 ? { id: upload.blob_id, size, crc32: state.crc32 } : null;
        return upload.share_id === null ? this.place(s, upload.owner_id, names, blob, freed, upload.source, upload.author, modifiedAt) : this.placeFresh(s, upload, names, blob);
      }, personActor(upload.author));
    } catch (err) {
      // Whoever deleted the row cleaned up (never delete a blob we did not take the row of).
      if (err instanceof LeaseGone) throw notFound('Upload not found (it expired or was cancelled)');
      if (upload.kind === 'spool') {
        // The chunks stay for a retry of the assembly (or the transfer's DELETE), without the file's reservation.
        await this.unholdSpool(upload, token).catch(() => undefined);
        throw err;
      }
      if ((err instanceof DomainError && !held(err)) || upload.kind === 'put') {
        // A rule (the target became a folder, a virus found) or a PUT, which no one can retry: cancel it.
        await this.abort(upload.id, token);
        throw err;
      }
      // The store, the database or the virus scanner failed: the row, the bytes
      // and the record stay, and a retry (HEAD, PATCH, the reclaimer) finishes it later.
      await this.store.uploads.unlock(upload.id, token).catch(() => undefined);
      throw err;
    }
    if (freed.length) await this.tree.collectGarbage(freed);
    return entry;
  }

  /**
   * Finishes a tus upload whose bytes are all received but which has no file
   * yet (its finisher crashed, or finishing failed): 'locked' while a live
   * request holds it, 'gone' when the row no longer exists.
   */
  async complete(upload: UploadRow): Promise<CompleteOutcome> {
    const token = secretToken(12);
    if (!(await this.claim(upload, token))) return (await this.store.uploads.findAny(upload.id)) ? 'locked' : 'gone';
    try {
      await this.finish(upload, { offset: upload.upload_offset, crc32: upload.crc32 }, token);
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) return 'gone';
      throw err;
    }
    return 'finished';
  }

  /**
   * Reclaims what dead processes held, within seconds of their last beat:
   * streamed PUTs nobody will finish (their reservation and staging data),
   * and tus uploads whose bytes all arrived but whose file was never placed.
   */
  async reclaim(now = this.clock.now()): Promise<{ puts: number; finished: number }> {
    const deadBefore = this.liveness.deadBefore(now);
    let puts = 0;
    for (const u of await this.store.uploads.orphanedPuts(deadBefore, this.liveness.id, 100)) if (await this.abort(u.id)) puts++;
    let finished = 0;
    for (const u of await this.store.uploads.completeUnfinished(now, deadBefore, this.liveness.id, 100)) {
      // A rule failure cancels the upload; a store failure leaves it for the next round.
      if ((await this.complete(u).catch(() => 'failed')) === 'finished') finished++;
    }
    return { puts, finished };
  }

  private sharePort(): ShareUploadHooks {
    if (!this.shareHooks) throw new Error('uploads through shares need the share feature');
    return this.shareHooks;
  }

  /** An upload through a share: a new file in the share's folder, under the first free name (`name (1).ext`, ...). */
  private async placeFresh(s: FileStore, upload: UploadRow, names: string[], blob: { id: string; size: number; crc32: number } | null): Promise<Entry> {
    const hooks = this.sharePort();
    const folder = await s.tree.findById(upload.owner_id, await hooks.folderId(s.db, upload));
    const folderPath = folder && folder.kind === FOLDER ? await this.tree.pathOf(s, folder) : null;
    if (!folder || folderPath === null) throw notFound('The folder of this upload request is no longer available');
    const wanted = names[names.length - 1]!;
    const name = await this.tree.freeName(s, folder.id, wanted, false, (n) => numberedName(wanted, n, false));
    const path = joinPath([...parsePath(folderPath), name]);
    this.tree.ensureFitsWith(path, null, 'filename');
    const now = this.clock.now();
    const size = blob?.size ?? 0;
    if (blob) await s.blobs.insert({ id: blob.id, size, crc32: blob.crc32, ref_count: 1, created_at: now });
    const row = newFileRow({ owner_id: upload.owner_id, parent_id: folder.id, name, kind: FILE, created_at: now, blob_id: blob?.id ?? null, size, mime_type: mimeFor(name), updated_at: now });
    await s.tree.insert([row]);
    await s.usage.adjust(upload.owner_id, { used: size });
    const entry = { row, path };
    const uploader = await hooks.placed(s.db, upload, entry);
    await s.events.record(upload.owner_id, 'created', row, path, null, { type: 'link_uploaded', actor: { anonymous: true, name: uploader } });
    return entry;
  }

  /** Points the file at `names` to a new blob: a new row, or a new version of the existing file. */
  private async place(s: FileStore, ownerId: string, names: string[], blob: { id: string; size: number; crc32: number } | null, freed: string[], source: string | null, author: string | null, modifiedAt?: number): Promise<Entry> {
    const now = this.clock.now();
    const name = names[names.length - 1]!;
    const parent = await this.tree.mkdirP(s, ownerId, names.slice(0, -1), now);
    const existing = await s.tree.findChild(parent.row.id, name);
    if (existing && existing.kind === FOLDER) throw conflict(`${joinPath(names)} is a folder`);
    const size = blob?.size ?? 0;
    if (blob) await s.blobs.insert({ id: blob.id, size, crc32: blob.crc32, ref_count: 1, created_at: now });
    const content = { blob_id: blob?.id ?? null, size, mime_type: mimeFor(name), updated_at: modifiedAt ?? now, content_source: source, content_author: author };
    if (existing) {
      await s.tree.update(existing.id, content);
      // The old content becomes a version (versions.ts), in this same transaction.
      const released = await supersede(s, existing, now, freed);
      await s.usage.adjust(ownerId, { used: size - released });
      await s.events.record(ownerId, 'modified', { ...existing, ...content }, joinPath(names));
      return { row: { ...existing, ...content }, path: joinPath(names) };
    }
    const row = newFileRow({ owner_id: ownerId, parent_id: parent.row.id, name, kind: FILE, created_at: now, ...content });
    await s.tree.insert([row]);
    await s.usage.adjust(ownerId, { used: size });
    await s.events.record(ownerId, 'created', row, joinPath(names));
    return { row, path: joinPath(names) };
  }

  /**
   * Cancels an upload if it still exists (with `token`: only while that lock
   * is held): releases its reservation and removes its bytes.
   */
  async abort(uploadId: string, token?: string): Promise<boolean> {
    const lease = await this.store.transaction(async (s) => {
      const row = await s.uploads.take(uploadId, token);
      if (row) await s.usage.adjust(row.owner_id, { reserved: -row.reserved });
      return row;
    });
    await this.tree.storage.deleteStaging(uploadId);
    if (lease) await this.tree.storage.deleteBlob(lease.blob_id);
    return lease !== undefined;
  }

  /** Reclaims expired uploads, staging areas without an upload and unreferenced blobs. */
  async sweep(now = this.clock.now()): Promise<{ uploads: number; staging: number; blobs: number }> {
    await this.reclaim(now);
    let uploads = 0;
    for (;;) {
      const expired = await this.store.uploads.expired(now, 100);
      for (const u of expired) if (await this.abort(u.id)) uploads++;
      if (expired.length < 100) break;
    }
    const staged = await this.tree.storage.listStaging();
    const live = await this.store.uploads.existingIds(staged);
    let staging = 0;
    for (const id of staged) {
      if (live.has(id)) continue;
      await this.tree.storage.deleteStaging(id);
      staging++;
    }
    const blobs = await this.tree.collectGarbage();
    return { uploads, staging, blobs };
  }

  /** Removes everything a deleted user had: uploads, tree, storage counters, unshared blobs. */
  async deleteOwner(ownerId: string): Promise<void> {
    for (const u of await this.store.uploads.ofOwner(ownerId)) await this.abort(u.id);
    const freed = await this.store.transaction(async (s) => {
      const refs = await s.tree.blobRefsOfOwner(ownerId);
      for (const [id, n] of await s.versions.blobRefsOfOwner(ownerId)) refs.set(id, (refs.get(id) ?? 0) + n);
      await s.versions.deleteOwner(ownerId);
      await s.tree.deleteOwner(ownerId);
      await s.blobs.dropRefs(refs);
      await s.usage.delete(ownerId);
      return [...refs.keys()];
    });
    this.tree.forget(ownerId);
    await this.tree.collectGarbage(freed);
  }
}

/** A refusal by the upload check that asks for a retry (the scanner is down): the upload stays. */
function held(err: DomainError): boolean {
  return err.kind === 'unavailable' && (err.data as { reason?: string } | null)?.reason === 'scanner_unavailable';
}

/** Why the bytes stopped: a rule (DomainError), a stalled or vanished client, or a storage failure (rethrown). */
function classify(cause: unknown, source: Readable): unknown {
  if (cause instanceof DomainError) return cause;
  if (cause instanceof IdleTimeout) return new DomainError(ErrorCode.ParamError, 'No data received for too long', { kind: 'timeout', bodyUnread: true });
  if (source.destroyed && !source.readableEnded) {
    return new DomainError(ErrorCode.ParamError, 'The upload was interrupted', { detail: cause instanceof Error ? cause.message : String(cause) });
  }
  return cause;
}
