// Unit tests of crypto/jwt.ts: HS256 JSON Web Tokens (RFC 7519, RFC 7515)
// as api-contract §2 and §4 define them: only HS256 (RFC 8725 §3.1: `none`
// and every other alg refused), the key is the UTF-8 bytes of the master key
// string, and exp/nbf carry at most 30 s of clock leeway. Interoperability is
// checked against jose, an independent implementation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { CLOCK_LEEWAY_SECONDS, Hs256, JwtError, checkTimes } from '../../src/crypto/jwt.js';

const SECRET = 'master-key-öäü-0123456789abcdefghijklmnopqrstuvwxyz';
const jwt = new Hs256(SECRET);
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token with any header and payload, signed with HMAC-SHA256 under `secret` by hand. */
function handMade(header: unknown, payload: unknown, secret = SECRET): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(input).digest('base64url')}`;
}

function refused(token: string, message: RegExp, verifier = jwt): void {
  assert.throws(
    () => verifier.verify(token),
    (err: unknown) => {
      assert.ok(err instanceof JwtError, String(err));
      assert.match(err.message, message);
      return true;
    },
    token.slice(0, 80),
  );
}

describe('Hs256.sign / verify', () => {
  const claims = { token_type: 'access', sub: 'u1', exp: 2_000_000_000, nbf: 1_700_000_000, scopes: ['Files.Read'], name: 'ü 日本' };

  it('round trip: verify returns exactly the signed claims', () => {
    assert.deepEqual(jwt.verify(jwt.sign(claims)), claims);
  });

  it('RFC 7515 §7.1 compact form: base64url header {"alg":"HS256","typ":"JWT"}, payload, signature, no padding', () => {
    const token = jwt.sign(claims);
    const [h, p, s] = token.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(h!, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
    assert.deepEqual(JSON.parse(Buffer.from(p!, 'base64url').toString()), claims);
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.equal(s, createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(`${h}.${p}`).digest('base64url'), 'api-contract §4: key = UTF-8 bytes of the master key');
  });

  it('interoperates with jose in both directions', async () => {
    const key = new TextEncoder().encode(SECRET);
    const ours = jwt.sign(claims);
    const { payload, protectedHeader } = await jwtVerify(ours, key, { algorithms: ['HS256'], currentDate: new Date(1_800_000_000_000) });
    assert.equal(protectedHeader.alg, 'HS256');
    assert.deepEqual(payload, claims);
    const theirs = await new SignJWT({ sub: 'u2', token_type: 'access' }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' }).setExpirationTime(2_000_000_000).sign(key);
    assert.deepEqual(jwt.verify(theirs), { sub: 'u2', token_type: 'access', exp: 2_000_000_000 });
  });

  it('another header spelling of HS256 (extra members, other order) verifies when signed', () => {
    assert.deepEqual(jwt.verify(handMade({ typ: 'JWT', alg: 'HS256', kid: 'x' }, { sub: 'a' })), { sub: 'a' });
  });

  it('a wrong key is refused, even one differing in one character or only in encoding', () => {
    const token = jwt.sign(claims);
    refused(token, /bad signature/, new Hs256(SECRET.slice(0, -1) + 'Z'));
    refused(token, /bad signature/, new Hs256(''.padEnd(SECRET.length, 'x')));
    refused(token, /bad signature/, new Hs256(SECRET.normalize('NFD')));
    refused(handMade({ alg: 'HS256' }, { sub: 'a' }, 'other key'), /bad signature/);
  });

  it('any change to the header or payload breaks the signature', () => {
    const [h, p, s] = jwt.sign(claims).split('.');
    refused(`${h}.${b64({ ...claims, sub: 'admin' })}.${s}`, /bad signature/);
    refused(`${b64({ alg: 'HS256', typ: 'JWT', kid: 'x' })}.${p}.${s}`, /bad signature/);
    const flipped = (s!.startsWith('A') ? 'B' : 'A') + s!.slice(1);
    refused(`${h}.${p}.${flipped}`, /bad signature/);
  });

  it('RFC 8725 §3.1 / api-contract §2: alg "none" is refused, with or without a signature part', () => {
    const payload = b64({ sub: 'admin', exp: 2_000_000_000 });
    refused(`${b64({ alg: 'none' })}.${payload}.`, /malformed token/);
    refused(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${'A'.repeat(43)}`, /unsupported alg/);
    refused(handMade({ alg: 'none' }, { sub: 'admin' }), /unsupported alg/);
  });

  it('every alg other than HS256 is refused, spelling variants and a missing alg included', () => {
    for (const alg of ['HS384', 'HS512', 'RS256', 'ES256', 'PS256', 'EdDSA', 'hs256', 'HS256 ', 'NONE', 'None', '']) {
      refused(handMade({ alg, typ: 'JWT' }, { sub: 'a' }), /unsupported alg/);
    }
    refused(handMade({ typ: 'JWT' }, { sub: 'a' }), /unsupported alg/);
    refused(handMade({ alg: ['HS256'] }, { sub: 'a' }), /unsupported alg/);
  });

  it('RFC 7515 §4.1.11: a crit header (extensions we do not understand) is refused', () => {
    refused(handMade({ alg: 'HS256', crit: ['exp'] }, { sub: 'a' }), /crit/);
  });

  it('RFC 7519 §7.2: a header or payload that is not a JSON object is refused', () => {
    for (const payload of ['[1,2]', '"text"', '42', 'null', 'true', '{"a":1', 'not json']) {
      refused(handMade({ alg: 'HS256' }, payload), /malformed segment/);
    }
    refused(`${b64('[1]')}.${b64({ sub: 'a' })}.${'A'.repeat(43)}`, /malformed segment/);
    refused(`${b64('{"alg":')}.${b64({ sub: 'a' })}.${'A'.repeat(43)}`, /malformed segment/);
  });

  it('not three non-empty dot-separated parts: malformed', () => {
    const [h, p, s] = jwt.sign(claims).split('.');
    for (const token of ['', 'abc', `${h}.${p}`, `${h}.${p}.${s}.${s}`, `.${p}.${s}`, `${h}..${s}`, `${h}.${p}.`, `${h}.${p}.${s}.`, '..']) {
      refused(token, /malformed/);
    }
  });

  it('RFC 7515 §2: only the canonical unpadded base64url spelling is the token', () => {
    const [h, p, s] = jwt.sign(claims).split('.');
    refused(`${h}.${p}.${s}=`, /malformed signature/);
    refused(`${h}.${p}.${s!.slice(0, 20)}+${s!.slice(21)}`, /malformed signature|bad signature/);
    // 32 bytes are 43 characters with 2 unused bits in the last one: other values of those bits are other spellings.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s!.at(-1)!);
    for (let bits = 1; bits < 4; bits++) {
      const variant = s!.slice(0, -1) + alphabet[(last & ~3) | bits]!;
      assert.deepEqual(Buffer.from(variant, 'base64url'), Buffer.from(s!, 'base64url'), 'the same bytes');
      refused(`${h}.${p}.${variant}`, /malformed signature/);
    }
    // Characters outside base64url in a signed header or payload segment are refused too.
    const input = `${h}.${p}=`;
    const sig = createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(input).digest('base64url');
    refused(`${input}.${sig}`, /malformed segment/);
  });

  it('a token over 8192 characters is refused before any work', () => {
    const big = jwt.sign({ sub: 'a', pad: 'x'.repeat(7000) });
    assert.ok(big.length > 8192, `${big.length} characters`);
    refused(big, /too long/);
    const fits = jwt.sign({ sub: 'a', pad: 'x'.repeat(6000) });
    assert.ok(fits.length <= 8192, `${fits.length} characters`);
    assert.equal(jwt.verify(fits).sub, 'a');
  });
});

