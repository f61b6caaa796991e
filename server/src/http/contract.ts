// Response shapes shared by every /api/v4 route: the envelope, the error
// envelope, and the helpers a route uses to declare what it answers. Each
// route's `schema.response` is the contract: Fastify serializes the answer
// with it (fast-json-stringify writes only the declared fields, so nothing
// undeclared can leak), @fastify/swagger publishes it at
// GET /api/v4/openapi.json, and the web app's client is generated from that
// document (scripts/generate-api-client.mjs).
//
// The pattern for a route (docs/decisions/022-schema-first-contract.md):
//   r.get('/api/v4/thing/:id', {
//     config: { auth: 'required', scopes: ['Things.Read'] },
//     schema: { params: ..., response: { 200: Envelope(ThingView), ...errors(404) } },
//   }, handler)
// Bodies are `Body({...})` (unknown fields are a 400 naming the field). The
// errors every route can give (400, 401, 403, 413, 415, 500, by its auth
// config and whether it has a body) are added by `documentCommonErrors`; a
// route lists only its own (404, 409, 429, ...).
import { Type, type TSchema, type TProperties, type TObject } from 'typebox';
import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import { ErrorCode } from '../core/errors.js';
import { View } from '../core/schema.js';
import { isFirstPartyOnly } from './auth.js';

// The shapes (closed objects, nullable primitives, string enums) live in core/
// because services build the views; routes take them from here with the rest.
export { DateTime, Nullable, StringEnum, View } from '../core/schema.js';

/** `{code: 0, data, msg: ""}`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object(
    { code: Type.Literal(0), data, msg: Type.String() },
    { additionalProperties: false, description: 'Success: code 0, the answer in data' },
  );
}

/** The `pagination` object of every paged list. */
export const Pagination = View({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer() }, { title: 'Pagination' });

/** The body of every error answer: a contract code (see the ErrorCode schema), a safe message, and sometimes details in data. */
export const ErrorEnvelope = Type.Object(
  {
    code: Type.Integer({ description: 'Contract code (components.schemas.ErrorCode)' }),
    data: Type.Unknown({ description: 'null, or details (e.g. the per-item results of a batch)' }),
    msg: Type.String(),
  },
  { additionalProperties: false, title: 'ErrorEnvelope', description: 'Error: a non-zero code, a message for people, details in data' },
);

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (40001: msg names the field); 40069 wrong current password',
  401: 'Missing or invalid token (401), or a credential that failed (40020, 40022, 40080)',
  403: 'Not allowed (403), scope missing (40089), banned (40017), not activated (40018), feature disabled (40019)',
  404: 'Not found (also for objects that belong to someone else)',
  409: 'Conflict (409), e-mail taken (40032)',
  408: 'The request body stopped arriving (no data for 60 s)',
  412: 'Precondition failed: If-Match/If-Unmodified-Since (downloads), or tus: Tus-Resumable missing or not 1.0.0 (Tus-Version says which)',
  413: 'Too large (40049)',
  415: 'Unsupported Content-Type (40001)',
  416: 'Range not satisfiable (Content-Range: bytes */size)',
  423: 'Locked: another live request is writing or finishing this upload; retry',
  429: 'Too many requests (429); Retry-After says when to try again',
  500: 'Internal error (50000); details only in the log',
};

function errorResponse(status: number) {
  return Type.Object(ErrorEnvelope.properties, { additionalProperties: false, title: 'ErrorEnvelope', description: STATUS_TEXT[status] ?? 'Error' });
}

/** Error answers a route documents besides the common ones, e.g. `...errors(404, 409)`. */
export function errors<S extends number>(...statuses: S[]): Record<S, typeof ErrorEnvelope> {
  const out = {} as Record<S, typeof ErrorEnvelope>;
  for (const s of statuses) out[s] = errorResponse(s);
  return out;
}

/** A request body object: unknown fields are refused with 400 naming the field. */
export function Body<P extends TProperties>(properties: P, options: { description?: string } = {}): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** A response of raw bytes (downloads): documented, never serialized (streams and buffers are sent as they are). */
export function Bytes(description: string, mediaType = 'application/octet-stream') {
  return Type.Unsafe<unknown>({ description, content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } });
}

/**
 * Documents a raw request body (a picture, not JSON) as `schema['x-body']`:
 * shown as the request body in the document (http/openapi.ts) but never
 * validated, since the route's own content-type parser reads it as bytes.
 */
export function RawBody(description: string, mediaTypes: readonly string[]) {
  return { mediaTypes: [...mediaTypes], schema: { type: 'string', format: 'binary', description } };
}

/** A response without a body (204, tus, OPTIONS). */
export function NoBody(description: string) {
  return Type.Unsafe<void>({ type: 'null', description });
}

/** The contract's codes as one schema, so generated clients get the table instead of copying it. */
export function errorCodeSchema(): Record<string, unknown> {
  const entries = [['Ok', 0], ...Object.entries(ErrorCode)] as [string, number][];
  return {
    type: 'integer',
    description: 'Envelope codes (api-contract §1): 0 success, 203 second factor required, the rest errors',
    enum: entries.map(([, v]) => v),
    'x-enum-varnames': entries.map(([k]) => k),
  };
}

function hasBody(route: RouteOptions): boolean {
  const schema = route.schema as { body?: unknown } | undefined;
  return schema?.body !== undefined;
}

/**
 * Adds the error answers every /api/v4 route can give, from its declared auth
 * config: 400 and 500 always; 401 unless auth is none; 403 with scopes, admin
 * or first-party-only; 413 and 415 with a JSON body. Routes that set their own
 * error format (the OAuth token endpoint) opt out with `config.ownErrors`.
 */
export function documentCommonErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v4/')) return;
    const config = (route.config ?? {}) as FastifyContextConfig;
    if (config.ownErrors) return;
    const schema = (route.schema ?? {}) as { response?: Record<string | number, unknown> };
    const statuses = [400, 500];
    if ((config.auth ?? 'required') !== 'none') statuses.push(401);
    if (config.scopes?.length || config.admin || isFirstPartyOnly(config)) statuses.push(403);
    if (hasBody(route)) statuses.push(413, 415);
    const response = { ...(schema.response ?? {}) };
    for (const s of statuses) response[s] ??= errorResponse(s);
    route.schema = { ...route.schema, response };
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers errors in a standard's format (RFC 6749 §5.2), not the envelope. */
    ownErrors?: boolean;
  }
}
