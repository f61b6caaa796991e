// Local-disk storage under `<dataDir>/files`: `staging/<uploadId>` for uploads
// in progress, `blobs/<2 chars>/<blobId>` for committed bytes. Both live on
// one file system, so commit is fsync + rename + fsync(dir): a blob is either
// absent or complete, never partial.
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { transferred } from '../../ops/heap.js';
import { crc32 } from 'node:zlib';
import { StagingInterrupted, type ByteRange, type StagingState, type StorageDriver } from './driver.js';

/** Large buffers: fewer system calls per gigabyte, for writes and hashing reads. */
const IO_CHUNK = 1024 * 1024;
/**
 * Reads of a download. Each stream holds about three at once (the read in
 * progress, the one read ahead, the one the socket is sending), and a
 * scavenge is asked for every TRANSFER_SCAVENGE_BYTES (8 MiB) of all
 * transfers together (ops/heap.ts). With 1 MiB reads, four parallel streams
 * (rclone's multi-thread download) held about 12 MiB, so a buffer often
 * lived across two scavenges and was promoted, to be freed only by a full
 * collection. 512 KiB keeps what is in flight (4-6 MiB) under the interval
 * at the same CPU per gigabyte (256 KiB kept even less but nearly doubled
 * the CPU of a 1 GiB download: docs/benchmarks.md, session 15).
 */
const READ_CHUNK = 512 * 1024;
const SAFE_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** How often a long append reports durable progress (each report costs an fsync and a database update). */
export const PROGRESS_BYTES = 4 * 1024 * 1024;
/**
 * Without progress reports (a whole-body PUT), how often the bytes written so
 * far are handed to the disk in the background: the kernel writes back while
 * the body still arrives, so the fsync that ends the upload has little left.
 */
const WRITEBACK_BYTES = 32 * 1024 * 1024;

function checkId(id: string): string {
  // Ids come from our own random generator; this guards the file system anyway.
  if (!SAFE_ID.test(id)) throw new Error(`unsafe storage id: ${JSON.stringify(id)}`);
  return id;
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalStorage implements StorageDriver {
  private readonly stagingDir: string;
  private readonly blobDir: string;
  /** The blobs/<2 chars> folders known to exist: one mkdir per folder and process, not per commit. */
  private readonly blobDirs = new Set<string>();

  /** fsync false: only for benchmarks against servers that do not flush (config.ts, CIRRUS_BENCHMARK_NO_FSYNC). */
  constructor(
    root: string,
    private readonly fsync = true,
  ) {
    this.stagingDir = path.join(root, 'staging');
    this.blobDir = path.join(root, 'blobs');
  }

  private async sync(handle: FileHandle): Promise<void> {
    if (this.fsync) await handle.sync();
  }

  async init(): Promise<void> {
    await mkdir(this.stagingDir, { recursive: true });
    await mkdir(this.blobDir, { recursive: true });
    for (const d of await readdir(this.blobDir)) this.blobDirs.add(path.join(this.blobDir, d));
  }

  private stagingPath(uploadId: string): string {
    return path.join(this.stagingDir, checkId(uploadId));
  }

  private blobPath(blobId: string): string {
    return path.join(this.blobDir, checkId(blobId).slice(0, 2), blobId);
  }

  /** The file is made by the first append (a staging area without one holds no bytes): one open and close fewer per upload. */
  async createStaging(uploadId: string): Promise<void> {
    checkId(uploadId);
  }

  async append(uploadId: string, from: StagingState, source: AsyncIterable<Uint8Array>, onDurable?: (state: StagingState) => Promise<void>): Promise<StagingState> {
    // From the start: made now, or cut to nothing (what a crashed append left).
    const handle = await open(this.stagingPath(uploadId), from.offset === 0 ? 'w' : 'r+');
    const state: StagingState = { ...from };
    let reported = from.offset;
    let writtenBack = from.offset;
    let writeback: Promise<unknown> | undefined;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const chunks = pending;
      pending = [];
      pendingBytes = 0;
      await writeAll(handle, chunks, state.offset);
      for (const c of chunks) {
        state.crc32 = crc32(c, state.crc32);
        state.offset += c.length;
      }
    };
    try {
      if (from.offset > 0) await handle.truncate(from.offset);
      try {
        for await (const chunk of source) {
          if (chunk.length === 0) continue;
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= IO_CHUNK || pending.length >= 512) await flush();
          if (onDurable && state.offset - reported >= PROGRESS_BYTES) {
            await this.sync(handle);
            reported = state.offset;
            await onDurable({ ...state });
          } else if (this.fsync && !onDurable && !writeback && state.offset - writtenBack >= WRITEBACK_BYTES) {
            writtenBack = state.offset;
            // Its outcome is not needed: the final sync below reports any failure.
            writeback = handle.datasync().then(
              () => (writeback = undefined),
              () => (writeback = undefined),
            );
          }
        }
      } catch (cause) {
        // What arrived before the failure is kept: a tus client resumes from there.
        await flush();
        await this.sync(handle);
        throw new StagingInterrupted({ ...state }, cause);
      }
      await flush();
      await this.sync(handle);
      return { ...state };
    } finally {
      await writeback;
      await handle.close();
    }
  }

  async commit(uploadId: string, blobId: string, size: number, justWritten = false): Promise<void> {
    const target = this.blobPath(blobId);
    const dir = path.dirname(target);
    if (!this.blobDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.blobDirs.add(dir);
    }
    const staged = this.stagingPath(uploadId);
    if (!justWritten) {
      let handle: FileHandle;
      try {
        handle = await open(staged, 'r+');
      } catch (err) {
        // Renamed already by a commit whose record a crash prevented: the blob is there whole.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await stat(target).catch(() => null))?.size === size) return;
        throw err;
      }
      try {
        // Bytes past the recorded size (a crash between a write and its record) are not part of the file.
        await handle.truncate(size);
        await this.sync(handle);
      } finally {
        await handle.close();
      }
    }
    try {
      await rename(staged, target);
    } catch (err) {
      // The blob folder was removed behind our back (it is made once per process): make it again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(await stat(staged).catch(() => null))) throw err;
      await mkdir(dir, { recursive: true });
      await rename(staged, target);
    }
    if (this.fsync) await fsyncDir(dir);
  }

  async adoptStaging(uploadId: string, localPath: string): Promise<void> {
    await rename(localPath, this.stagingPath(uploadId));
  }

  async deleteStaging(uploadId: string): Promise<void> {
    await rm(this.stagingPath(uploadId), { force: true });
  }

  async listStaging(): Promise<string[]> {
    return (await readdir(this.stagingDir)).filter((name) => SAFE_ID.test(name));
  }

  read(blobId: string, range?: ByteRange): Promise<Readable> {
    return this.readFile(this.blobPath(blobId), range);
  }

  readStaging(uploadId: string, range: ByteRange): Promise<Readable> {
    return this.readFile(this.stagingPath(uploadId), range);
  }

  private async readFile(file: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(file, 'r');
    // An explicit end: without one a read stream asks for highWaterMark bytes
    // per read whatever is left, so a 4 KiB file cost two fresh 1 MiB buffers
    // (the data, then the read that finds the end), 2 MiB of short-lived
    // ArrayBuffer memory per small download.
    const start = range?.start ?? 0;
    let end = range?.end;
    if (end === undefined) {
      try {
        end = (await handle.stat()).size - 1;
      } catch (err) {
        await handle.close();
        throw err;
      }
    }
    if (end < start) {
      await handle.close();
      return Readable.from([]);
    }
    return new FileReader(handle, start, end);
  }

  async deleteBlob(blobId: string): Promise<void> {
    await rm(this.blobPath(blobId), { force: true });
  }

  async check(): Promise<void> {
    await access(this.blobDir, constants.R_OK | constants.W_OK);
    await access(this.stagingDir, constants.R_OK | constants.W_OK);
  }
}

