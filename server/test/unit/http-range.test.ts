// Unit tests of files/http-range.ts: byte ranges (RFC 9110 §14), conditional
// requests (RFC 9110 §13) and Content-Disposition (RFC 6266 with RFC 8187).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentDisposition, evaluatePreconditions, evaluateRange, ifRangeAllows, type Validators } from '../../src/files/http-range.js';

const partial = (start: number, end: number) => ({ kind: 'partial', range: { start, end } });
const FULL = { kind: 'full' };
const UNSATISFIABLE = { kind: 'unsatisfiable' };

describe('evaluateRange (RFC 9110 §14)', () => {
  it('no Range header: the whole representation', () => {
    assert.deepEqual(evaluateRange(undefined, 100), FULL);
  });

  it('§14.1.2 int-range: first-last, inclusive', () => {
    assert.deepEqual(evaluateRange('bytes=0-0', 100), partial(0, 0));
    assert.deepEqual(evaluateRange('bytes=0-499', 1000), partial(0, 499));
    assert.deepEqual(evaluateRange('bytes=500-999', 1000), partial(500, 999));
    assert.deepEqual(evaluateRange('bytes=999-999', 1000), partial(999, 999));
  });

  it('§14.1.2: a last-pos at or beyond the end is the remainder of the representation', () => {
    assert.deepEqual(evaluateRange('bytes=10-99', 50), partial(10, 49));
    assert.deepEqual(evaluateRange('bytes=10-50', 50), partial(10, 49));
    assert.deepEqual(evaluateRange('bytes=0-49', 50), partial(0, 49));
  });

  it('§14.1.2 open range: first- runs to the end', () => {
    assert.deepEqual(evaluateRange('bytes=0-', 10), partial(0, 9));
    assert.deepEqual(evaluateRange('bytes=9-', 10), partial(9, 9));
  });

  it('§14.1.2 suffix-range: -N is the last N bytes, all of it when N exceeds the length', () => {
    assert.deepEqual(evaluateRange('bytes=-1', 10), partial(9, 9));
    assert.deepEqual(evaluateRange('bytes=-500', 10000), partial(9500, 9999));
    assert.deepEqual(evaluateRange('bytes=-10', 10), partial(0, 9));
    assert.deepEqual(evaluateRange('bytes=-11', 10), partial(0, 9));
  });

  it('§14.1: the range unit is case-insensitive; whitespace around the set is tolerated', () => {
    assert.deepEqual(evaluateRange('Bytes=1-2', 10), partial(1, 2));
    assert.deepEqual(evaluateRange('BYTES = 1-2 ', 10), partial(1, 2));
  });

  it('§14.1.2: a first-pos at or past the length is unsatisfiable (416)', () => {
    assert.deepEqual(evaluateRange('bytes=10-', 10), UNSATISFIABLE);
    assert.deepEqual(evaluateRange('bytes=10-20', 10), UNSATISFIABLE);
    assert.deepEqual(evaluateRange('bytes=1000-', 10), UNSATISFIABLE);
  });

  it('§14.1.2: a suffix-range of length zero selects nothing: unsatisfiable', () => {
    assert.deepEqual(evaluateRange('bytes=-0', 10), UNSATISFIABLE);
  });

  it('§14.2: several ranges are answered with the whole representation (a server MAY ignore Range)', () => {
    assert.deepEqual(evaluateRange('bytes=0-1,5-6', 10), FULL);
    assert.deepEqual(evaluateRange('bytes=0-1, -2', 10), FULL);
    assert.deepEqual(evaluateRange('bytes=20-30,40-50', 10), FULL);
  });

  it('§5.6.1: empty list elements are not ranges (a lone range with a stray comma stays one range)', () => {
    assert.deepEqual(evaluateRange('bytes=2-3,', 10), partial(2, 3));
    assert.deepEqual(evaluateRange('bytes=,2-3', 10), partial(2, 3));
  });

  it('§14.2: an unknown unit or invalid syntax is ignored (200), never a 416', () => {
    for (const header of [
      'items=0-1',
      'bytes',
      'bytes=',
      'bytes=-',
      'bytes=a-b',
      'bytes=1-a',
      'bytes=0x10-0x20',
      'bytes=1.5-2',
      'bytes=+1-2',
      'bytes=1 - 2',
      'bytes=--1',
      'bytes=1-2-3',
      '=0-1',
      '0-1',
      'bytes=٣-٤', // Arabic-Indic digits are not DIGIT
    ]) {
      assert.deepEqual(evaluateRange(header, 10), FULL, header);
    }
  });

  it('§14.1.1: last-pos less than first-pos is invalid and ignored', () => {
    assert.deepEqual(evaluateRange('bytes=5-4', 10), FULL);
    assert.deepEqual(evaluateRange('bytes=50-4', 10), FULL);
  });

  it('zero-length representation: no int-range is satisfiable', () => {
    assert.deepEqual(evaluateRange('bytes=0-', 0), UNSATISFIABLE);
    assert.deepEqual(evaluateRange('bytes=0-0', 0), UNSATISFIABLE);
    assert.deepEqual(evaluateRange('bytes=-0', 0), UNSATISFIABLE);
    assert.deepEqual(evaluateRange(undefined, 0), FULL);
  });

  it(
    '§14.1.2: on a zero-length representation a suffix-range with a non-zero length is satisfiable, so it must not be 416',
    () => {
      assert.deepEqual(evaluateRange('bytes=-5', 0), FULL);
    },
  );

  it('§14.1.2: recipients MUST anticipate large numerals: positions past the length are clamped or unsatisfiable, never NaN', () => {
    const size = 5 * 2 ** 30; // a 5 GiB file: positions above 32 bits
    assert.deepEqual(evaluateRange('bytes=4294967296-', size), partial(4294967296, size - 1));
    assert.deepEqual(evaluateRange('bytes=4294967295-4294967296', size), partial(4294967295, 4294967296));
    assert.deepEqual(evaluateRange('bytes=0-99999999999999999999999999', size), partial(0, size - 1));
    assert.deepEqual(evaluateRange('bytes=-99999999999999999999999999', size), partial(0, size - 1));
    assert.deepEqual(evaluateRange('bytes=99999999999999999999999999-', size), UNSATISFIABLE);
    assert.deepEqual(evaluateRange(`bytes=0-${'9'.repeat(400)}`, 10), partial(0, 9)); // Number() gives Infinity
    assert.deepEqual(evaluateRange(`bytes=${'9'.repeat(400)}-`, 10), UNSATISFIABLE);
  });

  it('every satisfiable answer lies inside the representation (random single ranges)', () => {
    for (let i = 0; i < 2000; i++) {
      const size = Math.floor(Math.random() * 50);
      const a = Math.floor(Math.random() * 60);
      const b = Math.floor(Math.random() * 60);
      const form = i % 3;
      const header = form === 0 ? `bytes=${a}-${b}` : form === 1 ? `bytes=${a}-` : `bytes=-${b}`;
      const r = evaluateRange(header, size);
      if (r.kind === 'partial') {
        assert.ok(r.range.start >= 0 && r.range.start <= r.range.end && r.range.end < size, `${header} on ${size}: ${JSON.stringify(r)}`);
      }
      if (form === 0 && a <= b && a < size) assert.deepEqual(r, partial(a, Math.min(b, size - 1)), header);
      if (form === 2 && b > 0 && size > 0) assert.deepEqual(r, partial(Math.max(0, size - b), size - 1), header);
    }
  });
});

