// Location stripped from a picture sent through a share link (issue 36: GPS
// is never shown on public share pages unless the owner chooses to). The
// edits are found by reading the metadata at the head of the file (and, for
// WebP, the chunk headers) and are made IN PLACE, byte for byte the same
// length: the EXIF GPS directory is unlinked and zeroed, and XMP packets that
// name a place are blanked. The rest of the file streams through untouched,
// so byte ranges, Content-Length and memory stay as for any download.
import { Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** Bytes to put at an absolute offset of the file. */
export interface Patch {
  offset: number;
  bytes: Buffer;
}

/** Reads `length` bytes at `start` (fewer at the end of the file). */
export type ReadAt = (start: number, length: number) => Promise<Buffer>;

/** How much of the head is read for JPEG and PNG metadata (it comes before the picture data). */
export const HEAD_BYTES = 1 << 20;
/** WebP keeps EXIF after the picture: at most this many chunk headers are walked to find it. */
const MAX_WEBP_CHUNKS = 4096;


const GPS_IFD_TAG = 0x8825;
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
const PLACE_WORDS = ['GPSLatitude', 'GPSLongitude', 'GPSPosition', 'GPSAltitude', 'LocationShown', 'LocationCreated'];

function namesAPlace(b: Buffer): boolean {
  const text = b.toString('latin1');
  return PLACE_WORDS.some((w) => text.includes(w));
}

/**
 * The edits that unlink and zero the GPS directory of the TIFF structure (EXIF)
 * in `tiff`, which sits at absolute offset `base` of the file. Malformed
 * structures yield what could be read safely; offsets outside are ignored.
 */
export function tiffGpsPatches(tiff: Buffer, base: number): Patch[] {
  if (tiff.length < 8) return [];
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return [];
  const le = order === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  if (u16(2) !== 42) return [];
  const ifd0 = u32(4);
  if (ifd0 + 2 > tiff.length) return [];
  const n = u16(ifd0);
  const ifdEnd = ifd0 + 2 + 12 * n + 4;
  if (ifdEnd > tiff.length) return [];
  let at = -1;
  for (let i = 0; i < n; i++) if (u16(ifd0 + 2 + 12 * i) === GPS_IFD_TAG) at = i;
  if (at < 0) return [];
  const patches: Patch[] = [];
  const zero = (start: number, length: number) => {
    if (start >= 8 && length > 0 && start + length <= tiff.length) patches.push({ offset: base + start, bytes: Buffer.alloc(length) });
  };
  // The GPS directory and every value it points to are zeroed, so nothing of it is left to carve out.
  const gps = u32(ifd0 + 2 + 12 * at + 8);
  if (gps + 2 <= tiff.length) {
    const m = u16(gps);
    if (gps + 2 + 12 * m + 4 <= tiff.length) {
      for (let i = 0; i < m; i++) {
        const e = gps + 2 + 12 * i;
        const size = (TYPE_SIZES[u16(e + 2)] ?? 0) * u32(e + 4);
        if (size > 4) zero(u32(e + 8), size);
      }
      zero(gps, 2 + 12 * m + 4);
    }
  }
  // IFD0 without the GPS entry: the entries after it move up, the count drops, the next-IFD link follows; 12 zero bytes fill the end.
  const rebuilt = Buffer.alloc(ifdEnd - ifd0);
  const w16 = (v: number, o: number) => (le ? rebuilt.writeUInt16LE(v, o) : rebuilt.writeUInt16BE(v, o));
  w16(n - 1, 0);
  tiff.copy(rebuilt, 2, ifd0 + 2, ifd0 + 2 + 12 * at);
  tiff.copy(rebuilt, 2 + 12 * at, ifd0 + 2 + 12 * (at + 1), ifdEnd);
  patches.push({ offset: base + ifd0, bytes: rebuilt });
  return patches;
}

function jpegPatches(head: Buffer): Patch[] {
  const patches: Patch[] = [];
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return patches;
  let pos = 2;
  while (pos + 4 <= head.length) {
    if (head[pos] !== 0xff) break;
    const marker = head[pos + 1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no metadata after
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    const length = head.readUInt16BE(pos + 2);
    const end = pos + 2 + length;
    if (length < 2 || end > head.length) break;
    const payload = head.subarray(pos + 4, end);
    if (marker === 0xe1 && payload.subarray(0, 6).equals(Buffer.from('Exif\0\0', 'latin1'))) {
      patches.push(...tiffGpsPatches(payload.subarray(6), pos + 10));
    } else if (marker === 0xe1 && namesAPlace(payload)) {
      // XMP: the segment becomes a comment of spaces (decoders skip it).
      patches.push({ offset: pos + 1, bytes: Buffer.from([0xfe]) }, { offset: pos + 4, bytes: Buffer.alloc(payload.length, 0x20) });
    }
    pos = end;
  }
  return patches;
}

/** A PNG chunk `type` whose data is `data`, at `offset` (its length field), rewritten: type, data and CRC. */
function pngChunk(offset: number, type: string, data: Buffer): Patch {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0, 0);
  return { offset: offset + 4, bytes: Buffer.concat([body, crc]) };
}

function pngPatches(head: Buffer): Patch[] {
  const patches: Patch[] = [];
  if (head.length < 8 || !head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return patches;
  let pos = 8;
  while (pos + 12 <= head.length) {
    const length = head.readUInt32BE(pos);
    const type = head.toString('latin1', pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (type === 'IDAT' || type === 'IEND' || end > head.length) break;
    const data = head.subarray(pos + 8, pos + 8 + length);
    if (type === 'eXIf') {
      const edits = tiffGpsPatches(data, 0);
      if (edits.length > 0) {
        const edited = Buffer.from(data);
        for (const e of edits) e.bytes.copy(edited, e.offset);
        patches.push(pngChunk(pos, type, edited));
      }
    } else if ((type === 'iTXt' || type === 'tEXt' || type === 'zTXt') && namesAPlace(data)) {
      // An XMP packet naming a place: a private ancillary chunk of zeros, which decoders skip.
      patches.push(pngChunk(pos, 'cxRm', Buffer.alloc(length)));
    }
    pos = end;
  }
  return patches;
}

async function webpPatches(size: number, readAt: ReadAt): Promise<Patch[]> {
  const patches: Patch[] = [];
  const riff = await readAt(0, 12);
  if (riff.length < 12 || riff.toString('latin1', 0, 4) !== 'RIFF' || riff.toString('latin1', 8, 12) !== 'WEBP') return patches;
  let pos = 12;
  for (let i = 0; i < MAX_WEBP_CHUNKS && pos + 8 <= size; i++) {
    const header = await readAt(pos, 8);
    if (header.length < 8) break;
    const type = header.toString('latin1', 0, 4);
    const length = header.readUInt32LE(4);
    const start = pos + 8;
    if (type === 'EXIF' && length <= HEAD_BYTES) {
      const data = await readAt(start, length);
      // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
      const skip = data.subarray(0, 6).equals(Buffer.from('Exif\0\0', 'latin1')) ? 6 : 0;
      patches.push(...tiffGpsPatches(data.subarray(skip), start + skip));
    } else if (type === 'XMP ' && length <= HEAD_BYTES) {
      const data = await readAt(start, length);
      if (namesAPlace(data)) patches.push({ offset: start, bytes: Buffer.alloc(length, 0x20) });
    }
    pos = start + length + (length % 2);
  }
  return patches;
}

/**
 * The in-place edits that take the location out of a picture of type `mime`
 * (JPEG, PNG, WebP); none for other types or when it has none.
 */
export async function locationPatches(mime: string, size: number, readAt: ReadAt): Promise<Patch[]> {
  if (mime === 'image/webp') return webpPatches(size, readAt);
  if (mime !== 'image/jpeg' && mime !== 'image/png') return [];
  const head = await readAt(0, Math.min(size, HEAD_BYTES));
  return mime === 'image/jpeg' ? jpegPatches(head) : pngPatches(head);
}

/** A stream of the bytes from absolute offset `start` with `patches` applied where they overlap. */
export function applyPatches(source: Readable, start: number, patches: readonly Patch[]): Readable {
  let at = start;
  const patcher = new Transform({
    transform(chunk: Buffer, _enc, done) {
      const from = at;
      const to = at + chunk.length;
      at = to;
      let out = chunk;
      for (const p of patches) {
        const pEnd = p.offset + p.bytes.length;
        if (pEnd <= from || p.offset >= to) continue;
        if (out === chunk) out = Buffer.from(chunk);
        const s = Math.max(from, p.offset);
        const e = Math.min(to, pEnd);
        p.bytes.copy(out, s - from, s - p.offset, e - p.offset);
      }
      done(null, out);
    },
  });
  source.on('error', (err) => patcher.destroy(err));
  patcher.on('close', () => source.destroy());
  return source.pipe(patcher);
}
