// Unit tests of files/zip.ts: the byte layout of the stored (uncompressed)
// archive against PKWARE's APPNOTE 6.3.x (§4.3.7 local file header, §4.3.12
// central directory header, §4.3.16 end of central directory record, §4.3.14/
// §4.3.15 ZIP64 end record and locator, §4.5.3 ZIP64 extra field), ranged
// streaming (each range is the same bytes as the slice of the whole stream),
// and Info-ZIP's unzip reading what we write.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { ByteRange } from '../../src/files/storage/driver.js';
import { crc32OfZeros } from '../../src/files/crc32.js';
import { ZipArchive, type ZipEntry } from '../../src/files/zip.js';

const MAX32 = 0xffffffff;
const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

const HAVE_UNZIP = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
const NO_UNZIP = HAVE_UNZIP ? false : 'Info-ZIP unzip is not installed (apt-get install unzip)';

/** Blobs held in memory; the opener serves byte ranges of them in small chunks and records every call. */
class Blobs {
  readonly data = new Map<string, Buffer>();
  readonly calls: { blobId: string; range: ByteRange }[] = [];

  add(id: string, content: Buffer): Buffer {
    this.data.set(id, content);
    return content;
  }

  readonly open = async (blobId: string, range: ByteRange): Promise<Readable> => {
    this.calls.push({ blobId, range });
    const blob = this.data.get(blobId);
    assert.ok(blob, `unknown blob ${blobId}`);
    assert.ok(range.start >= 0 && range.start <= range.end && range.end < blob.length, `range ${JSON.stringify(range)} outside blob of ${blob.length}`);
    const bytes = blob.subarray(range.start, range.end + 1);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 97) chunks.push(bytes.subarray(i, i + 97));
    return Readable.from(chunks);
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const file = (blobs: Blobs, name: string, content: Buffer, mtimeMs = Date.UTC(2024, 4, 1, 12, 34, 56)): ZipEntry => {
  const blobId = content.length > 0 ? `blob-${blobs.data.size}` : null;
  if (blobId) blobs.add(blobId, content);
  return { name, size: content.length, crc32: crc32(content), mtimeMs, blobId };
};
const folder = (name: string, mtimeMs = Date.UTC(2024, 4, 1)): ZipEntry => ({ name, size: 0, crc32: 0, mtimeMs, blobId: null });

interface CentralRecord {
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  name: string;
  extra: Buffer;
  externalAttrs: number;
  localOffset: number;
}

interface EndRecords {
  count: number;
  centralSize: number;
  centralOffset: number;
  zip64: { count: number; centralSize: number; centralOffset: number; locatorOffset: number } | null;
  /** The raw 16/32-bit fields of the classic record. */
  classic: { count: number; centralSize: number; centralOffset: number };
}

/** Reads the end records from the archive's last bytes (APPNOTE §4.3.14–§4.3.16). */
function readEnd(tail: Buffer, archiveSize: number): EndRecords {
  const e = tail.subarray(tail.length - 22);
  assert.equal(e.readUInt32LE(0), SIG_END, 'end of central directory signature');
  assert.equal(e.readUInt16LE(4), 0, 'number of this disk');
  assert.equal(e.readUInt16LE(6), 0, 'disk where the central directory starts');
  assert.equal(e.readUInt16LE(8), e.readUInt16LE(10), 'entries on this disk = total entries');
  assert.equal(e.readUInt16LE(20), 0, 'comment length');
  const classic = { count: e.readUInt16LE(10), centralSize: e.readUInt32LE(12), centralOffset: e.readUInt32LE(16) };
  let zip64: EndRecords['zip64'] = null;
  if (tail.length >= 22 + 20 && tail.readUInt32LE(tail.length - 42) === SIG_ZIP64_LOCATOR) {
    const loc = tail.subarray(tail.length - 42, tail.length - 22);
    assert.equal(loc.readUInt32LE(4), 0, 'disk with the ZIP64 end record');
    assert.equal(loc.readUInt32LE(16), 1, 'total number of disks');
    const locatorOffset = Number(loc.readBigUInt64LE(8));
    assert.equal(locatorOffset, archiveSize - 22 - 20 - 56, 'the locator points at the ZIP64 end record');
    const z = tail.subarray(tail.length - 42 - 56, tail.length - 42);
    assert.equal(z.readUInt32LE(0), SIG_ZIP64_END);
    assert.equal(z.readBigUInt64LE(4), 44n, 'size of the rest of the ZIP64 end record');
    assert.equal(z.readUInt16LE(14), 45, 'version needed 4.5');
    assert.equal(z.readBigUInt64LE(24), z.readBigUInt64LE(32), 'entries on this disk = total');
    zip64 = { count: Number(z.readBigUInt64LE(32)), centralSize: Number(z.readBigUInt64LE(40)), centralOffset: Number(z.readBigUInt64LE(48)), locatorOffset };
  }
  return {
    count: zip64?.count ?? classic.count,
    centralSize: zip64?.centralSize ?? classic.centralSize,
    centralOffset: zip64?.centralOffset ?? classic.centralOffset,
    zip64,
    classic,
  };
}

/** Parses the central directory records (APPNOTE §4.3.12), checking that they fill it exactly. */
function readCentral(cd: Buffer): CentralRecord[] {
  const out: CentralRecord[] = [];
  let p = 0;
  while (p < cd.length) {
    assert.equal(cd.readUInt32LE(p), SIG_CENTRAL, `central header signature at ${p}`);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    assert.equal(commentLength, 0);
    assert.equal(cd.readUInt16LE(p + 34), 0, 'disk number start');
    out.push({
      versionMadeBy: cd.readUInt16LE(p + 4),
      versionNeeded: cd.readUInt16LE(p + 6),
      flags: cd.readUInt16LE(p + 8),
      method: cd.readUInt16LE(p + 10),
      time: cd.readUInt16LE(p + 12),
      date: cd.readUInt16LE(p + 14),
      crc: cd.readUInt32LE(p + 16),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      name: cd.toString('utf8', p + 46, p + 46 + nameLength),
      extra: cd.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength),
      externalAttrs: cd.readUInt32LE(p + 38),
      localOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  assert.equal(p, cd.length, 'the records fill the central directory exactly');
  return out;
}

/** The ZIP64 extended information extra field (header id 0x0001, APPNOTE §4.5.3) as 64-bit values, or null. */
function zip64Values(extra: Buffer): bigint[] | null {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === 0x0001) {
      assert.equal(length % 8, 0);
      return Array.from({ length: length / 8 }, (_, i) => extra.readBigUInt64LE(p + 4 + i * 8));
    }
    p += 4 + length;
  }
  return null;
}

const dos = (ms: number) => {
  const d = new Date(ms);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
};

describe('ZipArchive layout (APPNOTE 6.3.x)', () => {
  const blobs = new Blobs();
  const alpha = Buffer.from('alpha');
  const unicodeBody = Buffer.from('unicode body');
  const big = randomBytes(100_000);
  const entries: ZipEntry[] = [
    folder('top/'),
    file(blobs, 'top/a.txt', alpha),
    folder('top/empty/'),
    file(blobs, 'top/zero', Buffer.alloc(0)),
    file(blobs, 'top/ü 日本.txt', unicodeBody, Date.UTC(2030, 11, 31, 23, 59, 59)),
    file(blobs, 'top/big.bin', big),
  ];
  const archive = new ZipArchive(entries, blobs.open);
  let bytes: Buffer;

  before(async () => {
    bytes = await collect(archive.stream());
  });

  it('size is known up front and equals the streamed length', () => {
    assert.equal(bytes.length, archive.size);
    assert.equal(archive.entryCount, entries.length);
  });

  it('§4.3.6: local header + data for each entry in order, then the central directory, then the end record', () => {
    let p = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      assert.equal(bytes.readUInt32LE(p), SIG_LOCAL, `local header of ${entry.name}`);
      assert.equal(bytes.readUInt16LE(p + 4), 20, 'version needed 2.0');
      assert.equal(bytes.readUInt16LE(p + 6), 0x0800, 'general purpose bit 11: the name is UTF-8 (§4.4.4, Appendix D)');
      assert.equal(bytes.readUInt16LE(p + 8), 0, 'method 0: stored');
      assert.equal(bytes.readUInt32LE(p + 14), entry.crc32);
      assert.equal(bytes.readUInt32LE(p + 18), entry.size, 'compressed size');
      assert.equal(bytes.readUInt32LE(p + 22), entry.size, 'uncompressed size');
      assert.equal(bytes.readUInt16LE(p + 26), name.length);
      assert.equal(bytes.readUInt16LE(p + 28), 0, 'no extra field below 4 GiB');
      assert.deepEqual(bytes.subarray(p + 30, p + 30 + name.length), name);
      p += 30 + name.length;
      const content = entry.blobId ? blobs.data.get(entry.blobId)! : Buffer.alloc(0);
      assert.deepEqual(bytes.subarray(p, p + entry.size), content, `data of ${entry.name}`);
      assert.equal(crc32(bytes.subarray(p, p + entry.size)), entry.crc32);
      p += entry.size;
    }
    const end = readEnd(bytes, bytes.length);
    assert.equal(end.centralOffset, p, 'the central directory starts right after the last entry');
    assert.equal(end.centralOffset + end.centralSize + 22, bytes.length, 'the end record follows the central directory');
    assert.equal(end.zip64, null, 'no ZIP64 records in a small archive');
  });

  it('§4.3.12: one central record per entry, pointing at its local header, with the same fields', () => {
    const end = readEnd(bytes, bytes.length);
    const records = readCentral(bytes.subarray(end.centralOffset, end.centralOffset + end.centralSize));
    assert.equal(records.length, entries.length);
    assert.equal(end.count, entries.length);
    records.forEach((r, i) => {
      const entry = entries[i]!;
      assert.equal(r.name, entry.name);
      assert.equal(r.versionMadeBy >> 8, 3, 'made by: UNIX, so the external attributes carry a mode');
      assert.equal(r.versionNeeded, 20);
      assert.equal(r.flags, 0x0800);
      assert.equal(r.method, 0);
      assert.equal(r.crc, entry.crc32);
      assert.equal(r.size, entry.size);
      assert.equal(r.compressedSize, entry.size);
      assert.equal(r.extra.length, 0);
      assert.equal(bytes.readUInt32LE(r.localOffset), SIG_LOCAL);
      assert.equal(bytes.toString('utf8', r.localOffset + 30, r.localOffset + 30 + Buffer.byteLength(entry.name)), entry.name);
      const { time, date } = dos(entry.mtimeMs);
      assert.equal(r.time, time, `DOS time of ${entry.name}`);
      assert.equal(r.date, date, `DOS date of ${entry.name}`);
      assert.equal(bytes.readUInt16LE(r.localOffset + 10), time, 'local and central times agree');
      assert.equal(bytes.readUInt16LE(r.localOffset + 12), date);
    });
  });

  it('§4.4.15: folders are 040755 with the MS-DOS directory bit, files 0100644', () => {
    const end = readEnd(bytes, bytes.length);
    const records = readCentral(bytes.subarray(end.centralOffset, end.centralOffset + end.centralSize));
    for (const r of records) {
      const mode = r.externalAttrs >>> 16;
      if (r.name.endsWith('/')) {
        assert.equal(mode, 0o040755, r.name);
        assert.equal(r.externalAttrs & 0x10, 0x10, r.name);
      } else {
        assert.equal(mode, 0o100644, r.name);
        assert.equal(r.externalAttrs & 0x10, 0, r.name);
      }
    }
  });

  it('§4.4.6: DOS date and time in UTC, two-second resolution; before 1980 becomes 1980-01-01 00:00:00', async () => {
    const b = new Blobs();
    const when = Date.UTC(2024, 4, 1, 12, 34, 57, 999);
    const z = new ZipArchive([folder('old/', Date.UTC(1975, 5, 6)), folder('epoch/', 0), folder('now/', when)], b.open);
    const out = await collect(z.stream());
    const end = readEnd(out, out.length);
    const [old, epoch, now] = readCentral(out.subarray(end.centralOffset, end.centralOffset + end.centralSize));
    for (const r of [old!, epoch!]) {
      assert.equal(r.time, 0);
      assert.equal(r.date, (0 << 9) | (1 << 5) | 1);
    }
    assert.equal(now!.time, (12 << 11) | (34 << 5) | 28);
    assert.equal(now!.date, (44 << 9) | (5 << 5) | 1);
  });

  it(
    '§4.4.6: a modification time after 2107 (past the DOS date range) still produces an archive',
    async () => {
      const z = new ZipArchive([folder('future/', Date.UTC(2108, 0, 1))], new Blobs().open);
      const out = await collect(z.stream());
      assert.equal(out.length, z.size);
    },
  );

  it('the empty archive is just the 22-byte end record', async () => {
    const z = new ZipArchive([], new Blobs().open);
    const out = await collect(z.stream());
    assert.equal(z.size, 22);
    assert.equal(out.length, 22);
    assert.deepEqual(readEnd(out, 22).classic, { count: 0, centralSize: 0, centralOffset: 0 });
    assert.equal(z.lastModified, 0);
  });

  it('lastModified is the newest entry; the ETag is strong and follows every field of every entry', () => {
    assert.equal(archive.lastModified, Date.UTC(2030, 11, 31, 23, 59, 59));
    assert.match(archive.etag, /^"zip-[0-9a-f]{40}"$/);
    const same = new ZipArchive(entries.map((e) => ({ ...e })), blobs.open);
    assert.equal(same.etag, archive.etag);
    const variants: ((e: ZipEntry) => ZipEntry)[] = [
      (e) => ({ ...e, name: e.name + 'x' }),
      (e) => ({ ...e, size: e.size + 1 }),
      (e) => ({ ...e, crc32: (e.crc32 ^ 1) >>> 0 }),
      (e) => ({ ...e, mtimeMs: e.mtimeMs + 1 }),
      (e) => ({ ...e, blobId: 'other' }),
    ];
    for (const change of variants) {
      const changed = new ZipArchive(entries.map((e, i) => (i === 1 ? change(e) : e)), blobs.open);
      assert.notEqual(changed.etag, archive.etag, change.toString());
    }
    // Moving an entry changes the bytes, so it changes the tag.
    assert.notEqual(new ZipArchive([...entries].reverse(), blobs.open).etag, archive.etag);
  });

  it('Info-ZIP unzip -t accepts the archive, -Z1 lists the names, -p extracts the same bytes', { skip: NO_UNZIP }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-zip-'));
    try {
      const zipPath = path.join(dir, 'a.zip');
      writeFileSync(zipPath, bytes);
      const test = spawnSync('unzip', ['-t', zipPath], { encoding: 'utf8' });
      assert.equal(test.status, 0, test.stdout + test.stderr);
      assert.match(test.stdout, /No errors detected/);
      const names = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).split('\n').filter(Boolean);
      assert.deepEqual(names, entries.map((e) => e.name));
      assert.deepEqual(execFileSync('unzip', ['-p', zipPath, 'top/a.txt']), alpha);
      assert.deepEqual(execFileSync('unzip', ['-p', zipPath, 'top/big.bin'], { maxBuffer: 1 << 20 }), big);
      // -p with no names writes every file in archive order.
      assert.deepEqual(execFileSync('unzip', ['-p', zipPath], { maxBuffer: 1 << 20 }), Buffer.concat([alpha, unicodeBody, big]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Info-ZIP unzip -t also accepts a broken download resumed with ranges (pieces concatenated)', { skip: NO_UNZIP }, async () => {
    const cuts = [0, 17, 40, 1000, 50_000, archive.size - 30, archive.size].sort((a, b) => a - b);
    const pieces: Buffer[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) pieces.push(await collect(archive.stream({ start: cuts[i]!, end: cuts[i + 1]! - 1 })));
    const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-zip-'));
    try {
      const zipPath = path.join(dir, 'resumed.zip');
      writeFileSync(zipPath, Buffer.concat(pieces));
      const test = spawnSync('unzip', ['-t', zipPath], { encoding: 'utf8' });
      assert.equal(test.status, 0, test.stdout + test.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ZipArchive ranged streaming (RFC 9110 §14 over the archive)', () => {
  const blobs = new Blobs();
  const entries: ZipEntry[] = [folder('d/'), file(blobs, 'd/fixed.bin', randomBytes(2000))];
  for (let i = 0; i < 12; i++) entries.push(file(blobs, `d/f${i}-ü.bin`, randomBytes(randomInt(0, 3000))));
  const archive = new ZipArchive(entries, blobs.open);
  let whole: Buffer;

  before(async () => {
    whole = await collect(archive.stream());
  });

  it('each range is exactly the slice of the whole stream (random ranges, every boundary kind)', async () => {
    const ranges: ByteRange[] = [
      { start: 0, end: 0 },
      { start: 0, end: archive.size - 1 },
      { start: archive.size - 1, end: archive.size - 1 },
      { start: archive.size - 22, end: archive.size - 1 },
      { start: 29, end: 31 }, // across the end of the first local header
    ];
    for (let i = 0; i < 150; i++) {
      const start = randomInt(0, archive.size);
      ranges.push({ start, end: randomInt(start, Math.min(archive.size, start + (i % 2 ? 64 : 20_000))) });
    }
    for (const range of ranges) {
      const part = await collect(archive.stream(range));
      assert.deepEqual(part, whole.subarray(range.start, range.end + 1), JSON.stringify(range));
    }
  });

  it('a range inside the central directory opens no blob; a range in one file opens only that blob, only that part', async () => {
    const end = readEnd(whole, whole.length);
    blobs.calls.length = 0;
    await collect(archive.stream({ start: end.centralOffset, end: archive.size - 1 }));
    assert.deepEqual(blobs.calls, []);

    const records = readCentral(whole.subarray(end.centralOffset, end.centralOffset + end.centralSize));
    const target = records.findIndex((r) => r.size > 100);
    const r = records[target]!;
    const dataStart = r.localOffset + 30 + Buffer.byteLength(r.name);
    await collect(archive.stream({ start: dataStart + 10, end: dataStart + 49 }));
    assert.deepEqual(blobs.calls, [{ blobId: entries[target]!.blobId, range: { start: 10, end: 49 } }]);
  });
});

describe('ZipArchive ZIP64 thresholds (APPNOTE §4.3.14, §4.3.15, §4.4.1.4, §4.5.3)', () => {
  /** A blob of `size` zero bytes that is never materialised: it serves any range as zeros. */
  class Zeros {
    readonly calls: ByteRange[] = [];
    constructor(private readonly sizes: Map<string, number>) {}
    readonly open = async (blobId: string, range: ByteRange): Promise<Readable> => {
      const size = this.sizes.get(blobId);
      assert.ok(size !== undefined && range.start >= 0 && range.end < size && range.start <= range.end, `${blobId} ${JSON.stringify(range)}`);
      this.calls.push(range);
      return Readable.from([Buffer.alloc(range.end - range.start + 1)]);
    };
  }

  const zeroEntry = (name: string, size: number): ZipEntry => ({ name, size, crc32: crc32OfZeros(size), mtimeMs: Date.UTC(2024, 0, 1), blobId: name });

  /** Streams only the header regions; returns the local header bytes of each entry and the central directory and end records. */
  async function headers(z: ZipArchive, entries: ZipEntry[]) {
    const locals: Buffer[] = [];
    let offset = 0;
    for (const e of entries) {
      const length = 30 + Buffer.byteLength(e.name) + (e.size >= MAX32 ? 20 : 0);
      locals.push(await collect(z.stream({ start: offset, end: offset + length - 1 })));
      offset += length + e.size;
    }
    const tail = await collect(z.stream({ start: offset, end: z.size - 1 }));
    const end = readEnd(tail, z.size);
    assert.equal(end.centralOffset, offset);
    return { locals, end, central: readCentral(tail.subarray(0, end.centralSize)) };
  }

  it('a 0xFFFFFFFE-byte entry still fits the 32-bit fields: no ZIP64 in its headers (only the end records, the directory starting past 4 GiB)', async () => {
    const entries = [zeroEntry('just-under', MAX32 - 1)];
    const zeros = new Zeros(new Map([['just-under', MAX32 - 1]]));
    const z = new ZipArchive(entries, zeros.open);
    const { locals, end, central } = await headers(z, entries);
    assert.equal(locals[0]!.readUInt16LE(4), 20);
    assert.equal(locals[0]!.readUInt32LE(22), MAX32 - 1);
    assert.equal(locals[0]!.readUInt16LE(28), 0);
    assert.equal(central[0]!.size, MAX32 - 1);
    assert.equal(central[0]!.extra.length, 0);
    assert.equal(central[0]!.versionNeeded, 20);
    assert.equal(central[0]!.localOffset, 0);
    // The directory itself starts at 30 + 10 + 0xFFFFFFFE > 0xFFFFFFFF: that offset alone needs the ZIP64 end record.
    assert.ok(end.zip64, 'a ZIP64 end record and locator');
    assert.equal(end.classic.centralOffset, MAX32);
    assert.equal(end.zip64.centralOffset, 30 + 10 + MAX32 - 1);
    assert.deepEqual(zeros.calls, [], 'no data was read');
  });

  it('an entry of exactly 0xFFFFFFFF bytes needs ZIP64 (the value itself is the marker); a later entry past 4 GiB gets a 64-bit offset', async () => {
    const sizes = new Map([
      ['edge', MAX32],
      ['after', 5],
    ]);
    const entries = [zeroEntry('edge', MAX32), zeroEntry('after', 5)];
    const zeros = new Zeros(sizes);
    const z = new ZipArchive(entries, zeros.open);
    const { locals, end, central } = await headers(z, entries);

    // §4.5.3: the local header of a big entry has both sizes, 0xFFFFFFFF in the 32-bit fields.
    const l0 = locals[0]!;
    assert.equal(l0.readUInt16LE(4), 45, 'version needed 4.5');
    assert.equal(l0.readUInt32LE(18), MAX32);
    assert.equal(l0.readUInt32LE(22), MAX32);
    assert.equal(l0.readUInt16LE(28), 20);
    assert.deepEqual(zip64Values(l0.subarray(30 + 4)), [BigInt(MAX32), BigInt(MAX32)]);

    // The small entry's local header needs no ZIP64 even though it starts past 4 GiB.
    assert.equal(locals[1]!.readUInt16LE(4), 20);
    assert.equal(locals[1]!.readUInt16LE(28), 0);

    const [c0, c1] = central;
    assert.equal(c0!.versionNeeded, 45);
    assert.equal(c0!.size, MAX32);
    assert.equal(c0!.compressedSize, MAX32);
    assert.equal(c0!.localOffset, 0);
    assert.deepEqual(zip64Values(c0!.extra), [BigInt(MAX32), BigInt(MAX32)], 'sizes only: the offset fits');

    const offset1 = 30 + 4 + 20 + MAX32;
    assert.equal(c1!.versionNeeded, 45);
    assert.equal(c1!.size, 5);
    assert.equal(c1!.localOffset, MAX32, 'offset field is the marker');
    assert.deepEqual(zip64Values(c1!.extra), [BigInt(offset1)], 'offset only, in the §4.5.3 order');

    // §4.3.14: the central directory starts past 4 GiB, so the ZIP64 end record and locator are present.
    assert.ok(end.zip64, 'a ZIP64 end record and locator');
    assert.equal(end.classic.centralOffset, MAX32);
    assert.equal(end.zip64.centralOffset, offset1 + 30 + 5 + 5);
    assert.equal(end.zip64.count, 2);
    assert.equal(z.size, end.zip64.centralOffset + end.zip64.centralSize + 56 + 20 + 22);
    assert.deepEqual(zeros.calls, []);
  });

  it('a local header at offset 0xFFFFFFFF exactly (the marker value) gets its offset in the ZIP64 extra; one byte earlier does not', async () => {
    for (const [shift, needs64] of [
      [0, true],
      [1, false],
    ] as const) {
      const firstSize = MAX32 - 31 - shift; // 30 + "a" + data ends at 0xFFFFFFFF - shift
      const entries = [zeroEntry('a', firstSize), zeroEntry('b', 1)];
      const z = new ZipArchive(entries, new Zeros(new Map([['a', firstSize], ['b', 1]])).open);
      const { central } = await headers(z, entries);
      const b = central[1]!;
      if (needs64) {
        assert.equal(b.localOffset, MAX32);
        assert.equal(b.versionNeeded, 45);
        assert.deepEqual(zip64Values(b.extra), [BigInt(MAX32)]);
      } else {
        assert.equal(b.localOffset, MAX32 - 1);
        assert.equal(b.versionNeeded, 20);
        assert.equal(b.extra.length, 0);
      }
    }
  });

  it('65534 entries fit the 16-bit count; 65535 (the marker value) need the ZIP64 end record', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => folder(`${i}/`));
    const tailOf = async (z: ZipArchive) => collect(z.stream({ start: z.size - 22 - 20 - 56, end: z.size - 1 }));

    const fits = new ZipArchive(many(65534), new Blobs().open);
    const e1 = readEnd(await tailOf(fits), fits.size);
    assert.equal(e1.zip64, null);
    assert.equal(e1.classic.count, 65534);

    const over = new ZipArchive(many(65535), new Blobs().open);
    const e2 = readEnd(await tailOf(over), over.size);
    assert.ok(e2.zip64, 'a ZIP64 end record and locator');
    assert.equal(e2.classic.count, 0xffff);
    assert.equal(e2.zip64.count, 65535);
    assert.equal(e2.classic.centralOffset, e2.zip64.centralOffset, 'offsets below 4 GiB stay in the classic record too');
    assert.equal(over.size - fits.size, 30 + 6 + 46 + 6 + 56 + 20, 'one more entry ("65534/") plus the two ZIP64 records');
  });

  it('ranges across a 4 GiB entry equal the bytes a reader sees, and read only the zero blob parts they cover', async () => {
    const sizes = new Map([
      ['huge', 2 ** 32 + 10],
      ['tail', 3],
    ]);
    const entries = [zeroEntry('huge', 2 ** 32 + 10), zeroEntry('tail', 3)];
    const zeros = new Zeros(sizes);
    const z = new ZipArchive(entries, zeros.open);
    const { locals } = await headers(z, entries);
    const dataStart = locals[0]!.length;
    const out = await collect(z.stream({ start: dataStart - 5, end: dataStart + 4 }));
    assert.deepEqual(out, Buffer.concat([locals[0]!.subarray(-5), Buffer.alloc(5)]));
    assert.deepEqual(zeros.calls, [{ start: 0, end: 4 }]);
    zeros.calls.length = 0;
    const edge = dataStart + 2 ** 32 + 10; // the second local header
    const across = await collect(z.stream({ start: edge - 2, end: edge + 3 }));
    assert.deepEqual(across, Buffer.concat([Buffer.alloc(2), locals[1]!.subarray(0, 4)]));
    assert.deepEqual(zeros.calls, [{ start: 2 ** 32 + 8, end: 2 ** 32 + 9 }]);
  });

  describe('Info-ZIP reads the ZIP64 archive (headers written into a sparse file)', { skip: NO_UNZIP }, () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'cirrus-zip64-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('unzip -Z -v shows the 64-bit sizes and offsets; unzip -t on the small entry passes', async () => {
      const size = 2 ** 32 + 1;
      const entries = [zeroEntry('huge.bin', size), zeroEntry('small.txt', 3)];
      // small.txt is really "abc": its blob and CRC are real.
      const abc = Buffer.from('abc');
      entries[1] = { ...entries[1]!, crc32: crc32(abc) };
      const z = new ZipArchive(entries, async (blobId, range) => {
        assert.equal(blobId, 'small.txt', 'the 4 GiB blob is never read');
        return Readable.from([abc.subarray(range.start, range.end + 1)]);
      });
      const zipPath = path.join(dir, 'big.zip');
      const fd = openSync(zipPath, 'w');
      try {
        const first = 30 + 'huge.bin'.length + 20;
        writeSync(fd, await collect(z.stream({ start: 0, end: first - 1 })), 0, first, 0);
        const rest = first + size;
        const tail = await collect(z.stream({ start: rest, end: z.size - 1 }));
        writeSync(fd, tail, 0, tail.length, rest); // the 4 GiB of zeros in between are a hole
      } finally {
        closeSync(fd);
      }
      const info = spawnSync('unzip', ['-Z', '-v', zipPath], { encoding: 'utf8' });
      assert.equal(info.status, 0, info.stdout + info.stderr);
      assert.match(info.stdout, /huge\.bin/);
      assert.match(info.stdout, /uncompressed size:\s+4294967297 bytes/);
      assert.match(info.stdout, /offset of local header from start of archive:\s+4294967355/);
      const small = spawnSync('unzip', ['-t', zipPath, 'small.txt'], { encoding: 'utf8' });
      assert.equal(small.status, 0, small.stdout + small.stderr);
      assert.match(small.stdout, /testing: small\.txt\s+OK/);
      assert.deepEqual(execFileSync('unzip', ['-p', zipPath, 'small.txt']), abc);
    });
  });
});

