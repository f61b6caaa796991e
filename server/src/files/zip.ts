// A streamed ZIP writer for folder downloads. Entries are stored (no
// compression) with the CRC-32 recorded when each blob was uploaded, so the
// whole layout is known before the first byte: the response has a
// Content-Length, a strong ETag and honours Range (a broken download resumes),
// and producing it costs no CPU beyond copying bytes. ZIP64 records are used
// exactly where a size, an offset or the entry count overflows (APPNOTE 6.3.x
// §4.3.9, §4.4.3.2, §4.5.3).
//
// Names share their prefixes: an entry holds its own part of the name and the
// index of the folder entry it sits in, and a full name is put together only
// while its header is being written. Planning an archive (HEAD, the size, the
// ETag) so costs memory by the number of entries, never by the sum of the
// path lengths (a deep tree's would grow with the square of its depth).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { badRequest } from '../core/errors.js';
import type { ByteRange } from './storage/driver.js';

/** The longest name a ZIP header can hold: a 16-bit length field (APPNOTE §4.4.10). */
export const MAX_ZIP_NAME_BYTES = 0xffff;

export interface ZipEntry {
  /**
   * The entry's name after its parent's (the whole relative path when it has
   * no parent): "b.txt" under the folder entry "a/" is "a/b.txt"; folders end with "/".
   */
  name: string;
  /** Index of an earlier folder entry this one sits in; absent or -1 at the top. */
  parent?: number;
  size: number;
  crc32: number;
  mtimeMs: number;
  /** null for folders and empty files. */
  blobId: string | null;
  /**
   * Bytes to send instead of the blob's: an edited copy of the same size
   * (a picture without its location, shares/location.ts); `crc32` is theirs.
   */
  read?: (range: ByteRange) => Promise<Readable>;
}

export type BlobOpener = (blobId: string, range: ByteRange) => Promise<Readable>;

