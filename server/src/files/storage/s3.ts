// S3-compatible storage (api-contract §9): blobs are objects `blobs/<id>`;
// an upload in progress is a multipart upload on its blob's key plus small
// objects under `staging/<uploadId>/`. Parts have one fixed size, so the
// durable offset alone (kept in the database by the caller) says which parts
// are complete: part n holds bytes [(n-1)·P, n·P), and the bytes of the
// unfinished part are kept as the object `tail-<offset>`. Any instance can
// therefore continue an upload another instance started, with nothing on its
// local disk, and memory stays at one or two parts per upload whatever the
// file size. The blob key appears only at CompleteMultipartUpload: a failed
// or abandoned upload never leaves a visible file.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import { countTransferred } from '../../ops/heap.js';
import { crc32 } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StagingInterrupted, type ByteRange, type StagingState, type StorageDriver } from './driver.js';
import { checkThumbName, type ThumbCache } from '../thumb-cache.js';
import { DomainError, ErrorCode } from '../../core/errors.js';

export interface S3Options {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Answer downloads with a presigned URL of the store (CIRRUS_S3_PRESIGNED_DOWNLOADS). */
  presignedDownloads?: boolean;
  /** Size of every part but the last (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts of one upload sent at once (memory: one more part than this per upload). */
  partsInFlight?: number;
}

const DEFAULT_PART = 8 * 1024 * 1024;
const DEFAULT_IN_FLIGHT = 2;
const PRESIGNED_TTL_S = 300;
const SAFE_ID = /^[A-Za-z0-9_-]{8,64}$/;

function checkId(id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`unsafe storage id: ${JSON.stringify(id)}`);
  return id;
}

interface Marker {
  key: string;
  mpu: string;
}

/** An S3 error by name or HTTP status, whatever the SDK version wraps it in. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.name === 'NoSuchUpload' || e?.$metadata?.httpStatusCode === 404;
}

/** Operations a minimal S3 server (s3rver) does not implement; real S3 does. */
function isUnsupported(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotImplemented' || e?.name === 'MethodNotAllowed' || e?.$metadata?.httpStatusCode === 405 || e?.$metadata?.httpStatusCode === 501;
}

/** How much of an object a download reads ahead of its client. */
const READ_AHEAD = 1024 * 1024;

/**
 * The store's answer with a read-ahead buffer: the store's socket keeps
 * flowing while the client's drains, instead of pausing every 16 KiB (the
 * response stream's own buffer) whenever the client is a little behind.
 */
function ahead(body: Readable): Readable {
  // Counted: every piece of the store's answer is a fresh buffer (ops/heap.ts).
  const buffer = countTransferred({ highWaterMark: READ_AHEAD });
  pipeline(body, buffer, () => undefined);
  return buffer;
}