async function writeAll(handle: FileHandle, chunks: Uint8Array[], position: number): Promise<void> {
  let rest = chunks;
  let pos = position;
  while (rest.length > 0) {
    const total = rest.reduce((n, c) => n + c.length, 0);
    const { bytesWritten } = await handle.writev(rest, pos);
    if (bytesWritten === total) return;
    // Short write: skip what was written and go on with the remainder.
    pos += bytesWritten;
    let skip = bytesWritten;
    const next: Uint8Array[] = [];
    for (const c of rest) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      next.push(skip > 0 ? c.subarray(skip) : c);
      skip = 0;
    }
    rest = next;
  }
}

/**
 * Bytes start..end (inclusive) of an open file, in reads of up to READ_CHUNK,
 * one read ahead like a file read stream. Each read is a fresh buffer and is
 * counted as transferred() when it arrives (ops/heap.ts), so the dead ones
 * are collected as the transfer goes. Reading here rather than through a
 * file read stream and a counting pass-through leaves one stage fewer
 * holding a buffer: each buffer lives a shorter time, and fewer survive two
 * scavenges and are promoted, which only a full collection frees (rclone's
 * four-stream downloads had up to 78 MB of such buffers waiting; issue 19).
 */
class FileReader extends Readable {
  private position: number;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: Math.min(READ_CHUNK, end - start + 1) });
    this.position = start;
  }

  override _read(): void {
    const size = Math.min(READ_CHUNK, this.end - this.position + 1);
    if (size <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(size);
    this.handle.read(buffer, 0, size, this.position).then(
      ({ bytesRead }) => {
        if (this.destroyed) return;
        // A file shorter than the range (truncated meanwhile): the stream ends there, as a read stream's would.
        if (bytesRead === 0) {
          this.push(null);
          return;
        }
        this.position += bytesRead;
        transferred(bytesRead);
        this.push(bytesRead === size ? buffer : buffer.subarray(0, bytesRead));
      },
      (err: Error) => this.destroy(err),
    );
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.handle.close().then(
      () => done(err),
      (closeErr: Error) => done(err ?? closeErr),
    );
  }
}
