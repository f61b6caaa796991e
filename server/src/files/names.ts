// Names and paths of the file tree (api-contract §6). Paths only ever address
// rows in the database; no user-supplied string reaches the file system (blobs
// are stored under random ids), so traversal is impossible by construction.
// The rules below still reject every traversal spelling with a clear error.
import { badRequest } from '../core/errors.js';

export const MAX_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 4096;
/** The deepest an item may sit below the root: `/a/b` is at depth 2. */
export const MAX_DEPTH = 256;

// C0 controls, DEL, and the C1 controls; `/` separates; `\` is a separator on
// Windows clients (zip extraction, WebDAV), so it is refused as well.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f/\\]/;
/** With the u flag a surrogate class matches only unpaired halves. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a name is not acceptable, or null when it is. Expects NFC input. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  if (FORBIDDEN.test(name)) return 'must not contain "/", "\\" or control characters';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `must be at most ${MAX_NAME_BYTES} bytes of UTF-8`;
  if (LONE_SURROGATE.test(name)) return 'must be valid Unicode';
  return null;
}

/** Normalises a single name (NFC) and validates it; `field` names the parameter in the error. */
export function parseName(raw: string, field: string): string {
  if (LONE_SURROGATE.test(raw)) throw badRequest(`${field}: must be valid Unicode`);
  const name = raw.normalize('NFC');
  const problem = nameProblem(name);
  if (problem) throw badRequest(`${field}: ${problem}`);
  return name;
}

/**
 * Splits an absolute path into NFC names: `/` is the root (no names), a single
 * trailing slash is allowed. Relative paths, empty segments, `.` and `..` are refused.
 */
export function parsePath(raw: string, field = 'path'): string[] {
  if (Buffer.byteLength(raw, 'utf8') > MAX_PATH_BYTES) throw badRequest(`${field}: must be at most ${MAX_PATH_BYTES} bytes`);
  if (!raw.startsWith('/')) throw badRequest(`${field}: must be an absolute path starting with "/"`);
  if (raw === '/') return [];
  const body = raw.endsWith('/') ? raw.slice(1, -1) : raw.slice(1);
  const names = body.split('/').map((segment) => {
    if (segment === '') throw badRequest(`${field}: must not contain empty segments ("//")`);
    return parseName(segment, field);
  });
  // NFC can lengthen a name, so the byte limit is checked again on what is stored.
  checkPathLimits(Buffer.byteLength(joinPath(names), 'utf8'), names.length, field);
  return names;
}

/** The depth of an absolute path: `/` is 0, `/a/b` is 2 (names never hold "/"). */
export function depthOf(path: string): number {
  if (path === '/') return 0;
  let n = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) n++;
  return n;
}

/**
 * Refuses (400/40001, naming `field`) a path of `bytes` bytes at `depth`, when
 * it is over MAX_PATH_BYTES or MAX_DEPTH. `what` says whose path it is when it
 * is not the one the client sent (a descendant of a moved folder).
 */
export function checkPathLimits(bytes: number, depth: number, field: string, what = 'the path'): void {
  if (bytes > MAX_PATH_BYTES) throw badRequest(`${field}: ${what} is too long (${bytes} bytes; paths are at most ${MAX_PATH_BYTES} bytes)`);
  if (depth > MAX_DEPTH) throw badRequest(`${field}: ${what} is too deep (${depth} levels; paths are at most ${MAX_DEPTH} levels deep)`);
}

export function joinPath(names: readonly string[]): string {
  return '/' + names.join('/');
}

export function childPath(parentPath: string, name: string): string {
  return parentPath === '/' ? `/${name}` : `${parentPath}/${name}`;
}

/** "report.pdf" -> "report (2).pdf"; folders and dot-files keep the whole name as the stem. */
export function numberedName(name: string, n: number, isFolder: boolean): string {
  const dot = isFolder ? -1 : name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})`;
  let candidate = `${stem}${suffix}${ext}`;
  // Keep within the byte limit by shortening the stem (by whole characters), then the extension.
  let s = [...stem];
  let e = [...ext];
  while (Buffer.byteLength(candidate, 'utf8') > MAX_NAME_BYTES) {
    if (s.length > 1) s = s.slice(0, -1);
    else if (e.length > 0) e = e.slice(0, -1);
    else break;
    candidate = `${s.join('')}${suffix}${e.join('')}`;
  }
  return candidate;
}

/**
 * The name of a copy made in the original's own folder: "report (copy).pdf",
 * then "report (copy 2).pdf", … (folders and dot-files keep the whole name as
 * the stem), shortened like numberedName to stay within MAX_NAME_BYTES.
 */
export function copyName(name: string, n: number, isFolder: boolean): string {
  const dot = isFolder ? -1 : name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = n <= 1 ? ' (copy)' : ` (copy ${n})`;
  let s = [...stem];
  let e = [...ext];
  let candidate = `${stem}${suffix}${ext}`;
  while (Buffer.byteLength(candidate, 'utf8') > MAX_NAME_BYTES) {
    if (s.length > 1) s = s.slice(0, -1);
    else if (e.length > 0) e = e.slice(0, -1);
    else break;
    candidate = `${s.join('')}${suffix}${e.join('')}`;
  }
  return candidate;
}
