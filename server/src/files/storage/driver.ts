// The one interface between the file service and where bytes live. Blobs are
// immutable and addressed by an id the service chooses; staging areas hold the
// bytes of uploads in progress. Implementations: local disk (local.ts) and
// S3-compatible object stores (s3.ts: staging is a multipart upload on the
// blob's key, commit is CompleteMultipartUpload, ranged reads are GetObject
// with a Range header). Both pass one conformance suite (server/test/storage).
import type { Readable } from 'node:stream';
import type { ThumbCache } from '../thumb-cache.js';

/** Progress of a staging area: its durable size and the CRC-32 of those bytes. */
export interface StagingState {
  offset: number;
  crc32: number;
}

/** The source failed midway; `state` is what was made durable before it did. */
export class StagingInterrupted extends Error {
  constructor(
    readonly state: StagingState,
    override readonly cause: unknown,
  ) {
    super('upload interrupted');
    this.name = 'StagingInterrupted';
  }
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface StorageDriver {
  /** Releases connections and timers the driver holds (the S3 client's sockets), at shutdown. */
  destroy?(): void;
  /** Creates an empty staging area whose bytes will become the blob `blobId` (a store may make it only at the first append). */
  createStaging(uploadId: string, blobId: string): Promise<void>;
  /**
   * Appends `source` to a staging area whose durable state is `from` (bytes
   * past `from.offset`, left by a crash, are discarded first). Resolves with
   * the new durable state; when the source fails, what was received is made
   * durable and StagingInterrupted is thrown. `onDurable`, when given, is
   * called with intermediate durable states during a long append (the
   * caller records them, so a crash midway loses at most the bytes since);
   * if it rejects, the append stops as if the source had failed.
   */
  append(uploadId: string, from: StagingState, source: AsyncIterable<Uint8Array>, onDurable?: (state: StagingState) => Promise<void>): Promise<StagingState>;
  /**
   * Makes a complete staging area of `size` durable bytes the blob `blobId`,
   * durably and atomically. Idempotent: after a crash between a commit and
   * its record in the database, committing again resolves when the blob is
   * already there whole. `justWritten`: the caller's own append just
   * returned exactly `size` durable bytes and it has held the upload's lock
   * since, so nothing lies past them (a local disk then skips reopening the
   * file to cut and flush it).
   */
  commit(uploadId: string, blobId: string, size: number, justWritten?: boolean): Promise<void>;
  /**
   * Reads a byte range of a staging area (only durable bytes: the caller knows
   * them from what append resolved with). Optional: a store that has it can
   * keep the chunks of a chunked upload in one staging area (files/uploads.ts, spools).
   */
  readStaging?(uploadId: string, range: ByteRange): Promise<Readable>;
  /** Moves a local file into a new staging area (server-side import). */
  adoptStaging(uploadId: string, localPath: string): Promise<void>;
  /** Idempotent. */
  deleteStaging(uploadId: string): Promise<void>;
  /** Ids of every staging area present, for the sweeper. */
  listStaging(): Promise<string[]>;
  /** Opens a blob (or a byte range of it) for reading; rejects when it is missing. */
  read(blobId: string, range?: ByteRange): Promise<Readable>;
  /** Idempotent. */
  deleteBlob(blobId: string): Promise<void>;
  /**
   * A URL that serves the blob straight from the store with these response
   * headers, or null when the driver serves bytes only through Cirrus.
   */
  downloadUrl?(blobId: string, headers: { contentDisposition: string; contentType: string }): Promise<string | null>;
  /** Rejects when the store cannot be used (health). */
  check(): Promise<void>;
  /** Where thumbnails are kept when the store keeps them itself (S3: in the bucket, shared by every instance); otherwise on local disk. */
  thumbCache?(): ThumbCache;
}
