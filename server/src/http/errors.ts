// One error type for the whole service. A code names the reason; the HTTP
// status follows from the code (api-contract §1) and is applied in one place,
// the error handler.

export const ErrorCode = {
  ParamError: 40001,
  LoginRequired: 401,
  Forbidden: 403,
  InsufficientScope: 40089,
  Banned: 40017,
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
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

const STATUS: Record<ErrorCodeValue, number> = {
  40001: 400,
  401: 401,
  403: 403,
  40089: 403,
  40017: 403,
  404: 404,
  409: 409,
  40020: 401,
  40022: 401,
  40080: 401,
  40069: 400,
  40032: 409,
  40019: 403,
  40049: 413,
  429: 429,
  50000: 500,
};

export interface AppErrorOptions {
  /** Overrides the status implied by the code (e.g. 415 for a parameter error about the media type). */
  status?: number;
  /** Extra response headers (WWW-Authenticate, Retry-After). */
  headers?: Record<string, string>;
  /** Detail for the log only; never sent to the client. */
  detail?: string;
  data?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCodeValue;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly detail: string | undefined;
  readonly data: unknown;

  constructor(code: ErrorCodeValue, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? STATUS[code];
    this.headers = options.headers ?? {};
    this.detail = options.detail;
    this.data = options.data ?? null;
  }
}

export const badRequest = (message: string) => new AppError(ErrorCode.ParamError, message);
export const notFound = (what = 'Not found') => new AppError(ErrorCode.NotFound, what);
export const forbidden = (message = 'Not allowed') => new AppError(ErrorCode.Forbidden, message);
export const conflict = (message: string) => new AppError(ErrorCode.Conflict, message);
