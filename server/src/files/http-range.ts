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
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
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

function httpDate(header: string): number | null {
  const ms = Date.parse(header);
  return Number.isFinite(ms) ? ms : null;
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
    const date = ius !== undefined ? httpDate(ius) : null;
    if (date !== null && seconds(v.lastModified) > seconds(date)) return 'failed';
  }
  const ifNoneMatch = get('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (weakMatch(ifNoneMatch, v.etag)) return 'not-modified';
  } else {
    const ims = get('if-modified-since');
    const date = ims !== undefined ? httpDate(ims) : null;
    if (date !== null && seconds(v.lastModified) <= seconds(date)) return 'not-modified';
  }
  return 'proceed';
}

/** RFC 9110 §13.1.5: a Range applies only if If-Range (when sent) still names this representation. */
export function ifRangeAllows(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === v.etag;
  const date = httpDate(value);
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
