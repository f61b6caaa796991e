// The public HTTP API without the socket: a fetch-compatible function over
// Fastify's `app.inject` (light-my-request), and a test server that only has
// that. The request still goes through the whole app (onRequest hooks,
// content-type parsers, schema validation, serializers, the error mapping);
// what it skips is the TCP connection, Node's HTTP parser and undici. See the
// top of harness.ts for which tests use which transport.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type StartOptions, type TestServer } from './harness.js';

/** What the tests call: the global `fetch`, or the same contract over `app.inject`. */
export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** The origin of an injected server: `.invalid` never resolves, so a request that misses the transport fails at once. */
export const INJECT_ORIGIN = 'http://cirrus.invalid';

// The request headers undici's fetch adds when the caller did not set them, so
// the server sees the same request either way (user agent included: sessions record it).
const FETCH_DEFAULT_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

// fetch sends `content-length: 0` for a request without a body except for these.
const NO_EMPTY_LENGTH = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

function decodeBody(raw: Buffer, encoding: string | string[] | number | undefined): Buffer {
  switch (String(encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    case 'br':
      return brotliDecompressSync(raw);
    default:
      return raw;
  }
}

export interface InjectOptions {
  /** The client address the server sees (`request.ip`); default 127.0.0.1. */
  remoteAddress?: string;
}

export type InjectedStartOptions = InjectOptions & StartOptions;

/**
 * `fetch` over `app.inject`, for URLs on `origin` (a path alone is resolved
 * against it). Bodies are whatever fetch accepts (string, Buffer, Uint8Array,
 * URLSearchParams, FormData, Blob), normalised by WHATWG `Request` so the
 * content type and bytes are the ones fetch would send. The answer is a
 * WHATWG `Response` with every header, repeated `Set-Cookie` included
 * (`headers.getSetCookie()`). Redirects follow `init.redirect` as fetch
 * does: 'manual' returns the 3xx, 'error' rejects, 'follow' (the default)
 * follows up to 20 hops on the same origin.
 */
export function injectFetch(app: FastifyInstance, origin: string, options: InjectOptions = {}): Fetch {
  const base = new URL(origin);
  const once = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.origin !== base.origin) throw new TypeError(`fetch failed: ${url.origin} is not the injected server (${base.origin})`);
    const headers: Record<string, string> = { ...FETCH_DEFAULT_HEADERS };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    let payload: Buffer | undefined;
    if (request.body !== null) payload = Buffer.from(await request.arrayBuffer());
    else if (!NO_EMPTY_LENGTH.has(request.method)) headers['content-length'] = '0';
    if (payload) headers['content-length'] = String(payload.length);
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(payload ? { payload } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    // fetch decodes a compressed body (keeping the headers as sent); so does this.
    const body = NULL_BODY_STATUS.has(res.statusCode) || request.method === 'HEAD' ? null : new Uint8Array(decodeBody(res.rawPayload, res.headers['content-encoding']));
    const response = new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: out });
    Object.defineProperty(response, 'url', { value: url.toString() });
    return response;
  };
  return async (input, init = {}) => {
    let request = new Request(new URL(String(input), base), init);
    for (let hops = 0; ; hops++) {
      const response = await once(request.clone());
      const location = response.headers.get('location');
      if (!REDIRECT_STATUS.has(response.status) || location === null || request.redirect === 'manual') {
        if (hops > 0) Object.defineProperty(response, 'redirected', { value: true });
        return response;
      }
      if (request.redirect === 'error') throw new TypeError('fetch failed: redirect');
      if (hops >= 20) throw new TypeError('fetch failed: too many redirects');
      // RFC 9110 §15.4 as fetch applies it: 303, and 301/302 after a POST, become a GET without a body.
      const toGet = response.status === 303 ? request.method !== 'HEAD' : response.status <= 302 && request.method === 'POST';
      const next = new URL(location, request.url);
      const headers = new Headers(request.headers);
      if (toGet) for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
      request = new Request(next, { method: toGet ? 'GET' : request.method, headers, redirect: request.redirect, ...(toGet ? {} : { body: await request.clone().arrayBuffer() }) });
    }
  };
}

export interface InjectedServer extends TestServer {
  transport: 'inject';
  /** `fetch` for this server: a path, or a URL on `url`. */
  fetch: Fetch;
}

/**
 * Like the harness's startServer, without listening: the app is built and
 * made ready, and requests reach it through `fetch` (app.inject). `url` is
 * INJECT_ORIGIN, the issuer and base URL the server announces.
 */
export async function startInjectedServer(env: Record<string, string> = {}, options: InjectedStartOptions = {}): Promise<InjectedServer> {
  // The issuer and links name the origin the transport answers for.
  const server = await buildTestApp({ CIRRUS_BASE_URL: INJECT_ORIGIN, ...env }, options);
  await server.built.app.ready();
  return {
    ...server,
    url: INJECT_ORIGIN,
    transport: 'inject',
    fetch: injectFetch(server.built.app, INJECT_ORIGIN, { remoteAddress: options.remoteAddress }),
  };
}
