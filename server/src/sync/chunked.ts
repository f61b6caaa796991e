// Chunked uploads as the sync clients send them (api-contract §14), under
// /remote.php/dav/uploads/<uid>/<transfer>/: a transfer (MKCOL, maybe with
// OC-Total-Length), chunks named by a zero-padded index or byte offset (PUT;
// chunking v2 numbers them 1–10000), a listing to resume from, then the
// assembly into one file (MOVE .file). Idle transfers expire after 24 hours.
//
// Each chunk holds a quota reservation of its size, and its bytes are kept in
// one of two places. Where the store allows it (the local disk), a chunk of
// known length is appended to the transfer's spool, one staging area for the
// whole transfer; the clients send a file's chunks one after another, so they
// lie there in order, and the spool becomes the file by a rename: each byte is
// written once. A chunk sent again, one sent while another is being appended,
// or one of unknown length is an object of its own (so is every chunk on S3).
// The assembly goes through the same path as a PUT (every rule holds: names,
// quota, versions, trash, grants, locks); when the chunks are not all in the
// spool in order, it streams them in order, and never holds the file in memory.
import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DomainError, ErrorCode, badRequest, notFound } from '../core/errors.js';
import { shortId } from '../crypto/random.js';
import type { Clock } from '../core/clock.js';
import type { FilesService } from '../files/service.js';
import type { Piece, SpooledBody, UploadService } from '../files/uploads.js';
import type { ChunkRow, SyncRepository, TransferRow } from './repository.js';

/** A transfer nobody has written to for this long is deleted with its chunks. */
export const TRANSFER_IDLE_MS = 24 * 3600_000;
/** The clients' transfer ids: digits, or "nextcloud-client-…"-like words; never "." or "..", never a slash. */
const TRANSFER_NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
/** A chunk: a zero-padded index or byte offset. */
const CHUNK_NAME = /^\d{1,16}$/;
/** Chunking v2 numbers chunks 1 to 10000. */
const V2_MAX_CHUNKS = 10_000;
/** Running SHA-1s kept for this many spools at most (the oldest is forgotten: its checksum is then read back). */
const SUMS_KEPT = 256;

export function validTransferName(name: string): boolean {
  return TRANSFER_NAME.test(name);
}

export function validChunkName(name: string, v2: boolean): boolean {
  if (!CHUNK_NAME.test(name)) return false;
  if (!v2) return true;
  const n = Number(name);
  return n >= 1 && n <= V2_MAX_CHUNKS;
}

/** Chunks in the order they make up the file; 400 when some are missing. */
export function ordered(chunks: readonly ChunkRow[]): ChunkRow[] {
  const sorted = [...chunks].sort((a, b) => Number(a.name) - Number(b.name));
  if (sorted.length === 0) return sorted;
  // Named by byte offset: each starts where the one before ends.
  let offset = 0;
  let byOffset = true;
  for (const c of sorted) {
    if (Number(c.name) !== offset) byOffset = false;
    offset += c.size;
  }
  if (byOffset) return sorted;
  // Named by index: 0…n-1 or 1…n, none missing.
  const first = Number(sorted[0]!.name);
  const byIndex = (first === 0 || first === 1) && sorted.every((c, i) => Number(c.name) === first + i);
  if (!byIndex) throw badRequest('Chunks are missing: their names are neither consecutive indexes nor consecutive byte offsets');
  return sorted;
}

/** The chunks kept as objects of their own. */
function pieces(chunks: readonly ChunkRow[]): Piece[] {
  return chunks.filter((c) => c.spool_offset === null).map((c) => ({ key: c.storage_key, size: c.size }));
}

const bytesOf = (chunks: readonly ChunkRow[]) => chunks.reduce((n, c) => n + c.size, 0);

export class ChunkedUploads {
  /**
   * The SHA-1 of each spool's bytes so far (the clients' preferred OC-Checksum,
   * sync/ocs/capabilities.ts), computed as chunks are appended in this
   * process, so that the assembly need not read the file back to check it.
   */
  private readonly sums = new Map<string, { end: number; sha1: Hash }>();

