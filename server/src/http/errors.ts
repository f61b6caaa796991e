// The one mapping from a domain error to an HTTP answer in the envelope
// (api-contract §1): status from the error's kind, headers from what the error
// says about itself (retry later, body left unread), body `{code, data, msg}`.
// `oauth-errors.ts` is the other mapping, for the RFC 6749 endpoints.
import { DomainError, type DomainErrorOptions, type ErrorCodeValue, type ErrorKind } from '../core/errors.js';

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  locked: 423,
  precondition_failed: 412,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  timeout: 408,
  too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  // The contract answers the second-factor step as a success at the HTTP level.
  incomplete: 200,
};

/**
 * An error raised by the HTTP layer itself (the auth guard's challenges, a
 * protocol's version header, a range answer's Content-Range): it may carry
 * response headers, which domain errors never do.
 */
export class HttpError extends DomainError {
  constructor(
    code: ErrorCodeValue,
    message: string,
    readonly headers: Record<string, string>,
    options: DomainErrorOptions = {},
    /** A status no kind implies (a framework's odd 4xx kept as it was). */
    readonly status?: number,
  ) {
    super(code, message, options);
    this.name = 'HttpError';
  }
}

export interface HttpAnswer<B> {
  status: number;
  headers: Record<string, string>;
  body: B;
}

export function statusOf(err: DomainError): number {
  return (err instanceof HttpError ? err.status : undefined) ?? STATUS_OF_KIND[err.kind];
}

/** Headers implied by what an error says about itself, plus an HttpError's own. */
export function headersOf(err: DomainError): Record<string, string> {
  const headers: Record<string, string> = err instanceof HttpError ? { ...err.headers } : {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  // The rest of the body is not read: close the connection rather than drain it.
  if (err.bodyUnread) headers.Connection = 'close';
  return headers;
}

export function toEnvelopeAnswer(err: DomainError): HttpAnswer<{ code: number; data: unknown; msg: string }> {
  return { status: statusOf(err), headers: headersOf(err), body: { code: err.code, data: err.data, msg: err.message } };
}
