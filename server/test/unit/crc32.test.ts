// Unit tests of files/crc32.ts against node:zlib's crc32 (the CRC-32 of ISO
// 3309 / ITU-T V.42 that ZIP records, APPNOTE §4.4.7) on random data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { crc32Combine, crc32OfZeros } from '../../src/files/crc32.js';

describe('crc32Combine', () => {
  it('the check value: crc32("123456789") = 0xcbf43926, also when combined from pieces', () => {
    const all = Buffer.from('123456789');
    assert.equal(crc32(all), 0xcbf43926);
    for (let cut = 0; cut <= all.length; cut++) {
      const a = all.subarray(0, cut);
      const b = all.subarray(cut);
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), 0xcbf43926, `cut at ${cut}`);
    }
  });

  it('crc(A ‖ B) from crc(A), crc(B) and |B|, for random pieces of random lengths', () => {
    for (let i = 0; i < 300; i++) {
      const a = randomBytes(randomInt(0, 300));
      const b = randomBytes(randomInt(0, i < 290 ? 300 : 200_000));
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(Buffer.concat([a, b])), `|A|=${a.length} |B|=${b.length}`);
    }
  });

  it('agrees with zlib continuing a CRC: crc32(B, crc(A))', () => {
    for (let i = 0; i < 50; i++) {
      const a = randomBytes(randomInt(1, 1000));
      const b = randomBytes(randomInt(1, 5000));
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(b, crc32(a)));
    }
  });

  it('an empty B leaves crc(A) unchanged; an empty A gives crc(B)', () => {
    const a = randomBytes(100);
    const b = randomBytes(100);
    assert.equal(crc32Combine(crc32(a), 0, 0), crc32(a));
    assert.equal(crc32Combine(0, crc32(b), b.length), crc32(b));
  });

  it('folds many pieces left to right into the CRC of the whole', () => {
    const pieces = Array.from({ length: 40 }, () => randomBytes(randomInt(0, 2000)));
    let crc = 0;
    for (const p of pieces) crc = crc32Combine(crc, crc32(p), p.length);
    assert.equal(crc, crc32(Buffer.concat(pieces)));
  });

  it('results are unsigned 32-bit numbers', () => {
    for (let i = 0; i < 100; i++) {
      const r = crc32Combine(randomInt(0, 2 ** 32), randomInt(0, 2 ** 32), randomInt(1, 2 ** 40));
      assert.ok(Number.isInteger(r) && r >= 0 && r < 2 ** 32, String(r));
    }
  });
});

describe('crc32OfZeros', () => {
  it('equals zlib on n zero bytes for every n up to 1100 and for a few larger n', () => {
    for (let n = 0; n <= 1100; n++) assert.equal(crc32OfZeros(n), crc32(Buffer.alloc(n)), `n=${n}`);
    for (const n of [4095, 4096, 65535, 65536, 65537, 1 << 20, (1 << 20) + 3, 3_000_001]) {
      assert.equal(crc32OfZeros(n), crc32(Buffer.alloc(n)), `n=${n}`);
    }
  });

  it('beyond 4 GiB (a sparse ZIP64 entry): zeros(a + b) = combine(zeros(a), zeros(b), b)', () => {
    const cases: [number, number][] = [
      [2 ** 32, 1],
      [2 ** 32 - 1, 1],
      [2 ** 33 + 12345, 2 ** 32 + 7],
      [5 * 2 ** 30, 3],
    ];
    for (const [a, b] of cases) {
      assert.equal(crc32OfZeros(a + b), crc32Combine(crc32OfZeros(a), crc32OfZeros(b), b), `${a} + ${b}`);
    }
  });

  it('a file with data then a zero tail: combine(crc(data), zeros(n), n) = crc(data ‖ zeros)', () => {
    const data = randomBytes(777);
    const n = 100_003;
    assert.equal(crc32Combine(crc32(data), crc32OfZeros(n), n), crc32(Buffer.concat([data, Buffer.alloc(n)])));
  });
});
