// Request URIs and hrefs under the /dav/ mount. A URI path is split on "/",
// each segment percent-decoded and checked by the file feature's name rules
// (NFC, so an NFD name from macOS finds the same file). "." and ".." are
// refused (403): a folder-restricted account can never name a parent, and
// resolution always starts at the account's folder.
import { MAX_PATH_BYTES, joinPath, parseName } from '../files/names.js';
import { DomainError } from '../core/errors.js';
import { DavError } from './errors.js';

export const MOUNT = '/dav';

/** One percent-encoded URI segment, decoded; 400 when it is malformed. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new DavError(400, 'The URI has a malformed percent-encoding');
  }
}

/** Names below the account's folder, from a URI path (already without the query). */
export function namesFromUriPath(uriPath: string, mount = MOUNT): string[] {
  if (uriPath !== mount && !uriPath.startsWith(`${mount}/`)) throw new DavError(502, 'The URI is outside the WebDAV mount');
  const rest = uriPath.slice(mount.length);
  if (Buffer.byteLength(rest, 'utf8') > MAX_PATH_BYTES * 3) throw new DavError(414, 'The URI is too long');
  const names: string[] = [];
  for (const raw of rest.split('/')) {
    if (raw === '') continue;
    const segment = decodeSegment(raw);
    if (segment === '.' || segment === '..') throw new DavError(403, 'Paths may not contain "." or ".." segments');
    try {
      names.push(parseName(segment, 'path'));
    } catch (err) {
      if (err instanceof DomainError) throw new DavError(400, err.message);
      throw err;
    }
  }
  return names;
}

/** The path part of a request URL or of a Destination / If header URI (absolute or absolute-path). */
export function uriPathOf(uri: string, host: string | undefined): string {
  let path = uri;
  // Split by hand rather than with URL, which would resolve "." and ".." segments away.
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(.*)$/i.exec(uri);
  if (absolute) {
    const authority = absolute[1]!.slice(absolute[1]!.lastIndexOf('@') + 1).toLowerCase();
    // Another authority is another server (RFC 4918 §9.8.5, §9.9.4: 502).
    if (host !== undefined && authority !== host.toLowerCase()) throw new DavError(502, 'The destination is on another server');
    path = absolute[2] || '/';
  } else if (!uri.startsWith('/')) {
    throw new DavError(400, 'Malformed URI');
  }
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}

/** The absolute tree path of names below an account's folder. */
export function treePath(root: string, names: readonly string[]): string {
  const base = root === '/' ? [] : root.slice(1).split('/');
  return joinPath([...base, ...names]);
}

/** The href of names below the mount: every segment percent-encoded, folders with a trailing slash. */
export function hrefOf(names: readonly string[], folder: boolean, mount = MOUNT): string {
  const body = names.map((n) => encodeURIComponent(n)).join('/');
  if (names.length === 0) return `${mount}/`;
  return `${mount}/${body}${folder ? '/' : ''}`;
}
