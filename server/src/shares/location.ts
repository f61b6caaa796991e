// Pictures sent through a share link whose owner keeps places private
// (shares.strip_location, the default): the same bytes with the EXIF GPS
// directory and XMP places blanked in place (media/location.ts), so the size,
// ranges and streaming are as for any download. That holds for a file sent on
// its own and for each picture inside a folder's ZIP. A picture whose place
// cannot be taken out safely (TIFF, camera raw) is never sent: alone it is
// refused with 403; in a folder's ZIP it is left out.
import type { Readable } from 'node:stream';
import { forbidden } from '../core/errors.js';
import type { Sendable } from '../files/send.js';
import type { ArchiveEdit } from '../files/service.js';
import { mimeFor } from '../files/mime.js';
import { dropEntries, type ZipEntry } from '../files/zip.js';
import { CannotStrip, patchedCrc32, placeFreePatches } from '../media/location.js';
import { applyPatches, type Patch, type ReadAt } from '../media/strip-location.js';

/** Pictures of a folder's ZIP looked at concurrently (each costs a few small reads). */
const CONCURRENT_READS = 8;

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function reader(size: number, open: (range: { start: number; end: number }) => Promise<Readable>): ReadAt {
  return async (start, length) => {
    const end = Math.min(size, start + length) - 1;
    return end < start ? Buffer.alloc(0) : collect(await open({ start, end }));
  };
}

async function patchesOrRefuse(size: number, readAt: ReadAt, name: string): Promise<Patch[]> {
  try {
    return await placeFreePatches(size, readAt);
  } catch (err) {
    if (!(err instanceof CannotStrip)) throw err;
    throw forbidden(`${name}: this link keeps places private, and the location cannot be taken out of this kind of picture (${err.message})`);
  }
}

/** `item` as it goes out without its location; `item` itself when it names no place; 403 when its place cannot be taken out. */
export async function withoutLocation(item: Sendable): Promise<Sendable> {
  if (item.size === 0) return item;
  const patches = await patchesOrRefuse(item.size, reader(item.size, (range) => item.open(range)), item.filename);
  if (patches.length === 0) return item;
  return {
    size: item.size,
    // Other bytes than the stored content's: another validator, so a cache never mixes the two.
    etag: item.etag.replace(/"$/, '-noloc"'),
    lastModified: item.lastModified,
    mime: item.mime,
    filename: item.filename,
    // No redirect to the object store, which would send the stored bytes.
    open: async (range) => applyPatches(await item.open(range), range?.start ?? 0, patches),
  };
}

/**
 * Whether a ZIP entry is looked at: files whose name says picture, or says
 * nothing (a photo renamed ".bin" is still read by its first bytes). Text,
 * documents, sound and video are sent as stored without a read.
 */
function mayBePicture(e: ZipEntry): boolean {
  if (!e.blobId || e.name.endsWith('/')) return false;
  const mime = mimeFor(e.name);
  return mime.startsWith('image/') || mime === 'application/octet-stream';
}

/** A folder's ZIP with each picture's place taken out (its CRC following) and the pictures that cannot be stripped left out. */
export const archiveWithoutLocation: ArchiveEdit = async (entries, open) => {
  const drop = new Set<number>();
  const todo = [...entries.keys()].filter((i) => mayBePicture(entries[i]!));
  const work = async () => {
    for (let i = todo.shift(); i !== undefined; i = todo.shift()) {
      const e = entries[i]!;
      const blobId = e.blobId!;
      const readAt = reader(e.size, (range) => open(blobId, range));
      let patches: Patch[];
      try {
        patches = await placeFreePatches(e.size, readAt);
      } catch (err) {
        if (!(err instanceof CannotStrip)) throw err;
        drop.add(i);
        continue;
      }
      if (patches.length === 0) continue;
      e.crc32 = await patchedCrc32(e.crc32, e.size, patches, readAt);
      e.read = async (range) => applyPatches(await open(blobId, range), range.start, patches);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_READS }, work));
  return drop.size ? dropEntries(entries, drop) : entries;
};
