// Location in HEIC, HEIF and AVIF pictures (ISO/IEC 23008-12 on the ISO base
// media file format, ISO/IEC 14496-12). The EXIF and XMP there are ITEMS of
// the `meta` box: `iinf` names each item's type, `iloc` says where its bytes
// are (in the file, or in the `idat` box). The EXIF item is a 4-byte offset
// to its TIFF header and then the TIFF structure that strip-location.ts edits
// in place; an XMP item (a `mime` item of type application/rdf+xml) that names
// a place is blanked. What this cannot edit safely is refused (CannotStrip),
// never passed on with its location.
import { tiffGpsPatches, type Patch, type ReadAt } from './strip-location.js';

/** The picture holds location this reader cannot take out safely. */
export class CannotStrip extends Error {}

/** The most of the `meta` box and of one metadata item read (metadata is KBs; a picture's tiles are not read). */
const MAX_META_BYTES = 1 << 20;
/** Top-level boxes walked to find `meta` (ftyp, meta and mdat in practice). */
const MAX_TOP_BOXES = 64;

const EMPTY_XMP = Buffer.from('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>', 'latin1');
const PLACE_WORDS = ['GPSLatitude', 'GPSLongitude', 'GPSPosition', 'GPSAltitude', 'LocationShown', 'LocationCreated'];

interface Box {
  type: string;
  /** Offset of the box's content (after its header) in the buffer or file. */
  start: number;
  end: number;
}

/** The boxes in `b` between `from` and `to` (offsets within `b`). */
function boxesIn(b: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let pos = from;
  while (pos + 8 <= to) {
    let size = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    let header = 8;
    if (size === 1) {
      if (pos + 16 > to) throw new CannotStrip('truncated box');
      size = Number(b.readBigUInt64BE(pos + 8));
      header = 16;
    } else if (size === 0) size = to - pos;
    if (size < header || pos + size > to) throw new CannotStrip(`box ${type} runs past its parent`);
    out.push({ type, start: pos + header, end: pos + size });
    pos += size;
  }
  return out;
}

function uint(b: Buffer, at: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (bytes === 4) return b.readUInt32BE(at);
  if (bytes === 8) return Number(b.readBigUInt64BE(at));
  if (bytes === 2) return b.readUInt16BE(at);
  throw new CannotStrip(`field of ${bytes} bytes`);
}

/** Item id → type ('Exif', 'mime', ...) and, for `mime` items, the content type and encoding. */
function itemTypes(b: Buffer, iinf: Box): Map<number, { type: string; contentType: string; encoding: string }> {
  const items = new Map<number, { type: string; contentType: string; encoding: string }>();
  const version = b[iinf.start]!;
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxesIn(b, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const v = b[infe.start]!;
    if (v < 2) continue; // versions 0 and 1 name no item type (no EXIF item can be declared with them)
    let at = infe.start + 4;
    const id = v === 2 ? b.readUInt16BE(at) : b.readUInt32BE(at);
    at += (v === 2 ? 2 : 4) + 2;
    const type = b.toString('latin1', at, at + 4);
    at += 4;
    const cstring = () => {
      const nul = b.indexOf(0, at);
      const stop = nul < 0 || nul > infe.end ? infe.end : nul;
      const s = b.toString('utf8', at, stop);
      at = Math.min(infe.end, stop + 1);
      return s;
    };
    cstring(); // item name
    const contentType = type === 'mime' ? cstring() : '';
    const encoding = type === 'mime' && at < infe.end ? cstring() : '';
    items.set(id, { type, contentType, encoding });
  }
  return items;
}

interface Extent {
  /** 0: offset in the file; 1: offset in `idat`. */
  method: number;
  offset: number;
  length: number;
}

/** Item id → its extents, from `iloc` (versions 0 to 2). */
function itemLocations(b: Buffer, iloc: Box): Map<number, Extent[]> {
  const version = b[iloc.start]!;
  if (version > 2) throw new CannotStrip(`iloc version ${version}`);
  let at = iloc.start + 4;
  const offsetSize = b[at]! >> 4;
  const lengthSize = b[at]! & 15;
  const baseSize = b[at + 1]! >> 4;
  const indexSize = version > 0 ? b[at + 1]! & 15 : 0;
  at += 2;
  const count = version < 2 ? b.readUInt16BE(at) : b.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  const out = new Map<number, Extent[]>();
  for (let i = 0; i < count; i++) {
    if (at + 16 > iloc.end) throw new CannotStrip('iloc truncated');
    const id = version < 2 ? b.readUInt16BE(at) : b.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version > 0) {
      method = b.readUInt16BE(at) & 15;
      at += 2;
    }
    at += 2; // data reference index
    const base = uint(b, at, baseSize);
    at += baseSize;
    const extents = b.readUInt16BE(at);
    at += 2;
    const list: Extent[] = [];
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      const offset = uint(b, at, offsetSize);
      at += offsetSize;
      const length = uint(b, at, lengthSize);
      at += lengthSize;
      if (at > iloc.end) throw new CannotStrip('iloc truncated');
      list.push({ method, offset: base + offset, length });
    }
    out.set(id, list);
  }
  return out;
}

