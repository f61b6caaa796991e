// Errors of the WebDAV protocol layer. WebDAV answers are not the API's JSON
// envelope (api-contract §1): a status, a short text, and for RFC 4918
// preconditions a DAV:error body naming the condition. File-service errors
// (DomainError) are mapped to WebDAV statuses in one place, here.
import { ErrorCode, type DomainError } from '../core/errors.js';
import { headersOf, statusOf } from '../http/errors.js';

export class DavError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** An RFC 4918 §16 condition as XML, e.g. `<D:propfind-finite-depth/>`. */
    readonly condition?: string,
    readonly headers: Record<string, string | string[]> = {},
  ) {
    super(message);
    this.name = 'DavError';
  }
}

/** A file-service error as WebDAV sees it. */
export function fromAppError(err: DomainError): DavError {
  // Quota: RFC 4918 §11.5 507 Insufficient Storage (RFC 4331 §6 quota-not-exceeded).
  const status = err.code === ErrorCode.TooLarge ? 507 : statusOf(err);
  return new DavError(status, err.message, undefined, headersOf(err));
}
