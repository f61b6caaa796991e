// Speaks the {code, data, msg} envelope. A 401 on a request that carried our
// access token triggers one refresh (shared by concurrent requests) and one
// retry; a failed refresh ends the session, as auth-interface §5.3 asks.
import { tokenStore } from './tokens';
import type { Envelope, TokenPair } from './types';

/** Envelope codes the UI reacts to (api-contract §1). */
export const Code = {
  Ok: 0,
  SecondFactor: 203,
  ParamError: 40001,
  LoginRequired: 401,
  CredentialInvalid: 40020,
  WrongOtp: 40022,
  SignInFailed: 40080,
  TooManyRequests: 429,
  NotFound: 404,
} as const;

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

export type AuthMode = 'none' | 'optional' | 'required';

export interface CallOptions {
  body?: unknown;
  auth?: AuthMode;
}

let refreshing: Promise<boolean> | null = null;

/**
 * Only the password and second-factor sign-ins carry cookies: the server
 * remembers a browser where the account signed in before (its device cookie,
 * docs/security.md), so strangers' guesses cannot lock its owner out. Every
 * other request is cookie-free (Bearer tokens only).
 */
const SIGN_IN_PATHS = new Set(['/api/v4/session/token', '/api/v4/session/token/2fa']);

async function send(method: string, path: string, body: unknown, token: string | undefined): Promise<{ status: number; envelope: Envelope<unknown>; retryAfter: number | null }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: method === 'POST' && SIGN_IN_PATHS.has(path) ? 'same-origin' : 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 0, 'Cannot reach the server. Check your connection and try again.');
  }
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    throw new ApiError(res.status, 50000, `Unexpected response from the server (HTTP ${res.status}).`);
  }
  const e = parsed as Partial<Envelope<unknown>> | null;
  if (!e || typeof e !== 'object' || typeof e.code !== 'number') {
    throw new ApiError(res.status, 50000, `Unexpected response from the server (HTTP ${res.status}).`);
  }
  const wait = Number(res.headers.get('retry-after'));
  const retryAfter = res.status === 429 && Number.isFinite(wait) && wait > 0 ? wait : null;
  return { status: res.status, envelope: { code: e.code, data: e.data ?? null, msg: typeof e.msg === 'string' ? e.msg : '' }, retryAfter };
}

async function doRefresh(refreshToken: string): Promise<boolean> {
  // Network failures and server errors propagate and keep the tokens: the next try may work.
  const { status, envelope } = await send('POST', '/api/v4/session/token/refresh', { refresh_token: refreshToken }, undefined);
  if (status >= 500) throw new ApiError(status, envelope.code, envelope.msg || `Server error (HTTP ${status}).`);
  if (envelope.code === Code.Ok) {
    tokenStore.set(envelope.data as TokenPair);
    return true;
  }
  // The refresh token is expired, revoked or reused: the session is over. Only clear
  // what we tried to refresh: another tab may have stored a newer pair meanwhile.
  if (tokenStore.get()?.refresh_token === refreshToken) tokenStore.clear();
  return false;
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

/** Returns the whole envelope for any code the server sent with HTTP 2xx; throws ApiError otherwise. */
export async function callEnvelope<T>(method: string, path: string, opts: CallOptions = {}): Promise<Envelope<T>> {
  const auth = opts.auth ?? 'required';
  const sentToken = auth === 'none' ? undefined : tokenStore.get()?.access_token;
  if (auth === 'required' && !sentToken) throw new ApiError(401, Code.LoginRequired, 'Please sign in.');
  let { status, envelope, retryAfter } = await send(method, path, opts.body, sentToken);

  if (sentToken && status === 401 && envelope.code === Code.LoginRequired) {
    // Another tab may already have refreshed; otherwise refresh ourselves.
    const current = tokenStore.get()?.access_token;
    const retryWith = current && current !== sentToken ? current : (await refreshSession()) ? tokenStore.get()?.access_token : undefined;
    if (!retryWith) throw new ApiError(401, Code.LoginRequired, 'Your session has ended. Please sign in again.');
    ({ status, envelope, retryAfter } = await send(method, path, opts.body, retryWith));
  }

  if (status >= 200 && status < 300 && (envelope.code === Code.Ok || envelope.code === Code.SecondFactor)) return envelope as Envelope<T>;
  throw new ApiError(status, envelope.code, envelope.msg || `Request failed (HTTP ${status}).`, envelope.data, retryAfter);
}

/** Returns `data` of a successful envelope; throws ApiError otherwise. */
export async function call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
  const envelope = await callEnvelope<T>(method, path, opts);
  if (envelope.code !== Code.Ok) throw new ApiError(200, envelope.code, envelope.msg || 'Unexpected answer from the server.');
  return envelope.data;
}
