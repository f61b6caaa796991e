// Which pictures lose their location how when they go out through a link
// that keeps places private. The format is read from the file's first bytes,
// not its name, so a photo renamed ".bin" is treated as the photo it is:
// - JPEG, PNG, WebP (strip-location.ts) and HEIC/HEIF/AVIF (heif-location.ts)
//   are edited in place, byte for byte the same length;
// - TIFF, and the camera raw formats built on it (DNG, CR2, NEF, ARW, ...),
//   are refused: their directories may sit anywhere in a file of any size and
//   one per page or preview, so nothing short of rewriting the file is sure;
// - anything else goes out as stored.
// The CRC-32 of an edited file, which a ZIP records before its bytes, is
// worked out from the stored CRC and the edits alone (CRC is linear over
// GF(2)), so a folder archive still needs no pass over its pictures' bytes.
import { crc32 } from 'node:zlib';
import { CannotStrip, heifLocationPatches } from './heif-location.js';
import { locationPatches, type Patch, type ReadAt } from './strip-location.js';

export { CannotStrip };

export type PictureFormat = 'jpeg' | 'png' | 'webp' | 'isobmff' | 'tiff' | null;

/** The picture format of a file that begins with `head` (its first 12 bytes or more); null when it is none of those that carry a place. */
export function pictureFormat(head: Buffer): PictureFormat {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (head.length >= 8 && head.toString('latin1', 4, 8) === 'ftyp') return 'isobmff';
  const order = head.toString('latin1', 0, 4);
  // Classic TIFF (42) and BigTIFF (43), either byte order.
  if (order === 'II*\0' || order === 'MM\0*' || order === 'II+\0' || order === 'MM\0+') return 'tiff';
  return null;
}

const MIME_OF: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * The in-place edits that take the location out of a file of `size` bytes;
 * none when it carries none. Throws CannotStrip for a picture whose place
 * cannot be taken out safely (the caller refuses to send it).
 */
export async function placeFreePatches(size: number, readAt: ReadAt): Promise<Patch[]> {
  if (size === 0) return [];
  const format = pictureFormat(await readAt(0, 16));
  if (format === null) return [];
  if (format === 'tiff') throw new CannotStrip('TIFF and camera raw pictures cannot have their location taken out');
  if (format === 'isobmff') return heifLocationPatches(size, readAt);
  return locationPatches(MIME_OF[format]!, size, readAt);
}

// CRC-32 arithmetic modulo its polynomial, as zlib's crc32_combine (crc32.c, multmodp and x2nmodp).
const POLY = 0xedb88320;
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multmodp(X2N[k - 1]!, X2N[k - 1]!));
/** x^(n·2^k) modulo the polynomial: what shifting a CRC through n zero bytes multiplies it by (k = 3). */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000;
  while (n > 0) {
    if (n % 2 === 1) p = multmodp(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/**
 * The CRC-32 of a `size`-byte file whose CRC-32 is `crc` once `patches` are
 * applied (later patches win where they overlap, as applyPatches does).
 * Reads only the stored bytes under the patches. For equal lengths,
 * crc(A ⊕ D) = crc(A) ⊕ crc(D) ⊕ crc(0ⁿ), and a difference confined to k
 * bytes at offset o contributes (crc(W) ⊕ crc(0ᵏ)) shifted through the
 * n − o − k bytes after it.
 */
export async function patchedCrc32(crc: number, size: number, patches: readonly Patch[], readAt: ReadAt): Promise<number> {
  // Overlapping and touching patches are merged into regions, each worked out once.
  const sorted = [...patches].filter((p) => p.bytes.length > 0).sort((a, b) => a.offset - b.offset);
  const regions: { start: number; end: number }[] = [];
  for (const p of sorted) {
    const last = regions[regions.length - 1];
    if (last && p.offset <= last.end) last.end = Math.max(last.end, p.offset + p.bytes.length);
    else regions.push({ start: p.offset, end: p.offset + p.bytes.length });
  }
  let out = crc >>> 0;
  for (const r of regions) {
    const end = Math.min(r.end, size);
    if (end <= r.start) continue;
    const stored = await readAt(r.start, end - r.start);
    const edited = Buffer.from(stored);
    for (const p of patches) {
      const s = Math.max(p.offset, r.start);
      const e = Math.min(p.offset + p.bytes.length, end);
      if (e > s) p.bytes.copy(edited, s - r.start, s - p.offset, e - p.offset);
    }
    for (let i = 0; i < edited.length; i++) edited[i]! ^= stored[i]!;
    const delta = (crc32(edited) ^ crc32(Buffer.alloc(edited.length))) >>> 0;
    out = (out ^ multmodp(x2nmodp(size - end, 3), delta)) >>> 0;
  }
  return out;
}
