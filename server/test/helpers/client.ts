// A small HTTP client for tests: requests the way any client of the API makes
// them, sent with the global fetch (over loopback) or with the fetch of the
// server under test (app.inject for an injected server, helpers/inject.ts).
import type { Fetch } from './inject.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Envelope<T = unknown> {
  code: number;
  data: T;
  msg: string;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  body?: string | Buffer | Uint8Array;
  headers?: Record<string, string>;
  form?: Record<string, string>;
}

/** Where requests go: a base URL (global fetch), or a test server with its own fetch. */
export type ApiTarget = string | { url: string; fetch?: Fetch };

export class Api {
  readonly baseUrl: string;
  private readonly send: Fetch;

  constructor(target: ApiTarget) {
    this.baseUrl = typeof target === 'string' ? target : target.url;
    this.send = (typeof target === 'string' ? undefined : target.fetch) ?? fetch;
  }

  /** `fetch` of a path on this API, over the same transport as every other call. */
  fetch(path: string, init?: RequestInit): Promise<Response> {
    return this.send(this.baseUrl + path, init);
  }

  async raw(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | Buffer | Uint8Array | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    if (opts.form !== undefined) {
      body = new URLSearchParams(opts.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    if (opts.token) headers.authorization ??= `Bearer ${opts.token}`;
    const res = await this.fetch(path, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      // An accepted change-feed stream (GET /file/events) never ends by itself: its status line and headers are the answer.
      await res.body?.cancel();
      return { status: res.status, headers: res.headers, body: '', text: '' };
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<Envelope<T>>> {
    return (await this.raw(method, path, opts)) as ApiResponse<Envelope<T>>;
  }

  get<T = unknown>(path: string, opts?: RequestOptions) {
    return this.call<T>('GET', path, opts);
  }
  post<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}) {
    return this.call<T>('POST', path, { ...opts, json });
  }
  put<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}) {
    return this.call<T>('PUT', path, { ...opts, json });
  }
  patch<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}) {
    return this.call<T>('PATCH', path, { ...opts, json });
  }
  delete<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}) {
    return this.call<T>('DELETE', path, { ...opts, json });
  }
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  access_expires: string;
  refresh_expires: string;
}

export interface UserView {
  id: string;
  email: string;
  nickname: string;
  is_admin: boolean;
  group: { id: number; name: string };
  created_at: string;
  status: string;
}

export async function signIn(api: Api, email: string, password: string): Promise<{ user: UserView; token: TokenPair }> {
  const res = await api.post<{ user: UserView; token: TokenPair }>('/api/v4/session/token', { email, password });
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Creates a user through the admin API and signs them in. */
export async function createUser(api: Api, adminToken: string, email: string, password = 'user-password-123'): Promise<{ user: UserView; token: TokenPair; password: string }> {
  const res = await api.put<UserView>('/api/v4/admin/user', { email, password }, { token: adminToken });
  if (res.status !== 200 || res.body.code !== 0) throw new Error(`create user failed: ${res.status} ${res.text}`);
  return { ...(await signIn(api, email, password)), password };
}

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
