// CRC-32 arithmetic beyond node:zlib's crc32: combining the CRCs of two
// pieces (zlib's crc32_combine, GF(2) matrix method) and the CRC of a run of
// zero bytes in O(log n), so a fully sparse file needs no reading.
import { crc32 } from 'node:zlib';

function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function square(out: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(mat, mat[n]!);
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0) odd[n] = row;
  square(even, odd);
  square(odd, even);
  let crc = crcA >>> 0;
  let len = lengthB;
  for (;;) {
    square(even, odd);
    if (len % 2 === 1) crc = times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    square(odd, even);
    if (len % 2 === 1) crc = times(odd, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}

const ONE_ZERO = crc32(Buffer.alloc(1));

/** The CRC-32 of `n` zero bytes. */
export function crc32OfZeros(n: number): number {
  let crc = 0;
  let length = 0;
  for (let bit = Math.floor(Math.log2(Math.max(n, 1))); bit >= 0; bit--) {
    crc = crc32Combine(crc, crc, length);
    length *= 2;
    if (Math.floor(n / 2 ** bit) % 2 === 1) {
      crc = crc32Combine(crc, ONE_ZERO, 1);
      length += 1;
    }
  }
  return crc;
}
