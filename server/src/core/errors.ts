// Domain errors: what went wrong, in the service's own terms. A kind says what
// sort of failure it is, a contract code names the reason (api-contract §1),
// and nothing here knows about HTTP: `http/errors.ts` turns an error into an
// envelope answer and `http/oauth-errors.ts` into an RFC 6749 §5.2 answer.

/** Contract codes (api-contract §1). */
export const ErrorCode = {
  ParamError: 40001,
  LoginRequired: 401,
  Forbidden: 403,
  InsufficientScope: 40089,
  Banned: 40017,
  /** Sign-in before the account's address was confirmed (sign-up with activation, api-contract §11). */
  NotActivated: 40018,
  NotFound: 404,
  Conflict: 409,
  CredentialInvalid: 40020,
  WrongOtp: 40022,
  SignInFailed: 40080,
  WrongCurrentPassword: 40069,
  EmailTaken: 40032,
  FeatureDisabled: 40019,
  TooLarge: 40049,
  TooManyRequests: 429,
  Internal: 50000,
  /** Not a failure: sign-in continues with the second factor (auth-interface §3); `data` is the challenge id. */
  SecondFactorRequired: 203,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** What sort of failure: the one thing the transport mappings look at besides the code. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** Another request holds the thing (an upload being written). */
  | 'locked'
  | 'precondition_failed'
  | 'range_not_satisfiable'
  | 'unsupported_media_type'
  /** The client stopped sending. */
  | 'timeout'
  | 'too_large'
  | 'rate_limited'
  | 'internal'
  /** A service the request needs (the object store) does not answer: worth retrying later. */
  | 'unavailable'
  /** The operation needs one more step from the client (sign-in's second factor). */
  | 'incomplete';

const KIND_OF_CODE: Record<ErrorCodeValue, ErrorKind> = {
  40001: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  40089: 'forbidden',
  40017: 'forbidden',
  40018: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  40020: 'unauthenticated',
  40022: 'unauthenticated',
  40080: 'unauthenticated',
  40069: 'invalid',
  40032: 'conflict',
  40019: 'forbidden',
  40049: 'too_large',
  429: 'rate_limited',
  50000: 'internal',
  203: 'incomplete',
};

export interface DomainErrorOptions {
  /** Overrides the kind implied by the code (a parameter error that is really a timeout). */
  kind?: ErrorKind;
  /** Detail for the log only; never sent to the client. */
  detail?: string;
  /** The envelope's `data` (null when absent). */
  data?: unknown;
  /** For rate_limited: when trying again can succeed. */
  retryAfterSeconds?: number;
  /** The request's body was left partly unread (an upload cut off): the transport must not try to drain it. */
  bodyUnread?: boolean;
}

export class DomainError extends Error {
  readonly code: ErrorCodeValue;
  readonly kind: ErrorKind;
  readonly detail: string | undefined;
  readonly data: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly bodyUnread: boolean;

  constructor(code: ErrorCodeValue, message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.kind = options.kind ?? KIND_OF_CODE[code];
    this.detail = options.detail;
    this.data = options.data ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.bodyUnread = options.bodyUnread ?? false;
  }
}

export const badRequest = (message: string) => new DomainError(ErrorCode.ParamError, message);
export const notFound = (what = 'Not found') => new DomainError(ErrorCode.NotFound, what);
export const forbidden = (message = 'Not allowed') => new DomainError(ErrorCode.Forbidden, message);
export const conflict = (message: string) => new DomainError(ErrorCode.Conflict, message);
export const secondFactorRequired = (challengeId: string) => new DomainError(ErrorCode.SecondFactorRequired, 'Second factor required', { data: challengeId });

/** RFC 6749 §5.2 / RFC 7009 / RFC 7662 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'consent_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  // RFC 8628 §3.5 (device authorization grant, at the token endpoint).
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  // RFC 9449 §5, §8 (DPoP, at the token endpoint).
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce';

/**
 * An error in the OAuth standards' own terms. `basicChallenge` records that
 * the client tried HTTP Basic authentication, which RFC 6749 §5.2 answers
 * with a challenge of the same scheme.
 */
export class OAuthError extends Error {
  readonly kind: ErrorKind;
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly options: { basicChallenge?: boolean; retryAfterSeconds?: number; dpopNonce?: string } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.kind = error === 'invalid_client' ? 'unauthenticated' : error === 'server_error' ? 'internal' : error === 'temporarily_unavailable' ? 'rate_limited' : 'invalid';
  }
}
