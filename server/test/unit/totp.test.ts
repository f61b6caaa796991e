// Unit tests of crypto/totp.ts: HOTP (RFC 4226) / TOTP (RFC 6238) with
// SHA-1, 6 digits and 30-second steps, and the RFC 4648 base32 of the shared
// secret, checked against the RFCs' own test vectors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { base32Decode, base32Encode, matchTotp, newTotpSecret, otpauthUri, totpAt } from '../../src/crypto/totp.js';

/** RFC 4226 Appendix D and RFC 6238 Appendix B: the ASCII secret "12345678901234567890". */
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890', 'ascii'));

describe('base32 (RFC 4648 §6)', () => {
  it('§10 test vectors (we write no padding; padding is accepted when reading)', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY======'],
      ['fo', 'MZXQ===='],
      ['foo', 'MZXW6==='],
      ['foob', 'MZXW6YQ='],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI======'],
    ];
    for (const [plain, encoded] of vectors) {
      assert.equal(base32Encode(Buffer.from(plain)), encoded.replace(/=+$/, ''), plain);
      assert.equal(base32Decode(encoded).toString(), plain, encoded);
      assert.equal(base32Decode(encoded.replace(/=+$/, '')).toString(), plain, encoded);
    }
  });

  it('the RFC secret is the well-known GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', () => {
    assert.equal(RFC_SECRET, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('reading is case-insensitive, as authenticator apps display lower case too', () => {
    assert.deepEqual(base32Decode('mzxw6ytboi'), Buffer.from('foobar'));
  });

  it('characters outside the alphabet (0, 1, 8, 9, spaces) are refused', () => {
    for (const bad of ['MZXW0', 'MZXW1', 'MZ8', '9A', 'MZXW 6YTB', 'MZ-XW']) assert.throws(() => base32Decode(bad), /invalid base32/, bad);
  });

  it('random round trips', () => {
    for (let n = 0; n < 64; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 97 + n * 13) & 255));
      assert.deepEqual(base32Decode(base32Encode(bytes)), bytes);
    }
  });
});

describe('HOTP / TOTP codes', () => {
  it('RFC 4226 Appendix D: HOTP values for counters 0-9 (6 digits)', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => assert.equal(totpAt(RFC_SECRET, counter), code, `counter ${counter}`));
  });

  it('RFC 6238 Appendix B: the SHA-1 vectors, as 6-digit codes (the last 6 of the 8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'], // a time past 2^32 seconds (year 2603)
    ];
    for (const [seconds, code8] of vectors) {
      const step = Math.floor(seconds / 30);
      assert.equal(totpAt(RFC_SECRET, step), code8.slice(-6), `T=${seconds}`);
      assert.equal(matchTotp(RFC_SECRET, code8.slice(-6), seconds * 1000), step, `T=${seconds}`);
    }
  });

  it('codes are always six digits, leading zeros kept', () => {
    assert.equal(totpAt(RFC_SECRET, Math.floor(1111111109 / 30)), '081804');
    for (let c = 0; c < 200; c++) assert.match(totpAt(RFC_SECRET, c), /^\d{6}$/);
  });
});

describe('matchTotp', () => {
  const T = 1111111111 * 1000;
  const step = Math.floor(T / 30_000);

  it('accepts the current step and one step either side (clock drift), returning the step matched', () => {
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step), T), step);
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 1), T), step - 1);
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step + 1), T), step + 1);
  });

  it('refuses codes two steps away', () => {
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 2), T), null);
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step + 2), T), null);
  });

  it('steps are 30 s long: the previous step is accepted to the last millisecond of this one, not one millisecond later', () => {
    const start = step * 30_000;
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 1), start + 29_999), step - 1);
    assert.equal(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 1), start + 30_000), null);
  });

  it('refuses anything that is not exactly six ASCII digits', () => {
    const good = totpAt(RFC_SECRET, step);
    for (const otp of ['', good.slice(1), `${good}0`, ` ${good}`, `${good}\n`, good.replace(/\d/, 'a'), '１２３４５６', '-12345', '12345.']) {
      assert.equal(matchTotp(RFC_SECRET, otp, T), null, JSON.stringify(otp));
    }
  });

  it('a code for another secret does not match', () => {
    const other = base32Encode(Buffer.from('another secret value'));
    assert.equal(matchTotp(other, totpAt(RFC_SECRET, step), T), null);
  });
});

describe('secrets and the otpauth URI', () => {
  it('a new secret is 160 random bits (RFC 4226 §4 recommends 160) in base32', () => {
    const a = newTotpSecret();
    assert.match(a, /^[A-Z2-7]{32}$/);
    assert.equal(base32Decode(a).length, 20);
    assert.notEqual(newTotpSecret(), a);
  });

  it('the Key URI names the issuer and account, and states SHA1, 6 digits and 30 s', () => {
    const uri = new URL(otpauthUri(RFC_SECRET, 'alice@example.com', 'Cirrus Cloud'));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.host, 'totp');
    assert.equal(decodeURIComponent(uri.pathname.slice(1)), 'Cirrus Cloud:alice@example.com');
    assert.equal(uri.searchParams.get('secret'), RFC_SECRET);
    assert.equal(uri.searchParams.get('issuer'), 'Cirrus Cloud');
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
  });

  it('an account or issuer with reserved characters cannot add parameters', () => {
    const uri = new URL(otpauthUri(RFC_SECRET, 'a&secret=AAAA', 'X?issuer=evil#'));
    assert.equal(uri.searchParams.getAll('secret').length, 1);
    assert.equal(uri.searchParams.get('secret'), RFC_SECRET);
    assert.equal(uri.searchParams.get('issuer'), 'X?issuer=evil#');
    assert.equal(uri.hash, '');
  });
});
