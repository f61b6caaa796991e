// OC-Checksum (api-contract §14): "SHA1:<hex>", "MD5:<hex>" or
// "ADLER32:<hex>" on an upload. The body is hashed as it streams; a mismatch
// fails the stream at its end, before the upload is committed, so a wrong
// checksum stores nothing.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { DavError } from '../webdav/errors.js';

export type ChecksumType = 'SHA1' | 'MD5' | 'ADLER32' | 'SHA256';

export interface Checksum {
  type: ChecksumType;
  hex: string;
}

const LENGTH: Record<ChecksumType, number> = { SHA1: 40, MD5: 32, ADLER32: 8, SHA256: 64 };

/** The first checksum of a header the server can verify; undefined without the header; 400 when it is malformed. */
export function parseChecksum(header: string | undefined): Checksum | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  for (const part of header.trim().split(/\s+/)) {
    const m = /^([A-Za-z0-9]+):([0-9a-fA-F]+)$/.exec(part);
    if (!m) throw new DavError(400, 'OC-Checksum must be TYPE:hex (SHA1, MD5 or ADLER32)');
    const type = m[1]!.toUpperCase() as ChecksumType;
    if (!(type in LENGTH)) continue;
    if (m[2]!.length !== LENGTH[type]) throw new DavError(400, `OC-Checksum: a ${type} checksum has ${LENGTH[type]} hex digits`);
    return { type, hex: m[2]!.toLowerCase() };
  }
  throw new DavError(400, 'OC-Checksum names no supported type (SHA1, MD5, ADLER32)');
}

export function formatChecksum(c: Checksum): string {
  return `${c.type}:${c.hex}`;
}

/** Adler-32 (RFC 1950 §9), incrementally. */
class Adler32 {
  private a = 1;
  private b = 0;
  update(data: Uint8Array): void {
    let a = this.a;
    let b = this.b;
    // 5552 bytes is the most that can be summed before the 32-bit values must be reduced.
    for (let i = 0; i < data.length; ) {
      const end = Math.min(i + 5552, data.length);
      for (; i < end; i++) {
        a += data[i]!;
        b += a;
      }
      a %= 65521;
      b %= 65521;
    }
    this.a = a;
    this.b = b;
  }
  hex(): string {
    return ((this.b * 65536 + this.a) >>> 0).toString(16).padStart(8, '0');
  }
}

export class ChecksumDigest {
  private readonly hash: Hash | null;
  private readonly adler: Adler32 | null;
  constructor(readonly type: ChecksumType) {
    this.adler = type === 'ADLER32' ? new Adler32() : null;
    this.hash = type === 'ADLER32' ? null : createHash(type === 'SHA1' ? 'sha1' : type === 'MD5' ? 'md5' : 'sha256');
  }
  update(data: Uint8Array): void {
    if (this.adler) this.adler.update(data);
    else this.hash!.update(data);
  }
  hex(): string {
    return this.adler ? this.adler.hex() : this.hash!.digest('hex');
  }
}

const mismatch = (expected: Checksum) => new DavError(400, `The ${expected.type} checksum of the body does not match OC-Checksum`);

/** A pass-through that fails at the end when the bytes do not match `expected`. */
export function verifying(expected: Checksum): Transform {
  const digest = new ChecksumDigest(expected.type);
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      digest.update(chunk);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (digest.hex() !== expected.hex) done(mismatch(expected));
      else done();
    },
  });
}

/** Reads bytes already stored to their end; 400 when they do not match `expected`. */
export async function verify(source: Readable, expected: Checksum): Promise<void> {
  const digest = new ChecksumDigest(expected.type);
  for await (const chunk of source) digest.update(chunk as Buffer);
  if (digest.hex() !== expected.hex) throw mismatch(expected);
}
