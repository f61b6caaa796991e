// decodeText with a byte limit (search/extract/text.ts): a cut that falls
// inside a character keeps the encoding that was detected, instead of making
// the text look invalid and sending it to the next guess.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeText } from '../../src/search/extract/text.js';

describe('decodeText with a byte limit', () => {
  it('UTF-8 cut inside a three-byte character keeps the characters before it', () => {
    const bytes = Buffer.from('aé中文', 'utf8'); // 1 + 2 + 3 + 3 bytes
    assert.equal(decodeText(bytes, 5), 'aé');
    assert.equal(decodeText(bytes, 6), 'aé中');
    assert.equal(decodeText(bytes), 'aé中文');
  });

  it('GB18030 cut inside a two-byte character stays GB18030', () => {
    // "中文测试" in GB18030 (two bytes each), not valid UTF-8.
    const bytes = Uint8Array.from([0xd6, 0xd0, 0xce, 0xc4, 0xb2, 0xe2, 0xca, 0xd4]);
    assert.equal(decodeText(bytes), '中文测试');
    assert.equal(decodeText(bytes, 5), '中文');
  });

  it('UTF-16 with a byte-order mark cut at an odd byte', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]);
    assert.equal(decodeText(bytes, 7), 'hé');
  });
});
