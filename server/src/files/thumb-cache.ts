// Where made thumbnails are kept, by name (`<blob>-<size>.webp`,
// `<blob>-src.webp`): a folder of the data directory with local storage, the
// bucket itself with S3 (storage/s3.ts), so every instance sharing the bucket
// shares the thumbnails and none makes them again. Names are derived from
// blob ids, which are immutable: an entry never goes stale.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ThumbCache {
  /** The bytes stored under `name`, or null when there are none. */
  get(name: string): Promise<Buffer | null>;
  put(name: string, body: Buffer): Promise<void>;
  /** Idempotent. */
  delete(names: readonly string[]): Promise<void>;
}

const NAME = /^[A-Za-z0-9_-]{1,100}\.webp$/;

/** Refuses a name that could leave the cache (it is built from a blob id, but checked all the same). */
export function checkThumbName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a thumbnail name: ${name}`);
  return name;
}

/** Thumbnails in a folder of the data directory (local storage). */
export class DiskThumbCache implements ThumbCache {
  constructor(readonly dir: string) {}

  async get(name: string): Promise<Buffer | null> {
    try {
      return await readFile(path.join(this.dir, checkThumbName(name)));
    } catch {
      return null;
    }
  }

  async put(name: string, body: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = path.join(this.dir, checkThumbName(name));
    // Written aside and renamed: a reader never sees half a picture. Unique per write: requests for the
    // same thumbnail in the same millisecond (a Photos grid of copies) each write their own file.
    const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, target);
  }

  async delete(names: readonly string[]): Promise<void> {
    for (const name of names) await rm(path.join(this.dir, checkThumbName(name)), { force: true });
  }
}
