// Local-disk storage under `<dataDir>/files`: `staging/<uploadId>` for uploads
// in progress, `blobs/<2 chars>/<blobId>` for committed bytes. Both live on
// one file system, so commit is fsync + rename + fsync(dir): a blob is either
// absent or complete, never partial.
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { StagingInterrupted, type ByteRange, type StagingState, type StorageDriver } from './driver.js';

/** Large buffers: fewer system calls per gigabyte, for reads and writes alike. */
const IO_CHUNK = 1024 * 1024;
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

/**
 * Write buffers shared by every append in the process: a busy server reuses
 * a few megabytes instead of allocating (and later collecting) a fresh one
 * per upload. At most POOL_KEEP wait here between uploads.
 */
const freeBuffers: Buffer[] = [];
const POOL_KEEP = 8;

function takeBuffer(): Buffer {
  return freeBuffers.pop() ?? Buffer.allocUnsafeSlow(IO_CHUNK);
}

function giveBuffer(buf: Buffer): void {
  if (freeBuffers.length < POOL_KEEP) freeBuffers.push(buf);
}

export class LocalStorage implements StorageDriver {
  private readonly stagingDir: string;
  private readonly blobDir: string;

  constructor(root: string) {
    this.stagingDir = path.join(root, 'staging');
    this.blobDir = path.join(root, 'blobs');
  }

  async init(): Promise<void> {
    await mkdir(this.stagingDir, { recursive: true });
    await mkdir(this.blobDir, { recursive: true });
  }

  private stagingPath(uploadId: string): string {
    return path.join(this.stagingDir, checkId(uploadId));
  }

  private blobPath(blobId: string): string {
    return path.join(this.blobDir, checkId(blobId).slice(0, 2), blobId);
  }

  async createStaging(uploadId: string): Promise<void> {
    const handle = await open(this.stagingPath(uploadId), 'wx');
    await handle.close();
  }

  async append(uploadId: string, from: StagingState, source: AsyncIterable<Uint8Array>, onDurable?: (state: StagingState) => Promise<void>): Promise<StagingState> {
    const handle = await open(this.stagingPath(uploadId), 'r+');
    const state: StagingState = { ...from };
    let reported = from.offset;
    let writtenBack = from.offset;
    let writeback: Promise<unknown> | undefined;
    // Arriving chunks are copied into one of two pooled buffers and dropped at
    // once, so they die young (a scavenge frees them) instead of living
    // through a write and being promoted; the other buffer is on its way to
    // the disk meanwhile. state.offset counts only bytes whose write finished.
    const buffers: Buffer[] = [];
    let current: Buffer | undefined;
    let filled = 0;
    let queued = from.offset;
    let writing: Promise<void> | undefined;
    // A failed write is kept here (its promise never rejects, so no rejection goes unhandled while a chunk is awaited).
    let writeFailure: { cause: unknown } | undefined;
    /** Waits for the write in flight; throws its failure, then and at every later call. */
    const settle = async () => {
      const w = writing;
      writing = undefined;
      await w;
      if (writeFailure) throw writeFailure.cause;
    };
    const flush = async () => {
      if (!current || filled === 0) return;
      // One write at a time: the buffer the previous write used becomes free.
      await settle();
      const buf = current;
      const len = filled;
      const at = queued;
      queued += len;
      current = buffers.find((b) => b !== buf);
      if (!current) buffers.push((current = takeBuffer()));
      filled = 0;
      writing = writeAll(handle, [buf.subarray(0, len)], at).then(
        () => {
          state.crc32 = crc32(buf.subarray(0, len), state.crc32);
          state.offset += len;
        },
        (cause: unknown) => {
          writeFailure = { cause };
        },
      );
    };
    try {
      await handle.truncate(from.offset);
      try {
        for await (const chunk of source) {
          for (let used = 0; used < chunk.length; ) {
            if (!current) buffers.push((current = takeBuffer()));
            const n = Math.min(chunk.length - used, current.length - filled);
            current.set(n === chunk.length ? chunk : chunk.subarray(used, used + n), filled);
            filled += n;
            used += n;
            if (filled === current.length) await flush();
          }
          if (onDurable && queued - reported >= PROGRESS_BYTES) {
            await settle();
            await handle.sync();
            reported = state.offset;
            await onDurable({ ...state });
          } else if (!onDurable && !writeback && queued - writtenBack >= WRITEBACK_BYTES) {
            writtenBack = queued;
            // Its outcome is not needed: the final sync below reports any failure.
            writeback = handle.datasync().then(
              () => (writeback = undefined),
              () => (writeback = undefined),
            );
          }
        }
      } catch (cause) {
        // What arrived before the failure is kept: a tus client resumes from there.
        try {
          await flush();
          await settle();
        } catch {
          // The write failed (the cause above may be that failure): the state stops at the last whole write.
        }
        await handle.sync();
        throw new StagingInterrupted({ ...state }, cause);
      }
      await flush();
      await settle();
      await handle.sync();
      return { ...state };
    } finally {
      await writing;
      await writeback;
      await handle.close();
      for (const b of buffers) giveBuffer(b);
    }
  }

  async commit(uploadId: string, blobId: string, size: number): Promise<void> {
    const target = this.blobPath(blobId);
    await mkdir(path.dirname(target), { recursive: true });
    const staged = this.stagingPath(uploadId);
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
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(staged, target);
    await fsyncDir(path.dirname(target));
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

  async read(blobId: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(this.blobPath(blobId), 'r');
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
    return handle.createReadStream({ start, end, highWaterMark: Math.min(IO_CHUNK, end - start + 1), autoClose: true });
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