describe('ZipArchive names shared through parents (issue 19 item 2)', () => {
  const when = Date.UTC(2024, 0, 1);
  /** A chain of `depth` folders of 250-byte names ("…/" included), each in the one before. */
  const chain = (depth: number): ZipEntry[] =>
    Array.from({ length: depth }, (_, i) => ({ name: `${String(i).padStart(3, '0')}${'x'.repeat(246)}/`, parent: i - 1, size: 0, crc32: 0, mtimeMs: when, blobId: null }));

  it('APPNOTE §4.4.10: the headers hold full names; planning memory follows the entry count, not the sum of path lengths', async () => {
    // 255 levels (63,750-byte names at the bottom) and 4,000 files there: the
    // full names add up to 255 MB, which the plan must never hold.
    const entries = chain(255);
    for (let j = 0; j < 4000; j++) entries.push({ name: `f${j}.txt`, parent: 254, size: 0, crc32: 0, mtimeMs: when, blobId: null });
    const before = process.memoryUsage().arrayBuffers;
    const z = new ZipArchive(entries, new Blobs().open);
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown < 16 * 1024 * 1024, `planning took ${grown} bytes of buffers`);
    const deepest = entries.slice(0, 255).map((e) => e.name).join('');
    const lastName = `${deepest}f3999.txt`;
    let expected = 22;
    for (let i = 0; i < entries.length; i++) {
      const len = i < 255 ? 250 * (i + 1) : Buffer.byteLength(`${deepest}f${i - 255}.txt`);
      expected += 30 + len + 46 + len;
    }
    assert.equal(z.size, expected);
    // The last central header, read as a range: its name is the whole path.
    const tail = await collect(z.stream({ start: z.size - 22 - 46 - lastName.length, end: z.size - 1 }));
    assert.equal(tail.readUInt32LE(0), SIG_CENTRAL);
    assert.equal(tail.readUInt16LE(28), lastName.length);
    assert.equal(tail.subarray(46, 46 + lastName.length).toString('utf8'), lastName);
    // And the first local header of a file: the same name, up front.
    const firstFileAt = entries.slice(0, 255).reduce((n, _e, i) => n + 30 + 250 * (i + 1), 0);
    const head = await collect(z.stream({ start: firstFileAt, end: firstFileAt + 30 + deepest.length + 7 }));
    assert.equal(head.readUInt32LE(0), SIG_LOCAL);
    assert.equal(head.subarray(30, 30 + deepest.length + 6).toString('utf8'), `${deepest}f0.txt`);
  });

  it('APPNOTE §4.4.10: a name over 65,535 bytes is refused while planning (400/40001), before any byte', () => {
    assert.throws(
      () => new ZipArchive(chain(263), new Blobs().open),
      (err: Error & { code?: number }) => err.code === 40001 && /65750 bytes long; a ZIP entry name holds at most 65535 bytes/.test(err.message),
    );
    assert.equal(new ZipArchive(chain(262), new Blobs().open).entryCount, 262);
  });
});
