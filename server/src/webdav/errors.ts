// Errors of the WebDAV protocol layer. WebDAV answers are not the API's JSON
// envelope (api-contract §1): a status, a short text, and for RFC 4918
// preconditions a DAV:error body naming the condition. File-service errors
// (AppError) are mapped to WebDAV statuses in one place, here.
import { AppError, ErrorCode } from '../http/errors.js';

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
export function fromAppError(err: AppError): DavError {
  const headers = err.headers;
  switch (err.code) {
    // Quota: RFC 4918 §11.5 507 Insufficient Storage (RFC 4331 §6 quota-not-exceeded).
    case ErrorCode.TooLarge:
      return new DavError(507, err.message, undefined, headers);
    case ErrorCode.NotFound:
      return new DavError(404, err.message, undefined, headers);
    case ErrorCode.Conflict:
      return new DavError(err.status === 409 ? 409 : err.status, err.message, undefined, headers);
    case ErrorCode.ParamError:
      return new DavError(err.status, err.message, undefined, headers);
    default:
      return new DavError(err.status, err.message, undefined, headers);
  }
}