export class S3Storage implements StorageDriver {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly inFlight: number;
  private readonly presigned: boolean;
  /** Markers are immutable once written: cached per process. */
  private readonly markers = new Map<string, Marker>();

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.partSize = options.partSize ?? DEFAULT_PART;
    this.inFlight = Math.max(1, options.partsInFlight ?? DEFAULT_IN_FLIGHT);
    this.presigned = options.presignedDownloads === true;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // One failed request is retried by the SDK; a dead server fails in seconds, not minutes.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
      // Checksums of streamed bodies would need a second pass (or trailers s3rver lacks).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // Outermost (after the SDK's retries): a store that does not answer at all
    // is told to the client as such (503, try later) rather than as an internal error.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          throw unreachable(err) ?? err;
        }
      },
      { step: 'initialize', name: 'cirrusStoreUnreachable' },
    );
  }

  blobKey(blobId: string): string {
    return `blobs/${checkId(blobId)}`;
  }

  private prefix(uploadId: string): string {
    return `staging/${checkId(uploadId)}/`;
  }

  private tailKey(uploadId: string, offset: number): string {
    return `${this.prefix(uploadId)}tail-${offset}`;
  }

  private etagKey(uploadId: string, part: number): string {
    return `${this.prefix(uploadId)}part-${String(part).padStart(5, '0')}`;
  }

  /** Answers when the bucket is reachable (health). */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async createStaging(uploadId: string, blobId: string): Promise<void> {
    const key = this.blobKey(blobId);
    const res = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    const marker: Marker = { key, mpu: res.UploadId! };
    await this.put(`${this.prefix(uploadId)}marker`, Buffer.from(JSON.stringify(marker)));
    this.markers.set(uploadId, marker);
  }

  private async marker(uploadId: string): Promise<Marker | undefined> {
    const cached = this.markers.get(uploadId);
    if (cached) return cached;
    try {
      const marker = JSON.parse((await this.getBytes(`${this.prefix(uploadId)}marker`)).toString('utf8')) as Marker;
      this.markers.set(uploadId, marker);
      return marker;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  private async put(key: string, body: Buffer): Promise<string | undefined> {
    const res = await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length }));
    return res.ETag;
  }

  private async getBytes(key: string, range?: string): Promise<Buffer> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
    return Buffer.from(await res.Body!.transformToByteArray());
  }

  private async list(prefix: string, delimiter?: string): Promise<{ keys: string[]; prefixes: string[] }> {
    const keys: string[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }));
      for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key);
      for (const p of res.CommonPrefixes ?? []) if (p.Prefix) prefixes.push(p.Prefix);
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return { keys, prefixes };
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    // DeleteObjects takes at most 1,000 keys a request.
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw new Error(`S3 could not delete ${failed.length} object(s): ${failed[0]!.Code ?? 'error'}`);
    }
  }

  async append(uploadId: string, from: StagingState, source: AsyncIterable<Uint8Array>, onDurable?: (state: StagingState) => Promise<void>): Promise<StagingState> {
    const marker = await this.marker(uploadId);
    if (!marker) throw new Error('staging area missing');
    const P = this.partSize;
    const state: StagingState = { ...from };
    // Whatever lies past the durable offset (a crash between a write and its
    // record) is discarded: stale tails and the ETags of parts that will be rewritten.
    const firstPart = Math.floor(from.offset / P) + 1;
    const stale = (await this.list(this.prefix(uploadId))).keys.filter((k) => {
      const name = k.slice(this.prefix(uploadId).length);
      if (name.startsWith('tail-')) return name !== `tail-${from.offset}`;
      if (name.startsWith('part-')) return Number(name.slice(5)) >= firstPart;
      return false;
    });
    if (stale.length) await this.deleteKeys(stale);

    // Bytes are copied, as they arrive, into part-sized buffers that are
    // reused: what the socket hands over dies young (a scavenge frees it),
    // and no part's memory waits for a full collection to be returned.
    // Up to `inFlight` parts upload at once while the next one fills, so
    // memory stays at (inFlight + 1) parts whatever the file size.
    const pool: Buffer[] = [];
    let part: Buffer = Buffer.allocUnsafeSlow(P);
    let fill = 0;
    if (from.offset % P !== 0) {
      const tail = await this.getBytes(this.tailKey(uploadId, from.offset));
      if (tail.length !== from.offset % P) throw new Error('staging tail does not match the recorded offset');
      fill = tail.copy(part, 0);
    }
    let partNumber = Math.floor(from.offset / P) + 1;
    const pending = new Map<number, Promise<void>>();
    // Parts finish in any order; an offset is durable once every part before it is stored.
    const finished = new Map<number, number>();
    let durableParts = partNumber - 1;
    let records: Promise<void> = Promise.resolve();
    // A failure to record progress (the caller lost its lock) stops the append like a failed source.
    let recordFailure: unknown = null;
    // A failure of the store stops it too, and is what the caller sees.
    let storeFailure: unknown = null;
    const flushPart = (bytes: Buffer, length: number, n: number, crcAtEnd: number) => {
      const upload = async () => {
        const res = await this.client.send(
          new UploadPartCommand({ Bucket: this.bucket, Key: marker.key, UploadId: marker.mpu, PartNumber: n, Body: bytes.subarray(0, length), ContentLength: length }),
        );
        await this.put(this.etagKey(uploadId, n), Buffer.from(res.ETag ?? ''));
      };
      const done = upload().then(
        () => {
          pending.delete(n);
          // The buffer is free again (the request is answered, so nothing still reads it).
          pool.push(bytes);
          finished.set(n, crcAtEnd);
          let crc: number | undefined;
          while (finished.has(durableParts + 1)) {
            durableParts++;
            crc = finished.get(durableParts);
            finished.delete(durableParts);
          }
          // Parts 1..k are stored: a resume from k * P needs no tail, so that offset is durable.
          if (crc !== undefined && onDurable) {
            const durable = { offset: durableParts * P, crc32: crc };
            records = records.then(() => onDurable(durable)).catch((err: unknown) => void (recordFailure ??= err));
          }
        },
        (err: unknown) => {
          // A failed request's buffer is not reused: the append stops.
          pending.delete(n);
          storeFailure ??= err;
        },
      );
      pending.set(n, done);
    };
    const settle = async () => {
      await Promise.all(pending.values());
      await records;
      if (storeFailure !== null) throw storeFailure;
    };
    let received = 0;
    const writeTail = async () => {
      const offset = from.offset + received;
      if (fill > 0) await this.put(this.tailKey(uploadId, offset), part.subarray(0, fill));
      return offset;
    };
    try {
      for await (const chunk of source) {
        if (chunk.length === 0) continue;
        if (recordFailure !== null) throw recordFailure;
        if (storeFailure !== null) break;
        received += chunk.length;
        let at = 0;
        while (at < chunk.length) {
          const take = Math.min(P - fill, chunk.length - at);
          const slice = chunk.subarray(at, at + take);
          // CRC slice by slice, so its value at each part boundary is known (the durable state of that part).
          state.crc32 = crc32(slice, state.crc32);
          part.set(slice, fill);
          fill += take;
          at += take;
          if (fill === P) {
            flushPart(part, P, partNumber++, state.crc32);
            fill = 0;
            while (pending.size >= this.inFlight && storeFailure === null) await Promise.race(pending.values());
            part = pool.pop() ?? Buffer.allocUnsafeSlow(P);
          }
        }
      }
    } catch (cause) {
      // What arrived is kept: complete parts are uploaded, the rest becomes the
      // tail. A store failure here propagates instead, and nothing past `from` counts.
      await settle();
      state.offset = await writeTail();
      throw new StagingInterrupted({ ...state }, cause);
    }
    await settle();
    if (recordFailure !== null) {
      state.offset = await writeTail();
      throw new StagingInterrupted({ ...state }, recordFailure);
    }
    state.offset = await writeTail();
    return { ...state };
  }

  /** True when the blob exists with `size` bytes (a commit a crash kept from being recorded). */
  private async blobIsWhole(blobId: string, size: number): Promise<boolean> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.blobKey(blobId) }));
      return res.ContentLength === size;
    } catch (err) {
      if (isMissing(err) || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw err;
    }
  }

  async commit(uploadId: string, blobId: string, size: number): Promise<void> {
    const marker = await this.marker(uploadId);
    if (!marker && (await this.blobIsWhole(blobId, size))) return;
    if (!marker || marker.key !== this.blobKey(blobId)) throw new Error('staging area missing');
    if (await this.blobIsWhole(blobId, size)) {
      // Completed before a crash; only the staging objects are left to delete.
      await this.deleteKeys((await this.list(this.prefix(uploadId))).keys);
      this.markers.delete(uploadId);
      return;
    }
    const P = this.partSize;
    const full = Math.floor(size / P);
    const etags = new Map<number, string>();
    if (size % P !== 0) {
      const tail = await this.getBytes(this.tailKey(uploadId, size));
      const res = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: marker.key, UploadId: marker.mpu, PartNumber: full + 1, Body: tail, ContentLength: tail.length }),
      );
      etags.set(full + 1, res.ETag ?? '');
    }
    const keys = (await this.list(this.prefix(uploadId))).keys;
    await Promise.all(
      keys
        .filter((k) => /\/part-\d+$/.test(k))
        .map(async (k) => {
          const n = Number(k.slice(k.lastIndexOf('-') + 1));
          if (n <= full) etags.set(n, (await this.getBytes(k)).toString('utf8'));
        }),
    );
    const parts = [];
    for (let n = 1; n <= etags.size; n++) {
      const tag = etags.get(n);
      if (tag === undefined) throw new Error(`staging part ${n} missing`);
      parts.push({ PartNumber: n, ETag: tag });
    }
    await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: marker.key, UploadId: marker.mpu, MultipartUpload: { Parts: parts } }));
    // The blob is complete; the staging objects are garbage now.
    await this.deleteKeys(keys);
    this.markers.delete(uploadId);
  }

  async adoptStaging(uploadId: string, localPath: string): Promise<void> {
    const source = createReadStream(localPath, { highWaterMark: 1024 * 1024 });
    await this.append(uploadId, { offset: 0, crc32: 0 }, source);
    await rm(localPath, { force: true });
  }

  async deleteStaging(uploadId: string): Promise<void> {
    const marker = await this.marker(uploadId);
    if (marker) {
      try {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: marker.key, UploadId: marker.mpu }));
      } catch (err) {
        // Gone already, or a server without aborts (s3rver): a lifecycle rule reclaims parts there.
        if (!isMissing(err) && !isUnsupported(err)) throw err;
      }
    }
    const keys = (await this.list(this.prefix(uploadId))).keys;
    // The marker goes last: until it is gone, a retry can still abort the parts.
    const rest = keys.filter((k) => !k.endsWith('/marker'));
    if (rest.length) await this.deleteKeys(rest);
    if (keys.length !== rest.length) await this.deleteKeys(keys.filter((k) => k.endsWith('/marker')));
    this.markers.delete(uploadId);
  }

  async listStaging(): Promise<string[]> {
    const { prefixes } = await this.list('staging/', '/');
    return prefixes.map((p) => p.slice('staging/'.length, -1)).filter((id) => SAFE_ID.test(id));
  }

  async read(blobId: string, range?: ByteRange): Promise<Readable> {
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: this.blobKey(blobId), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    const body = ahead(res.Body as Readable);
    // Some S3 servers answer `bytes=0-0` with the whole object (s3rver reads
    // the 0 as "no end"); a ranged read never yields more than it asked for.
    if (!range) return body;
    const limited = limitTo(range.end - range.start + 1);
    // pipeline passes a failure of either side to the other (and destroys both).
    pipeline(body, limited, () => undefined);
    return limited;
  }

  async deleteBlob(blobId: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.blobKey(blobId) }));
  }

  /** Deletes many blobs in batched requests (1,000 keys each). */
  async deleteBlobs(blobIds: readonly string[]): Promise<void> {
    await this.deleteKeys(blobIds.map((id) => this.blobKey(id)));
  }

  /**
   * A presigned GET of the blob, valid for 5 minutes: long enough to start a
   * download (S3 checks the expiry when the request starts, not when it ends),
   * short enough that a leaked link dies soon. Authorization happened before.
   */
  async downloadUrl(blobId: string, headers: { contentDisposition: string; contentType: string }): Promise<string | null> {
    if (!this.presigned) return null;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.blobKey(blobId),
      ResponseContentDisposition: headers.contentDisposition,
      ResponseContentType: headers.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: PRESIGNED_TTL_S });
  }

  /** Thumbnails as objects under `thumbs/` in the bucket: made once for every instance that shares it. */
  thumbCache(): ThumbCache {
    const key = (name: string) => `thumbs/${checkThumbName(name)}`;
    return {
      get: async (name) => {
        try {
          return await this.getBytes(key(name));
        } catch (err) {
          if (isMissing(err)) return null;
          throw err;
        }
      },
      put: async (name, body) => {
        await this.put(key(name), body);
      },
      delete: (names) => this.deleteKeys(names.map(key)),
    };
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** Passes on the first `length` bytes and drops the rest. */
function limitTo(length: number): Transform {
  let left = length;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (left <= 0) return done();
      const part = chunk.length <= left ? chunk : chunk.subarray(0, left);
      left -= part.length;
      done(null, part);
    },
  });
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** A DomainError for a request the store never answered (no HTTP status), else undefined. */
function unreachable(err: unknown): DomainError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
  if (e.$metadata?.httpStatusCode !== undefined) return undefined;
  if (!(NETWORK_CODES.has(e.code ?? '') || e.name === 'TimeoutError')) return undefined;
  return new DomainError(ErrorCode.Internal, 'The file store is unavailable; try again later', { kind: 'unavailable', retryAfterSeconds: 5, detail: `${e.name}: ${e.message}` });
}
