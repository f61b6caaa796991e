// Image thumbnails for the web app's grid (GET /api/v4/file/thumb): made with
// sharp, cached on disk by blob and size (a new version of the file is a new
// blob, so the cache never serves a stale picture), with a pixel limit
// against decompression bombs and a cap on the source size.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest, DomainError, ErrorCode } from '../core/errors.js';
import { FILE } from './repository.js';
import type { FilesService } from './service.js';

/** Sizes served; a request is rounded up to the next one (bounded cache). */
export const THUMB_SIZES = [64, 128, 256, 512, 1024] as const;
/** Sources larger than this are not decoded (memory and time). */
export const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
/** Decoded pixels at most (a 1×1 PNG can claim 100,000×100,000). */
export const MAX_INPUT_PIXELS = 50_000_000;
const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/bmp']);

export interface Thumbnail {
  body: Buffer;
  etag: string;
}

export class Thumbnails {
  constructor(
    private readonly files: FilesService,
    private readonly cacheDir: string,
  ) {}

  async get(ownerId: string, filePath: string, requested: number): Promise<Thumbnail> {
    const entry = await this.files.resolve(ownerId, filePath);
    if (entry.row.kind !== FILE) throw badRequest('path: is a folder, not an image');
    if (!entry.row.mime_type || !RASTER.has(entry.row.mime_type)) throw badRequest('path: is not an image with a thumbnail (JPEG, PNG, WebP, GIF, AVIF, TIFF, BMP)');
    if (entry.row.size > MAX_SOURCE_BYTES) throw new DomainError(ErrorCode.TooLarge, `path: images over ${MAX_SOURCE_BYTES / 1024 / 1024} MiB get no thumbnail`);
    if (!entry.row.blob_id || entry.row.size === 0) throw badRequest('path: the file is empty');
    const size = THUMB_SIZES.find((s) => s >= requested) ?? THUMB_SIZES[THUMB_SIZES.length - 1];
    const etag = `"${entry.row.blob_id}-${size}"`;
    const cached = path.join(this.cacheDir, `${entry.row.blob_id}-${size}.webp`);
    try {
      return { body: await readFile(cached), etag };
    } catch {
      // not cached yet
    }
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
    await mkdir(this.cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, cached);
    return { body, etag };
  }
}
