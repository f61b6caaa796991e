// Redirect URI rules: what may be registered (RFC 6749 §3.1.2, RFC 8252 §7,
// RFC 9700 §2.1) and how a request's redirect_uri is matched: exact string
// comparison, except that a loopback IP literal may use any port (RFC 8252 §7.3).

export const MAX_REDIRECT_URI_LENGTH = 2000;

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?].*)?$/s;
/** A private-use scheme for native apps is a reverse domain name (RFC 8252 §7.1). */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;

/** Returns why `uri` cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0 || uri.length > MAX_REDIRECT_URI_LENGTH) return `must be 1 to ${MAX_REDIRECT_URI_LENGTH} characters`;
  // Printable ASCII only: anything else would be compared in one spelling and followed in another.
  if (!/^[\x21-\x7e]+$/.test(uri)) return 'must be printable ASCII without spaces (percent-encode anything else)';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname ? null : 'must name a host';
  if (scheme === 'http') {
    return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) ? null : 'http is only allowed for loopback addresses; use https';
  }
  if (PRIVATE_USE_SCHEME.test(scheme)) return null;
  return 'must use https, http on a loopback address, or a private-use scheme such as com.example.app';
}

function withoutLoopbackPort(uri: string): string | null {
  const m = LOOPBACK.exec(uri);
  if (!m) return null;
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) return null;
  return `http://${m[1]}${m[3] ?? ''}`;
}

export function redirectUriRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const portless = withoutLoopbackPort(requested);
  return portless !== null && registered.some((r) => withoutLoopbackPort(r) === portless);
}

/**
 * The origin a browser sends for a page at `uri` (scheme, host, port; the
 * default port left out), or null for URIs with no web origin (private-use
 * schemes of native apps). CORS compares these exactly (http/cors.ts).
 */
export function webOrigin(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Adds parameters to a redirect URI, keeping its own query exactly as
 * registered (RFC 6749 §3.1.2: it "MUST be retained").
 */
export function appendQuery(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  const separator = !uri.includes('?') ? '?' : uri.endsWith('?') || uri.endsWith('&') ? '' : '&';
  return `${uri}${separator}${query.toString()}`;
}
