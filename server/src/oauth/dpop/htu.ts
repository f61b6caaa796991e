// The `htu` comparison of RFC 9449 §4.3 (check 9): the proof's URI and the
// request's, both without query and fragment, compared after RFC 3986
// §6.2.2–6.2.3 normalisation (scheme and host in lower case, percent-encoding
// and dot segments normalised, the scheme's default port dropped). WHATWG URL
// parsing does exactly those steps.

/** The normalised form, or null for something that is not an http(s) URI. */
export function normalizedHtu(value: string): string | null {
  if (value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The URI a request was made to: the public base URL (the issuer) and the request's path, without the query. */
export function requestHtu(baseUrl: string, requestUrl: string): string | null {
  const q = requestUrl.indexOf('?');
  return normalizedHtu(baseUrl + (q < 0 ? requestUrl : requestUrl.slice(0, q)));
}