describe('evaluatePreconditions (RFC 9110 §13.2.2, GET/HEAD)', () => {
  const MTIME = Date.UTC(2024, 4, 1, 12, 0, 0, 700); // sub-second part must not matter
  const v: Validators = { etag: '"abc"', lastModified: MTIME };
  const HTTP_DATE = new Date(MTIME).toUTCString(); // what Last-Modified says: "Wed, 01 May 2024 12:00:00 GMT"
  const earlier = new Date(MTIME - 60_000).toUTCString();
  const later = new Date(MTIME + 60_000).toUTCString();

  it('no conditional headers: proceed', () => {
    assert.equal(evaluatePreconditions({}, v), 'proceed');
  });

  it('§13.1.1 If-Match uses the strong comparison: the same strong tag holds, a weak one never does', () => {
    assert.equal(evaluatePreconditions({ 'if-match': '"abc"' }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-match': '"x", "abc"' }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-match': 'W/"abc"' }, v), 'failed');
    assert.equal(evaluatePreconditions({ 'if-match': '"abd"' }, v), 'failed');
    assert.equal(evaluatePreconditions({ 'if-match': '"ABC"' }, v), 'failed');
    // A weak validator of our own never passes a strong comparison either (§8.8.3.2).
    assert.equal(evaluatePreconditions({ 'if-match': 'W/"abc"' }, { ...v, etag: 'W/"abc"' }), 'failed');
  });

  it('§13.1.1: If-Match: * holds for any current representation', () => {
    assert.equal(evaluatePreconditions({ 'if-match': '*' }, v), 'proceed');
  });

  it('§13.1.2 If-None-Match uses the weak comparison: a match is 304 for GET/HEAD', () => {
    assert.equal(evaluatePreconditions({ 'if-none-match': '"abc"' }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-none-match': 'W/"abc"' }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-none-match': '"abc"' }, { ...v, etag: 'W/"abc"' }), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-none-match': '"a", "b", W/"abc"' }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-none-match': '*' }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-none-match': '"other"' }, v), 'proceed');
  });

  it('§13.1.4 If-Unmodified-Since: failed only when modified after the date (one-second resolution)', () => {
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': HTTP_DATE }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': later }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': earlier }, v), 'failed');
  });

  it('§13.1.3 If-Modified-Since: 304 when not modified since the date; the Last-Modified value itself is "not modified"', () => {
    assert.equal(evaluatePreconditions({ 'if-modified-since': HTTP_DATE }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-modified-since': later }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-modified-since': earlier }, v), 'proceed');
  });

  it('§5.6.7: the obsolete RFC 850 date form is accepted', () => {
    assert.equal(evaluatePreconditions({ 'if-modified-since': 'Wednesday, 01-May-24 12:00:00 GMT' }, v), 'not-modified');
    assert.equal(evaluatePreconditions({ 'if-modified-since': 'Wednesday, 01-May-24 11:59:59 GMT' }, v), 'proceed');
  });

  it('§13.1.3/§13.1.4: a date that is not an HTTP-date is ignored', () => {
    assert.equal(evaluatePreconditions({ 'if-modified-since': 'yesterday' }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': 'not a date' }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-modified-since': `${HTTP_DATE}, ${HTTP_DATE}` }, v), 'proceed');
  });

  it(
    '§13.1.4: a recipient MUST ignore If-Unmodified-Since whose value is not an HTTP-date (here: "1")',
    () => {
      assert.equal(evaluatePreconditions({ 'if-unmodified-since': '1' }, v), 'proceed');
      assert.equal(evaluatePreconditions({ 'if-modified-since': '1' }, { ...v, lastModified: Date.UTC(1999, 0, 1) }), 'proceed');
    },
  );

  it(
    '§5.6.7: an asctime-date is GMT whatever the server time zone',
    () => {
      const saved = process.env.TZ;
      process.env.TZ = 'America/New_York';
      try {
        assert.equal(evaluatePreconditions({ 'if-modified-since': 'Wed May  1 12:00:00 2024' }, v), 'not-modified');
        assert.equal(evaluatePreconditions({ 'if-modified-since': 'Wed May  1 11:59:59 2024' }, v), 'proceed');
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    },
  );

  it('§13.2.2 step 1 before step 3: a failed If-Match wins over a matching If-None-Match', () => {
    assert.equal(evaluatePreconditions({ 'if-match': '"nope"', 'if-none-match': '"abc"' }, v), 'failed');
  });

  it('§13.2.2 step 2: If-Unmodified-Since is evaluated only when If-Match is absent', () => {
    assert.equal(evaluatePreconditions({ 'if-match': '"abc"', 'if-unmodified-since': earlier }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': earlier }, v), 'failed');
  });

  it('§13.2.2 step 4: If-Modified-Since is evaluated only when If-None-Match is absent', () => {
    assert.equal(evaluatePreconditions({ 'if-none-match': '"other"', 'if-modified-since': later }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-none-match': '"abc"', 'if-modified-since': earlier }, v), 'not-modified');
  });

  it('§13.2.2: a failed If-Unmodified-Since wins over a matching If-None-Match', () => {
    assert.equal(evaluatePreconditions({ 'if-unmodified-since': earlier, 'if-none-match': '"abc"' }, v), 'failed');
  });

  it('§5.3: repeated header lines are one comma-separated list', () => {
    assert.equal(evaluatePreconditions({ 'if-match': ['"x"', '"abc"'] }, v), 'proceed');
    assert.equal(evaluatePreconditions({ 'if-none-match': ['"x"', 'W/"abc"'] }, v), 'not-modified');
  });
});

describe('ifRangeAllows (RFC 9110 §13.1.5)', () => {
  const MTIME = Date.UTC(2024, 4, 1, 12, 0, 0, 250);
  const v: Validators = { etag: '"abc"', lastModified: MTIME };

  it('no If-Range: the Range applies', () => {
    assert.equal(ifRangeAllows(undefined, v), true);
  });

  it('an entity-tag must match by the strong comparison', () => {
    assert.equal(ifRangeAllows('"abc"', v), true);
    assert.equal(ifRangeAllows(' "abc" ', v), true);
    assert.equal(ifRangeAllows('"abd"', v), false);
  });

  it('a weak entity-tag never allows the range, even when it is ours', () => {
    assert.equal(ifRangeAllows('W/"abc"', v), false);
    assert.equal(ifRangeAllows('W/"abc"', { ...v, etag: 'W/"abc"' }), false);
  });

  it('a date must be exactly the Last-Modified (to the second)', () => {
    assert.equal(ifRangeAllows(new Date(MTIME).toUTCString(), v), true);
    assert.equal(ifRangeAllows(new Date(MTIME + 1000).toUTCString(), v), false);
    assert.equal(ifRangeAllows(new Date(MTIME - 1000).toUTCString(), v), false);
  });

  it('anything else sends the whole representation', () => {
    assert.equal(ifRangeAllows('garbage', v), false);
    assert.equal(ifRangeAllows('', v), false);
    assert.equal(ifRangeAllows('*', v), false);
  });
});

describe('contentDisposition (RFC 6266 §4, RFC 8187 §3.2)', () => {
  /** RFC 8187 §3.2.1 attr-char, or a %XX escape. */
  const VALUE_CHARS = /^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})*$/;

  function parse(header: string): { kind: string; fallback: string; encoded: string } {
    const m = /^(attachment|inline); filename="([^"]*)"; filename\*=UTF-8''(.*)$/.exec(header);
    assert.ok(m, header);
    return { kind: m[1]!, fallback: m[2]!, encoded: m[3]! };
  }

  it('an ASCII name: the same name in both parameters', () => {
    assert.equal(contentDisposition('attachment', 'report.pdf'), `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    assert.equal(parse(contentDisposition('inline', 'a b.txt')).kind, 'inline');
    assert.equal(parse(contentDisposition('inline', 'a b.txt')).encoded, 'a%20b.txt');
  });

  it('RFC 8187 §3.2: non-ASCII names are UTF-8 percent-encoded in filename*, with an ASCII fallback in filename', () => {
    const h = parse(contentDisposition('attachment', 'résumé 日本.pdf'));
    assert.equal(h.encoded, 'r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.pdf');
    assert.equal(h.fallback, 'r_sum_ __.pdf');
    assert.equal(decodeURIComponent(h.encoded), 'résumé 日本.pdf');
  });

  it('RFC 6266 §4.3: quotes, backslashes and percent signs never reach the quoted fallback', () => {
    const h = parse(contentDisposition('attachment', 'a"b\\c%41.txt'));
    assert.equal(h.fallback, 'a_b_c_41.txt');
    assert.equal(decodeURIComponent(h.encoded), 'a"b\\c%41.txt');
  });

  it("RFC 8187 §3.2.1: ' ( ) * are not attr-chars and are escaped", () => {
    assert.equal(parse(contentDisposition('attachment', "it's (1)*.txt")).encoded, 'it%27s%20%281%29%2A.txt');
  });

  it('header injection is impossible: CR/LF and other controls are escaped in both parameters', () => {
    const header = contentDisposition('attachment', 'x\r\nSet-Cookie: a=b\u0000.txt');
    const controls = [...header].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
    assert.deepEqual(controls, [], header);
  });

  it('random names: filename* uses attr-chars only and decodes to the name; the fallback is printable ASCII', () => {
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '%', "'", '(', ')', '*', ';', ',', '=', 'é', 'ß', '日', '😀', '\u0301', '~', '|', '^', '`', '#', '&', '+', '!', '$', '\t'];
    for (let i = 0; i < 200; i++) {
      let name = '';
      const len = 1 + Math.floor(Math.random() * 20);
      for (let j = 0; j < len; j++) name += alphabet[Math.floor(Math.random() * alphabet.length)];
      const h = parse(contentDisposition('attachment', name));
      assert.match(h.encoded, VALUE_CHARS, name);
      assert.equal(decodeURIComponent(h.encoded), name);
      assert.match(h.fallback, /^[\x20-\x7e]*$/);
      assert.doesNotMatch(h.fallback, /["\\%]/);
    }
  });
});