/** `entries` without the files at `drop` (never folders), each remaining entry's parent index following. */
export function dropEntries(entries: readonly ZipEntry[], drop: ReadonlySet<number>): ZipEntry[] {
  const moved: number[] = [];
  const out: ZipEntry[] = [];
  for (const [i, e] of entries.entries()) {
    moved.push(out.length);
    if (drop.has(i) && !e.name.endsWith('/')) continue;
    out.push(e.parent === undefined || e.parent < 0 ? e : { ...e, parent: moved[e.parent] });
  }
  return out;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const UTF8_FLAG = 0x0800;
const MADE_BY = (3 << 8) | 63; // Unix, APPNOTE 6.3
const FILE_ATTRS = (0o100644 << 16) >>> 0;
const DIR_ATTRS = ((0o040755 << 16) | 0x10) >>> 0;

interface Laid {
  entry: ZipEntry;
  /** The entry's own part of the name. */
  ownName: Buffer;
  /** Index of the parent's Laid, or -1. */
  parent: number;
  /** Bytes of the full name. */
  nameLength: number;
  offset: number;
  localLength: number;
  centralLength: number;
  dosTime: number;
  dosDate: number;
}

function dosDateTime(ms: number): { time: number; date: number } {
  // The DOS format holds 1980 to 2107 (a 7-bit year): clamp either way rather than fail mid-stream.
  const d = new Date(Math.min(Math.max(ms, Date.UTC(1980, 0, 1)), Date.UTC(2107, 11, 31, 23, 59, 58)));
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

const bigSize = (e: ZipEntry) => e.size >= MAX32;

export class ZipArchive {
  readonly size: number;
  readonly etag: string;
  /** The newest modification time among the entries. */
  readonly lastModified: number;
  private readonly laid: Laid[];
  private readonly centralOffset: number;
  private readonly centralSize: number;

  constructor(
    entries: readonly ZipEntry[],
    private readonly open: BlobOpener,
  ) {
    const hash = createHash('sha256');
    let offset = 0;
    const laid: Laid[] = [];
    for (const [index, entry] of entries.entries()) {
      const parent = entry.parent ?? -1;
      const up = parent >= 0 ? laid[parent] : undefined;
      if (parent >= index || (parent >= 0 && !up?.entry.name.endsWith('/'))) throw new RangeError(`zip entry ${index}: the parent must be an earlier folder entry`);
      const ownName = Buffer.from(entry.name, 'utf8');
      const nameLength = (up?.nameLength ?? 0) + ownName.length;
      // Refused while planning, before the first byte is sent: a longer name does not fit the header.
      if (nameLength > MAX_ZIP_NAME_BYTES) {
        throw badRequest(`An item's path inside the archive is ${nameLength} bytes long; a ZIP entry name holds at most ${MAX_ZIP_NAME_BYTES} bytes`);
      }
      const localLength = 30 + nameLength + (bigSize(entry) ? 20 : 0);
      const centralExtra = (bigSize(entry) ? 16 : 0) + (offset >= MAX32 ? 8 : 0);
      const centralLength = 46 + nameLength + (centralExtra ? 4 + centralExtra : 0);
      const { time, date } = dosDateTime(entry.mtimeMs);
      laid.push({ entry, ownName, parent, nameLength, offset, localLength, centralLength, dosTime: time, dosDate: date });
      offset += localLength + entry.size;
      // The parent's index and the own name identify the full name without building it.
      hash.update(`${parent}\0${entry.name}\0${entry.size}\0${entry.crc32}\0${entry.mtimeMs}\0${entry.blobId ?? ''}\n`);
    }
    this.laid = laid;
    this.centralOffset = offset;
    this.centralSize = this.laid.reduce((n, l) => n + l.centralLength, 0);
    this.size = this.centralOffset + this.centralSize + (this.needsZip64End() ? 56 + 20 : 0) + 22;
    this.etag = `"zip-${hash.digest('hex').slice(0, 40)}"`;
    this.lastModified = entries.reduce((m, e) => Math.max(m, e.mtimeMs), 0);
  }

  get entryCount(): number {
    return this.laid.length;
  }

  private needsZip64End(): boolean {
    return this.laid.length >= MAX16 || this.centralOffset >= MAX32 || this.centralSize >= MAX32;
  }

  /** The archive bytes, or the inclusive byte range of them. */
  stream(range?: ByteRange): Readable {
    const start = range?.start ?? 0;
    const end = range?.end ?? this.size - 1;
    return Readable.from(this.generate(start, end), { objectMode: false });
  }

  private async *generate(start: number, end: number): AsyncGenerator<Buffer> {
    let pos = 0;
    // Yields the part of [pos, pos + length) that falls in [start, end].
    const window = (length: number): [number, number] | null => {
      const segStart = pos;
      pos += length;
      if (pos <= start || segStart > end) return null;
      return [Math.max(start, segStart) - segStart, Math.min(end + 1, pos) - segStart];
    };
    for (const l of this.laid) {
      if (pos > end) return;
      const header = window(l.localLength);
      if (header) yield this.localHeader(l).subarray(header[0], header[1]);
      const data = window(l.entry.size);
      if (data && l.entry.blobId && data[1] > data[0]) {
        const range = { start: data[0], end: data[1] - 1 };
        const source = l.entry.read ? await l.entry.read(range) : await this.open(l.entry.blobId, range);
        for await (const chunk of source) yield chunk as Buffer;
      }
    }
    for (const l of this.laid) {
      if (pos > end) return;
      const part = window(l.centralLength);
      if (part) yield this.centralHeader(l).subarray(part[0], part[1]);
    }
    const tail = this.endRecords();
    const part = window(tail.length);
    if (part) yield tail.subarray(part[0], part[1]);
  }

  /** Writes the full name of `l` at `at` in `b`, the parents' parts first. */
  private writeName(l: Laid, b: Buffer, at: number): void {
    let end = at + l.nameLength;
    for (let p: Laid | undefined = l; p; p = p.parent >= 0 ? this.laid[p.parent] : undefined) {
      end -= p.ownName.length;
      p.ownName.copy(b, end);
    }
  }

  private localHeader(l: Laid): Buffer {
    const big = bigSize(l.entry);
    const b = Buffer.alloc(l.localLength);
    b.writeUInt32LE(0x04034b50, 0);
    b.writeUInt16LE(big ? 45 : 20, 4);
    b.writeUInt16LE(UTF8_FLAG, 6);
    b.writeUInt16LE(0, 8); // stored
    b.writeUInt16LE(l.dosTime, 10);
    b.writeUInt16LE(l.dosDate, 12);
    b.writeUInt32LE(l.entry.crc32 >>> 0, 14);
    b.writeUInt32LE(big ? MAX32 : l.entry.size, 18);
    b.writeUInt32LE(big ? MAX32 : l.entry.size, 22);
    b.writeUInt16LE(l.nameLength, 26);
    b.writeUInt16LE(big ? 20 : 0, 28);
    this.writeName(l, b, 30);
    if (big) {
      const x = 30 + l.nameLength;
      b.writeUInt16LE(0x0001, x);
      b.writeUInt16LE(16, x + 2);
      b.writeBigUInt64LE(BigInt(l.entry.size), x + 4);
      b.writeBigUInt64LE(BigInt(l.entry.size), x + 12);
    }
    return b;
  }

  private centralHeader(l: Laid): Buffer {
    const big = bigSize(l.entry);
    const farOffset = l.offset >= MAX32;
    const isDir = l.entry.name.endsWith('/');
    const b = Buffer.alloc(l.centralLength);
    b.writeUInt32LE(0x02014b50, 0);
    b.writeUInt16LE(MADE_BY, 4);
    b.writeUInt16LE(big || farOffset ? 45 : 20, 6);
    b.writeUInt16LE(UTF8_FLAG, 8);
    b.writeUInt16LE(0, 10);
    b.writeUInt16LE(l.dosTime, 12);
    b.writeUInt16LE(l.dosDate, 14);
    b.writeUInt32LE(l.entry.crc32 >>> 0, 16);
    b.writeUInt32LE(big ? MAX32 : l.entry.size, 20);
    b.writeUInt32LE(big ? MAX32 : l.entry.size, 24);
    b.writeUInt16LE(l.nameLength, 28);
    const extra = l.centralLength - 46 - l.nameLength;
    b.writeUInt16LE(extra, 30);
    b.writeUInt16LE(0, 32); // comment
    b.writeUInt16LE(0, 34); // disk
    b.writeUInt16LE(0, 36); // internal attributes
    b.writeUInt32LE(isDir ? DIR_ATTRS : FILE_ATTRS, 38);
    b.writeUInt32LE(farOffset ? MAX32 : l.offset, 42);
    this.writeName(l, b, 46);
    if (extra) {
      let x = 46 + l.nameLength;
      b.writeUInt16LE(0x0001, x);
      b.writeUInt16LE(extra - 4, x + 2);
      x += 4;
      // Only the overflowing fields, in the fixed order of APPNOTE §4.5.3.
      if (big) {
        b.writeBigUInt64LE(BigInt(l.entry.size), x);
        b.writeBigUInt64LE(BigInt(l.entry.size), x + 8);
        x += 16;
      }
      if (farOffset) b.writeBigUInt64LE(BigInt(l.offset), x);
    }
    return b;
  }

  private endRecords(): Buffer {
    const count = this.laid.length;
    const parts: Buffer[] = [];
    if (this.needsZip64End()) {
      const z = Buffer.alloc(56);
      z.writeUInt32LE(0x06064b50, 0);
      z.writeBigUInt64LE(44n, 4); // size of the remaining record
      z.writeUInt16LE(MADE_BY, 12);
      z.writeUInt16LE(45, 14);
      z.writeUInt32LE(0, 16);
      z.writeUInt32LE(0, 20);
      z.writeBigUInt64LE(BigInt(count), 24);
      z.writeBigUInt64LE(BigInt(count), 32);
      z.writeBigUInt64LE(BigInt(this.centralSize), 40);
      z.writeBigUInt64LE(BigInt(this.centralOffset), 48);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(0x07064b50, 0);
      loc.writeUInt32LE(0, 4);
      loc.writeBigUInt64LE(BigInt(this.centralOffset + this.centralSize), 8);
      loc.writeUInt32LE(1, 16);
      parts.push(z, loc);
    }
    const e = Buffer.alloc(22);
    e.writeUInt32LE(0x06054b50, 0);
    e.writeUInt16LE(0, 4);
    e.writeUInt16LE(0, 6);
    e.writeUInt16LE(Math.min(count, MAX16), 8);
    e.writeUInt16LE(Math.min(count, MAX16), 10);
    e.writeUInt32LE(Math.min(this.centralSize, MAX32), 12);
    e.writeUInt32LE(Math.min(this.centralOffset, MAX32), 16);
    e.writeUInt16LE(0, 20);
    parts.push(e);
    return Buffer.concat(parts);
  }
}