/**
 * The in-place edits that take the location out of a HEIF/AVIF file of
 * `size` bytes; none when it carries none (or is no ISO media file at all,
 * which no reader takes a place from either). Throws CannotStrip when it
 * carries metadata this cannot edit: a compressed XMP item, an EXIF item in
 * pieces or built from other items, or a `meta` box too large or malformed.
 */
export async function heifLocationPatches(size: number, readAt: ReadAt): Promise<Patch[]> {
  let pos = 0;
  let meta: { at: number; bytes: Buffer } | null = null;
  for (let i = 0; i < MAX_TOP_BOXES && pos + 8 <= size; i++) {
    const head = await readAt(pos, 16);
    if (head.length < 8) break;
    let boxSize = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (i === 0 && type !== 'ftyp') return [];
    if (boxSize === 1 && head.length >= 16) boxSize = Number(head.readBigUInt64BE(8));
    else if (boxSize === 0) boxSize = size - pos;
    if (boxSize < 8) throw new CannotStrip(`box ${type} of ${boxSize} bytes`);
    if (type === 'meta') {
      if (boxSize > MAX_META_BYTES) throw new CannotStrip('meta box too large');
      meta = { at: pos, bytes: await readAt(pos, boxSize) };
      break;
    }
    pos += boxSize;
  }
  if (!meta) return [];
  const b = meta.bytes;
  const metaBox = boxesIn(b, 0, b.length)[0];
  if (!metaBox || metaBox.type !== 'meta') throw new CannotStrip('meta box unreadable');
  const children = boxesIn(b, metaBox.start + 4, metaBox.end);
  const iinf = children.find((c) => c.type === 'iinf');
  const iloc = children.find((c) => c.type === 'iloc');
  const idat = children.find((c) => c.type === 'idat');
  if (!iinf) return [];
  const types = itemTypes(b, iinf);
  const wanted = [...types].filter(([, t]) => t.type === 'Exif' || (t.type === 'mime' && /rdf\+xml|xmp/i.test(t.contentType)));
  if (wanted.length === 0) return [];
  if (!iloc) throw new CannotStrip('metadata items without locations');
  const locations = itemLocations(b, iloc);
  const patches: Patch[] = [];
  for (const [id, t] of wanted) {
    const extents = locations.get(id) ?? [];
    if (extents.length === 0) continue;
    if (extents.length > 1) throw new CannotStrip(`${t.type} item in ${extents.length} pieces`);
    const extent = extents[0]!;
    if (extent.method > 1) throw new CannotStrip(`${t.type} item built from other items`);
    if (extent.length > MAX_META_BYTES) throw new CannotStrip(`${t.type} item too large`);
    let fileOffset: number;
    if (extent.method === 1) {
      if (!idat || extent.offset + extent.length > idat.end - idat.start) throw new CannotStrip('item outside idat');
      fileOffset = meta.at + idat.start + extent.offset;
    } else {
      fileOffset = extent.offset;
    }
    // A length of 0 means "to the end of the file" (ISO/IEC 14496-12 §8.11.3.3).
    const length = extent.length === 0 ? size - fileOffset : extent.length;
    if (fileOffset + length > size || length > MAX_META_BYTES) throw new CannotStrip(`${t.type} item outside the file`);
    const data = await readAt(fileOffset, length);
    if (t.type === 'Exif') {
      if (data.length < 4) continue;
      const tiffAt = 4 + data.readUInt32BE(0);
      if (tiffAt >= data.length) throw new CannotStrip('EXIF header offset outside the item');
      const tiff = data.subarray(tiffAt);
      patches.push(...tiffGpsPatches(tiff, fileOffset + tiffAt));
    } else {
      const text = data.toString('latin1');
      if (t.encoding && t.encoding !== 'identity') throw new CannotStrip(`XMP item encoded as ${t.encoding}`);
      if (PLACE_WORDS.some((w) => text.includes(w))) {
        // An empty XMP document padded with spaces, so readers still find valid XMP where the item says.
        const blank = Buffer.alloc(length, 0x20);
        if (length >= EMPTY_XMP.length) EMPTY_XMP.copy(blank);
        patches.push({ offset: fileOffset, bytes: blank });
      }
    }
  }
  return patches;
}