describe('checkTimes (api-contract §2: exp ahead, nbf behind, at most 30 s leeway)', () => {
  const NOW = 1_700_000_000;
  const ok = (claims: Record<string, unknown>) => assert.doesNotThrow(() => checkTimes(claims, NOW), JSON.stringify(claims));
  const fails = (claims: Record<string, unknown>, message: RegExp) =>
    assert.throws(() => checkTimes(claims, NOW), (err: unknown) => err instanceof JwtError && message.test(err.message), JSON.stringify(claims));

  it('the leeway is 30 seconds', () => {
    assert.equal(CLOCK_LEEWAY_SECONDS, 30);
  });

  it('RFC 7519 §4.1.4: exp is required and must be a finite number', () => {
    fails({}, /missing exp/);
    fails({ exp: String(NOW + 100) }, /missing exp/);
    fails({ exp: null }, /missing exp/);
    fails({ exp: Infinity }, /missing exp/);
    fails({ exp: NaN }, /missing exp/);
  });

  it('RFC 7519 §4.1.4: a token is accepted until exp + leeway, refused from then on', () => {
    ok({ exp: NOW + 3600 });
    ok({ exp: NOW });
    ok({ exp: NOW - 29 });
    fails({ exp: NOW - 30 }, /expired/);
    fails({ exp: NOW - 31 }, /expired/);
    fails({ exp: 0 }, /expired/);
  });

  it('RFC 7519 §4.1.5: nbf up to 30 s in the future is accepted, more is not', () => {
    ok({ exp: NOW + 60, nbf: NOW });
    ok({ exp: NOW + 60, nbf: NOW + 30 });
    fails({ exp: NOW + 60, nbf: NOW + 31 }, /not yet valid/);
  });

  it('a nbf that is not a number is refused', () => {
    fails({ exp: NOW + 60, nbf: String(NOW) }, /not yet valid/);
    fails({ exp: NOW + 60, nbf: null }, /not yet valid/);
  });

  it('iat is not a time check of this function (api-contract §2: iat is optional; sessions/access-tokens.ts checks its type)', () => {
    ok({ exp: NOW + 60, iat: NOW + 10_000 });
    ok({ exp: NOW + 60, iat: 'yesterday' });
  });
});
