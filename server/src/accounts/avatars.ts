// People's avatars: an uploaded picture is cropped to the centred square,
// resized to 256 pixels and stored as WebP in the database (user_avatars),
// whatever the file storage is, so every instance serves the same picture.
// users.avatar_at is its version: the user view's avatar_url carries it, so
// browsers may cache a version for good and a new upload is a new URL.
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import type { AvatarRepository } from './avatar-repository.js';
import type { UserCache } from './user-cache.js';
import type { Clock } from '../core/clock.js';

export const AVATAR_SIZE = 256;
/** Upload size cap: a phone photo fits; the picture is decoded only up to the pixel cap below. */
export const MAX_AVATAR_BYTES = 10 * 1024 * 1024;
/** Decoded pixels at most (a small file can claim a huge canvas: decompression bomb). */
export const MAX_AVATAR_PIXELS = 40_000_000;
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

export function avatarPath(userId: string, version: number): string {
  return `/api/v4/user/avatar/${encodeURIComponent(userId)}?v=${version}`;
}

export class Avatars {
  constructor(
    private readonly repo: AvatarRepository,
    private readonly cache: UserCache,
    private readonly clock: Clock,
  ) {}

  async set(userId: string, upload: Buffer): Promise<number> {
    // sharp (libvips) is loaded on first use, as for thumbnails: it adds
    // tens of MB to every process, and most never see an avatar upload.
    const { default: sharp } = await import('sharp');
    let image: Buffer;
    try {
      image = await sharp(upload, { limitInputPixels: MAX_AVATAR_PIXELS, animated: false })
        .rotate() // follow the EXIF orientation of phone photos
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
        .webp({ quality: 82 })
        .toBuffer();
    } catch (err) {
      const tooBig = err instanceof Error && /pixel limit/i.test(err.message);
      throw new DomainError(tooBig ? ErrorCode.TooLarge : ErrorCode.ParamError, tooBig ? 'The picture has too many pixels' : 'The file cannot be read as a picture (JPEG, PNG, WebP, GIF or AVIF)');
    }
    // Milliseconds, but never the same version twice for one person (two uploads in one ms).
    const previous = await this.repo.version(userId);
    const now = Math.max(this.clock.now(), (previous ?? 0) + 1);
    await this.repo.replace(userId, image, now);
    this.cache.invalidate(userId);
    return now;
  }

  async remove(userId: string): Promise<void> {
    await this.repo.remove(userId);
    this.cache.invalidate(userId);
  }

  async get(userId: string): Promise<{ image: Buffer; updatedAt: number }> {
    // A public path: like signed and share links, it serves nothing of a banned person (issue 19).
    if ((await this.cache.get(userId))?.active !== true) throw notFound('No avatar');
    const found = await this.repo.get(userId);
    if (!found) throw notFound('No avatar');
    return found;
  }
}
