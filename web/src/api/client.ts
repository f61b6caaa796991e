// The API client: openapi-fetch over the types generated from the server's
// OpenAPI document (./generated/schema.ts, `npm run api:generate`), so every
// path, parameter, body and answer is checked against the routes' own
// schemas. This file adds what the document cannot say: the bearer token, one
// refresh (shared by concurrent requests) and one retry on a 401, ending the
// session when the refresh fails (auth-interface §5.3), and the envelope turned
// into data or an ApiError.
//
//   const me = await data(api().GET('/api/v4/user/me'));
//   const page = await data(api().GET('/api/v4/file', { params: { query: { path: '/docs' } } }));
import createClient, { type Client } from 'openapi-fetch';
import { tokenStore } from './tokens';
import { ErrorCode, type paths } from './generated/schema';

export { ErrorCode };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** The envelope's `data` on an error (e.g. `{field, index}` of a refused list entry). */
    readonly data: unknown = null,
    /** Seconds until a 429's lock ends (Retry-After), so the person is told how long to wait. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** none: no token sent; optional: the token when there is one; required: refuse to send without one. */
export type AuthMode = 'none' | 'optional' | 'required';

const UNREACHABLE = 'Cannot reach the server. Check your connection and try again.';
let refreshing: Promise<boolean> | null = null;

/**
 * Only the password and second-factor sign-ins carry cookies: the server
 * remembers a browser where the account signed in before (its device cookie,
 * docs/security.md), so strangers' guesses cannot lock its owner out. And
 * the start of linking a provider (POST /user/identities/{id}): its answer
 * binds the provider round trip to this browser with a cookie. Every other
 * request is cookie-free (Bearer tokens only).
 */
const SIGN_IN_PATHS = new Set(['/api/v4/session/token', '/api/v4/session/token/2fa']);
const withCookies = (pathname: string) => SIGN_IN_PATHS.has(pathname) || /^\/api\/v4\/user\/identities\/[^/]+$/.test(pathname);

async function send(request: Request, token: string | undefined): Promise<Response> {
  let req = request.clone();
  if (req.method === 'POST' && withCookies(new URL(req.url, location.href).pathname)) req = new Request(req, { credentials: 'same-origin' });
  req.headers.set('accept', 'application/json');
  if (token) req.headers.set('authorization', `Bearer ${token}`);
  try {
    return await fetch(req);
  } catch {
    throw new ApiError(0, 0, UNREACHABLE);
  }
}

async function envelopeCode(res: Response): Promise<number | undefined> {
  try {
    const body = (await res.clone().json()) as { code?: unknown } | null;
    return typeof body?.code === 'number' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

function authFetch(auth: AuthMode) {
  return async (request: Request): Promise<Response> => {
    const sentToken = auth === 'none' ? undefined : tokenStore.get()?.access_token;
    if (auth === 'required' && !sentToken) throw new ApiError(401, ErrorCode.LoginRequired, 'Please sign in.');
    const res = await send(request, sentToken);
    if (!sentToken || res.status !== 401 || (await envelopeCode(res)) !== ErrorCode.LoginRequired) return res;
    // Another tab may already have refreshed; otherwise refresh ourselves.
    const current = tokenStore.get()?.access_token;
    const retryWith = current && current !== sentToken ? current : (await refreshSession()) ? tokenStore.get()?.access_token : undefined;
    if (!retryWith) throw new ApiError(401, ErrorCode.LoginRequired, 'Your session has ended. Please sign in again.');
    return send(request, retryWith);
  };
}

const clients: Record<AuthMode, Client<paths>> = {
  none: createClient<paths>({ fetch: authFetch('none'), credentials: 'omit', cache: 'no-store' }),
  optional: createClient<paths>({ fetch: authFetch('optional'), credentials: 'omit', cache: 'no-store' }),
  required: createClient<paths>({ fetch: authFetch('required'), credentials: 'omit', cache: 'no-store' }),
};

/** The typed client; `required` (the default) refuses to call without a signed-in session. */
export function api(auth: AuthMode = 'required'): Client<paths> {
  return clients[auth];
}

interface Envelope {
  code: number;
  data?: unknown;
  msg: string;
}

/**
 * The whole envelope of an answer with HTTP 2xx and code 0 or 203 (second
 * factor); anything else throws ApiError with the status, code and message.
 */
export async function envelope<E extends Envelope>(pending: Promise<{ data?: E; error?: unknown; response: Response }>): Promise<E> {
  let result: { data?: E; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // openapi-fetch could not parse the body: not our JSON (a proxy's error page, a cut connection).
    throw new ApiError(0, ErrorCode.Internal, err instanceof TypeError ? UNREACHABLE : 'Unexpected response from the server.');
  }
  const { response } = result;
  const body = (result.data ?? result.error) as Partial<Envelope> | undefined;
  if (!body || typeof body !== 'object' || typeof body.code !== 'number') {
    throw new ApiError(response.status, ErrorCode.Internal, `Unexpected response from the server (HTTP ${response.status}).`);
  }
  if (response.ok && (body.code === ErrorCode.Ok || body.code === ErrorCode.SecondFactorRequired)) return body as E;
  const wait = Number(response.headers.get('retry-after'));
  const retryAfter = response.status === 429 && Number.isFinite(wait) && wait > 0 ? wait : null;
  throw new ApiError(response.status, body.code, body.msg || `Request failed (HTTP ${response.status}).`, body.data ?? null, retryAfter);
}

/** `data` of a successful envelope (code 0); throws ApiError otherwise. */
export async function data<E extends Envelope>(pending: Promise<{ data?: E; error?: unknown; response: Response }>): Promise<Extract<E, { code: 0 }>['data']> {
  const e = await envelope(pending);
  if (e.code !== ErrorCode.Ok) throw new ApiError(200, e.code, e.msg || 'Unexpected answer from the server.');
  return (e as Extract<E, { code: 0 }>).data;
}

async function doRefresh(refreshToken: string): Promise<boolean> {
  // Network failures and server errors propagate and keep the tokens: the next try may work.
  try {
    const pair = await data(api('none').POST('/api/v4/session/token/refresh', { body: { refresh_token: refreshToken } }));
    tokenStore.set(pair);
    return true;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) throw err;
    // The refresh token is expired, revoked or reused: the session is over. Only clear
    // what we tried to refresh: another tab may have stored a newer pair meanwhile.
    if (tokenStore.get()?.refresh_token === refreshToken) tokenStore.clear();
    return false;
  }
}

/** Refreshes the stored pair once, however many requests ask at the same time. */
export function refreshSession(): Promise<boolean> {
  const pair = tokenStore.get();
  if (!pair) return Promise.resolve(false);
  refreshing ??= doRefresh(pair.refresh_token).finally(() => {
    refreshing = null;
  });
  return refreshing;
}
