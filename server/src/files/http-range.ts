// HTTP semantics of downloads, as pure functions: byte ranges (RFC 9110 §14),
// conditional requests (RFC 9110 §13) and Content-Disposition (RFC 6266 with
// RFC 8187/5987 encoding).
import type { ByteRange } from './storage/driver.js';

export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE = /^(\d*)-(\d*)$/;

/**
 * Evaluates a Range header against a representation of `size` bytes.
 * One range is served as 206. A header with several ranges is answered with
 * the whole representation (200), as RFC 9110 §14.2 allows; so is a header
 * with an unknown unit or invalid syntax. Unsatisfiable: 416.
 */
export function evaluateRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return { kind: 'full' };
  const specs = header.slice(eq + 1).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return { kind: 'full' };
  const m = SINGLE.exec(specs[0]!);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    // Suffix range: the last N bytes (§14.1.3); N = 0 selects nothing.
    const n = Number(m[2]);
    if (n === 0) return { kind: 'unsatisfiable' };
    // §14.1.1: on an empty representation a non-zero suffix is the one satisfiable range, yet no
    // Content-Range can name zero bytes; §14.2 lets the server ignore Range: the whole (empty) body, 200.
    if (size === 0) return { kind: 'full' };
    return { kind: 'partial', range: { start: Math.max(0, size - n), end: size - 1 } };
  }
  const first = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < first) return { kind: 'full' }; // invalid syntax (§14.1.1): ignored
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start: first, end: Math.min(last, size - 1) } };
}

export interface Validators {
  etag: string;
  /** Milliseconds; compared at one-second resolution like HTTP dates. */
  lastModified: number;
}

function parseTags(header: string): string[] {
  return header.split(',').map((t) => t.trim()).filter((t) => t !== '');
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** RFC 9110 §8.8.3.2 weak comparison against one of a list (`*` matches anything). */
function weakMatch(header: string, etag: string): boolean {
  return parseTags(header).some((t) => t === '*' || opaque(t) === opaque(etag));
}

function strongMatch(header: string, etag: string): boolean {
  return parseTags(header).some((t) => t === '*' || (!t.startsWith('W/') && t === etag));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and
 * asctime forms, all in GMT) as milliseconds, or null for anything else: a
 * recipient must ignore a precondition whose value is not a valid date
 * (§13.1.3-13.1.4). Date.parse is no judge: it reads "1" as a year and a
 * zoneless asctime date in the server's own time zone.
 */
export function parseHttpDate(value: string): number | null {
  let day: number, month: string, year: number, h: number, mi: number, sec: number;
  let m = IMF_FIXDATE.exec(value);
  if (m) [day, month, year, h, mi, sec] = [Number(m[1]), m[2]!, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  else if ((m = RFC850_DATE.exec(value))) {
    // §5.6.7: a two-digit year that looks more than 50 years ahead is in the past century.
    const yy = Number(m[3]);
    const nowYear = new Date().getUTCFullYear();
    year = 2000 + yy > nowYear + 50 ? 1900 + yy : 2000 + yy;
    [day, month, h, mi, sec] = [Number(m[1]), m[2]!, Number(m[4]), Number(m[5]), Number(m[6])];
  } else if ((m = ASCTIME_DATE.exec(value))) [month, day, h, mi, sec, year] = [m[1]!, Number(m[2]!.trim()), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  else return null;
  const mon = MONTHS.indexOf(month);
  if (mon < 0 || day < 1 || day > 31 || h > 23 || mi > 59 || sec > 60) return null;
  const ms = Date.UTC(year, mon, day, h, mi, Math.min(sec, 59));
  // Reject dates like 31 Feb, which Date.UTC would roll into March.
  return new Date(ms).getUTCDate() === day ? ms : null;
}


const seconds = (ms: number) => Math.floor(ms / 1000);

export type Precondition = 'proceed' | 'not-modified' | 'failed';

/** RFC 9110 §13.2.2: the order in which a GET/HEAD evaluates preconditions. */
export function evaluatePreconditions(headers: Record<string, string | string[] | undefined>, v: Validators): Precondition {
  const get = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const ifMatch = get('if-match');
  if (ifMatch !== undefined) {
    if (!strongMatch(ifMatch, v.etag)) return 'failed';
  } else {
    const ius = get('if-unmodified-since');
    const date = ius !== undefined ? parseHttpDate(ius) : null;
    if (date !== null && seconds(v.lastModified) > seconds(date)) return 'failed';
  }
  const ifNoneMatch = get('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (weakMatch(ifNoneMatch, v.etag)) return 'not-modified';
  } else {
    const ims = get('if-modified-since');
    const date = ims !== undefined ? parseHttpDate(ims) : null;
    if (date !== null && seconds(v.lastModified) <= seconds(date)) return 'not-modified';
  }
  return 'proceed';
}

/** RFC 9110 §13.1.5: a Range applies only if If-Range (when sent) still names this representation. */
export function ifRangeAllows(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === v.etag;
  const date = parseHttpDate(value);
  return date !== null && seconds(date) === seconds(v.lastModified);
}

/**
 * `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded`.
 * The fallback replaces anything outside printable ASCII, quotes, backslashes
 * and percent signs (which some clients decode) with `_`.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