  constructor(
    private readonly repo: SyncRepository,
    private readonly uploads: UploadService,
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  /** A person's transfer; 404 when they have none of that name (another person's included). */
  async find(userId: string, name: string): Promise<TransferRow> {
    const t = await this.repo.transfer(userId, name);
    if (!t) throw notFound('No such upload');
    return t;
  }

  /**
   * MKCOL of a transfer. A total length over what the person has free is 507
   * at once and creates nothing. False when the name is in use.
   */
  async create(userId: string, name: string, totalLength: number | null, destination: string | null): Promise<boolean> {
    if (totalLength !== null) {
      const c = await this.files.capacity(userId);
      const free = Math.max(0, c.total - c.used - c.reserved);
      if (totalLength > free) throw new DomainError(ErrorCode.TooLarge, `Not enough storage space: the upload needs ${totalLength} bytes, ${free} are available`);
    }
    const now = this.clock.now();
    return this.repo.createTransfer({ id: shortId(24), user_id: userId, name, total_length: totalLength, destination, created_at: now, updated_at: now, spool_id: null });
  }

  chunks(transfer: TransferRow): Promise<ChunkRow[]> {
    return this.repo.chunks(transfer.id);
  }

  /**
   * Stores one chunk (streamed; a chunk of the same name is replaced). With a
   * total length, the chunks together may not go past it. True when it replaced one.
   */
  async putChunk(transfer: TransferRow, name: string, source: Readable, declaredLength: number | null): Promise<boolean> {
    // Read for the total length's bound and for where the spool ends; neither applies on a store without spools and no total.
    const chunks = transfer.total_length !== null || this.uploads.spools ? await this.repo.chunks(transfer.id) : [];
    let max = Number.MAX_SAFE_INTEGER;
    if (transfer.total_length !== null) {
      max = Math.max(0, transfer.total_length - bytesOf(chunks.filter((c) => c.name !== name)));
      if (declaredLength !== null && declaredLength > max) throw badRequest(`The chunks would hold more than the ${transfer.total_length} bytes announced with OC-Total-Length`);
    }
    const stored = await this.store(transfer, chunks, name, source, declaredLength, max);
    const row: ChunkRow = { transfer_id: transfer.id, name, size: stored.size, storage_key: stored.key, created_at: this.clock.now(), spool_offset: stored.spoolOffset };
    const { ok, replaced } = await this.repo.putChunk(row);
    if (!ok) {
      // The transfer was deleted meanwhile (aborted or expired): its deletion dropped the spool, not this chunk's reservation.
      await this.drop(transfer.user_id, [row]);
      throw notFound('No such upload');
    }
    if (replaced) await this.drop(transfer.user_id, [replaced]);
    return replaced !== undefined;
  }

  /**
   * Stores a chunk's bytes: appended to the spool when that keeps it compact
   * (every byte in it belongs to a chunk, and this chunk is not sent again),
   * else as an object of its own.
   */
  private async store(transfer: TransferRow, chunks: readonly ChunkRow[], name: string, source: Readable, declaredLength: number | null, max: number): Promise<{ key: string; size: number; spoolOffset: number | null }> {
    if (this.uploads.spools && declaredLength !== null && !chunks.some((c) => c.name === name)) {
      const spoolId = transfer.spool_id ?? (await this.openSpool(transfer));
      const end = bytesOf(chunks.filter((c) => c.spool_offset !== null));
      const prior = spoolId === null ? undefined : this.sums.get(spoolId);
      // A copy: the running sum moves on only once the whole chunk is stored.
      const sha1 = end === 0 ? createHash('sha1') : prior?.end === end ? prior.sha1.copy() : null;
      const at = spoolId === null ? null : await this.uploads.appendToSpool(spoolId, transfer.user_id, end, source, declaredLength, max, sha1 ? (b) => sha1.update(b) : undefined);
      if (at !== null) {
        this.keepSum(spoolId!, sha1 && { end: at + declaredLength, sha1 });
        return { key: shortId(24), size: declaredLength, spoolOffset: at };
      }
    }
    const piece = await this.uploads.storePiece(transfer.user_id, source, declaredLength, max);
    return { key: piece.key, size: piece.size, spoolOffset: null };
  }

  /** The transfer's spool, made now; null when the transfer is gone. */
  private async openSpool(transfer: TransferRow): Promise<string | null> {
    const spoolId = await this.uploads.openSpool(transfer.user_id);
    if (await this.repo.setSpool(transfer.id, spoolId)) return (transfer.spool_id = spoolId);
    // Another chunk's request made one first, or the transfer was deleted.
    await this.uploads.dropSpool(spoolId);
    return (transfer.spool_id = await this.repo.spoolOf(transfer.id));
  }

  private keepSum(spoolId: string, sum: { end: number; sha1: Hash } | null): void {
    this.sums.delete(spoolId);
    if (!sum) return;
    this.sums.set(spoolId, sum);
    if (this.sums.size > SUMS_KEPT) this.sums.delete(this.sums.keys().next().value!);
  }

  /** Releases chunks' reservation and deletes the ones kept as objects of their own (a chunk in the spool goes with it). */
  private async drop(userId: string, chunks: readonly ChunkRow[]): Promise<void> {
    await this.uploads.releasePieces(userId, bytesOf(chunks));
    await this.uploads.dropPieces(userId, pieces(chunks), false);
  }

  /** DELETE of one chunk; false when there was none. */
  async deleteChunk(transfer: TransferRow, name: string): Promise<boolean> {
    const old = await this.repo.deleteChunk(transfer.id, name);
    if (old) await this.drop(transfer.user_id, [old]);
    return old !== undefined;
  }

  /** DELETE of the transfer: its chunks and their reservation are freed. */
  async abort(transfer: TransferRow): Promise<void> {
    const gone = await this.repo.deleteTransfer(transfer.id);
    if (!gone) return;
    await this.drop(transfer.user_id, gone.chunks);
    if (gone.spoolId !== null) await this.dropSpool(gone.spoolId);
  }

  /**
   * MOVE .file: checks the chunks (none missing; their sum is `totalLength`
   * and the MKCOL's total, when given: 400 otherwise), then hands `write` the
   * file's body and its length: the spool, when it holds exactly the chunks
   * in order, or else one stream of them in order. `write` stores the file as
   * a PUT would; when it fails nothing is stored and the transfer stays as it
   * was (the client may retry or DELETE it); when it succeeds the transfer is gone.
   */
  async assemble<T>(transfer: TransferRow, totalLength: number | null, write: (body: Readable | SpooledBody, length: number) => Promise<T>): Promise<T> {
    const chunks = ordered(await this.repo.chunks(transfer.id));
    const sum = bytesOf(chunks);
    if (totalLength !== null && totalLength !== sum) throw badRequest(`OC-Total-Length is ${totalLength} but the chunks hold ${sum} bytes`);
    if (transfer.total_length !== null && transfer.total_length !== sum) throw badRequest(`The upload was announced with ${transfer.total_length} bytes but the chunks hold ${sum}`);
    const spooled = chunks.some((c) => c.spool_offset !== null);
    // The spool may have been made by a chunk's request after this one read the transfer.
    const spoolId = spooled ? (transfer.spool_id ?? (await this.repo.spoolOf(transfer.id))) : transfer.spool_id;
    if (spooled) {
      // A spool its chunks outlived (it expired; a failed assembly committed it): their bytes are missing.
      const held = spoolId === null ? null : await this.uploads.spoolSize(spoolId);
      if (held === null || chunks.some((c) => c.spool_offset !== null && c.spool_offset + c.size > held)) throw badRequest('Chunks are missing: upload them again');
    }
    const uploads = this.uploads;
    async function* bytes(): AsyncGenerator<Buffer> {
      for (const c of chunks) {
        const stream = c.spool_offset === null ? await uploads.readPiece({ key: c.storage_key, size: c.size }) : await uploads.readSpool(spoolId!, c.spool_offset, c.size);
        for await (const b of stream) yield b as Buffer;
      }
    }
    const stream = () => Readable.from(bytes(), { objectMode: false });
    let offset = 0;
    const inOrder = spoolId !== null && chunks.every((c) => {
      const here = c.spool_offset === offset;
      offset += c.size;
      return here;
    });
    const known = inOrder ? this.sums.get(spoolId) : undefined;
    const sha1 = known?.end === sum ? known.sha1.copy().digest('hex') : undefined;
    const body: Readable | SpooledBody = inOrder ? { spoolId, size: sum, sha1, read: stream } : stream();
    // The file's own upload reserves its size: the chunks' reservation is handed over, not counted twice.
    await this.uploads.releasePieces(transfer.user_id, sum);
    let result: T;
    try {
      result = await write(body, sum);
    } catch (err) {
      await this.uploads.holdPieces(transfer.user_id, sum);
      throw err;
    }
    const gone = await this.repo.deleteTransfer(transfer.id);
    if (gone) {
      // A chunk that arrived during the assembly is not in the file and still holds its reservation.
      const assembled = new Set(chunks.map((c) => c.storage_key));
      await this.uploads.dropPieces(transfer.user_id, pieces(gone.chunks.filter((c) => assembled.has(c.storage_key))), false);
      await this.drop(transfer.user_id, gone.chunks.filter((c) => !assembled.has(c.storage_key)));
      // Became the file, or was only read: either way nothing is left of it to keep.
      if (gone.spoolId !== null) await this.dropSpool(gone.spoolId);
    }
    // Deleted meanwhile by an abort, which released the reservation a second time.
    else await this.uploads.holdPieces(transfer.user_id, sum);
    return result;
  }

  private async dropSpool(spoolId: string): Promise<void> {
    this.sums.delete(spoolId);
    await this.uploads.dropSpool(spoolId);
  }

  /** Deletes transfers idle for 24 hours (the jobs runner, hourly and at start). */
  async sweep(now = this.clock.now()): Promise<number> {
    let n = 0;
    for (;;) {
      const idle = await this.repo.idleTransfers(now - TRANSFER_IDLE_MS, 100);
      for (const t of idle) {
        await this.abort(t);
        n++;
      }
      if (idle.length < 100) return n;
    }
  }

  /** Every transfer of a person who is being deleted. */
  async abortAll(userId: string): Promise<void> {
    for (const t of await this.repo.transfersOf(userId)) await this.abort(t);
  }
}
