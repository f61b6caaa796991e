// Thumbnails for the web app's grid (GET /api/v4/file/thumb): made with
// sharp, cached by blob and size (thumb-cache.ts: on disk, or in the S3 bucket) (a new version of the file is a new
// blob, so the cache never serves a stale picture), with a pixel limit
// against decompression bombs and a cap on the source size. Raster pictures
// are made from the original here; videos, PDFs, HEIC and songs from the
// source picture media/ makes once per blob in a bounded child process
// (ThumbSourcePort): while it is being made the answer is "pending" (202).
import { badRequest, DomainError, ErrorCode } from '../core/errors.js';
import { FILE } from './repository.js';
import type { FilesService } from './service.js';
import type { ThumbCache } from './thumb-cache.js';

/** Sizes served; a request is rounded up to the next one (bounded cache). */
export const THUMB_SIZES = [64, 128, 256, 512, 1024] as const;
/** Sources larger than this are not decoded (memory and time). */
export const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
/** Decoded pixels at most (a 1×1 PNG can claim 100,000×100,000). */
export const MAX_INPUT_PIXELS = 50_000_000;
const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/bmp']);

export type Thumbnail = { body: Buffer; etag: string } | { pending: true; retryAfterSeconds: number };

/** What thumbnails need from media/ (MediaService satisfies it). */
export interface ThumbSourcePort {
  handles(mime: string | null): boolean;
  thumbSource(blobId: string, mime: string | null): Promise<{ state: 'ready'; webp: Buffer } | { state: 'pending' } | { state: 'none'; reason: string }>;
}

export class Thumbnails {
  private sources: ThumbSourcePort | null = null;

  constructor(
    private readonly files: FilesService,
    private readonly cache: ThumbCache,
  ) {}

  /** Set once at start-up by media/; without it only raster pictures have thumbnails. */
  useSources(port: ThumbSourcePort): void {
    this.sources = port;
  }

  async get(ownerId: string, filePath: string, requested: number): Promise<Thumbnail> {
    const entry = await this.files.resolve(ownerId, filePath);
    if (entry.row.kind !== FILE) throw badRequest('path: is a folder, not an image');
    if (this.sources?.handles(entry.row.mime_type) && entry.row.blob_id && entry.row.size > 0) return this.fromSource(entry.row.blob_id, entry.row.mime_type, requested);
    if (!entry.row.mime_type || !RASTER.has(entry.row.mime_type)) throw badRequest('path: is not a file with a thumbnail (pictures, videos, PDF, songs with cover art)');
    if (entry.row.size > MAX_SOURCE_BYTES) throw new DomainError(ErrorCode.TooLarge, `path: images over ${MAX_SOURCE_BYTES / 1024 / 1024} MiB get no thumbnail`);
    if (!entry.row.blob_id || entry.row.size === 0) throw badRequest('path: the file is empty');
    const size = THUMB_SIZES.find((s) => s >= requested) ?? THUMB_SIZES[THUMB_SIZES.length - 1];
    const etag = `"${entry.row.blob_id}-${size}"`;
    const cached = `${entry.row.blob_id}-${size}.webp`;
    const hit = await this.cache.get(cached);
    if (hit) return { body: hit, etag };
    const chunks: Buffer[] = [];
    for await (const chunk of await this.files.openRead(entry)) chunks.push(chunk as Buffer);
    let body: Buffer;
    try {
      // Loaded on the first thumbnail, not at start-up: libvips costs memory every instance pays otherwise.
      const { default: sharp } = await import('sharp');
      body = await sharp(Buffer.concat(chunks), { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
        .rotate()
        .resize(size, size, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 76 })
        .toBuffer();
    } catch (err) {
      const tooBig = err instanceof Error && /pixel limit/i.test(err.message);
      throw new DomainError(tooBig ? ErrorCode.TooLarge : ErrorCode.ParamError, tooBig ? 'path: the image has too many pixels for a thumbnail' : 'path: cannot be read as an image', {
        detail: err instanceof Error ? err.message : String(err),
      });
    }
    await this.cache.put(cached, body);
    return { body, etag };
  }

  private async fromSource(blobId: string, mime: string | null, requested: number): Promise<Thumbnail> {
    const size = THUMB_SIZES.find((s) => s >= requested) ?? THUMB_SIZES[THUMB_SIZES.length - 1];
    const etag = `"${blobId}-${size}"`;
    const cached = `${blobId}-${size}.webp`;
    const hit = await this.cache.get(cached);
    if (hit) return { body: hit, etag };
    const source = await this.sources!.thumbSource(blobId, mime);
    if (source.state === 'pending') return { pending: true, retryAfterSeconds: 2 };
    // Nothing to show is not an error for the person: 404, and the web app shows the type's icon.
    if (source.state === 'none') throw new DomainError(ErrorCode.NotFound, `path: has no thumbnail (${source.reason})`);
    const { default: sharp } = await import('sharp');
    // The source is ours, already at most 1024 on its longer side.
    const body = await sharp(source.webp, { limitInputPixels: MAX_INPUT_PIXELS }).resize(size, size, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 76 }).toBuffer();
    await this.cache.put(cached, body);
    return { body, etag };
  }
}
