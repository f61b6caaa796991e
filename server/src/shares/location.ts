// A picture sent through a share link whose owner keeps its location private
// (shares.strip_location, the default): the same bytes with the EXIF GPS
// directory and XMP places blanked in place (media/strip-location.ts), so the
// size, ranges and streaming are as for any download.
import type { Readable } from 'node:stream';
import type { Sendable } from '../files/send.js';
import { applyPatches, locationPatches, STRIPPABLE_MIMES } from '../media/strip-location.js';

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** `item` as it goes out without its location; `item` itself when it is not a picture or names no place. */
export async function withoutLocation(item: Sendable): Promise<Sendable> {
  if (item.size === 0 || !STRIPPABLE_MIMES.includes(item.mime)) return item;
  const readAt = async (start: number, length: number) => {
    const end = Math.min(item.size, start + length) - 1;
    return end < start ? Buffer.alloc(0) : collect(await item.open({ start, end }));
  };
  const patches = await locationPatches(item.mime, item.size, readAt);
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
