// Turns every error into an HTTP response in one place. Internal details go
// to the log with the request id; clients see a code and a safe message.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ErrorCode, type ErrorCodeValue } from './errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'invalid parameters';
  let field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required' && typeof first.params?.missingProperty === 'string') {
    field = field ? `${field}.${first.params.missingProperty}` : first.params.missingProperty;
    return `${field}: is required`;
  }
  if (first.keyword === 'additionalProperties' && typeof first.params?.additionalProperty === 'string') {
    return `${first.params.additionalProperty}: is not an accepted field`;
  }
  return `${field || context || 'body'}: ${first.message ?? 'is invalid'}`;
}

/** Maps a framework or parser error (not an AppError) to the contract's codes. */
function fromFrameworkError(err: FastifyError): AppError {
  if (err.validation) {
    return new AppError(ErrorCode.ParamError, describeValidation(err.validationContext, err.validation as ValidationIssue[]));
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return new AppError(ErrorCode.TooLarge, 'Request body is too large');
  if (status === 415) return new AppError(ErrorCode.ParamError, 'Unsupported Content-Type', { status: 415 });
  if (status === 429) return new AppError(ErrorCode.TooManyRequests, 'Too many requests');
  if (status === 404) return new AppError(ErrorCode.NotFound, 'Not found');
  if (status >= 400 && status < 500) {
    const code: ErrorCodeValue = ErrorCode.ParamError;
    // Parser messages (bad JSON, empty body) are safe and useful; anything else gets a generic text.
    const safe = err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError || err.code === 'FST_ERR_VALIDATION';
    return new AppError(code, safe ? err.message : 'Bad request', { status });
  }
  return new AppError(ErrorCode.Internal, 'Internal server error', { detail: err.stack ?? String(err) });
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err && typeof err === 'object' && ('statusCode' in err || 'validation' in err || err instanceof SyntaxError)) {
    return fromFrameworkError(err as FastifyError);
  }
  return new AppError(ErrorCode.Internal, 'Internal server error', { detail: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}

export function sendAppError(reply: FastifyReply, appErr: AppError): FastifyReply {
  for (const [name, value] of Object.entries(appErr.headers)) reply.header(name, value);
  return reply.code(appErr.status).type('application/json; charset=utf-8').send({ code: appErr.code, data: appErr.data, msg: appErr.message });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) request.log.error({ err: appErr.detail ?? appErr.message }, 'request failed');
    else request.log.info({ code: appErr.code, status: appErr.status }, appErr.message);
    // Routes that speak a standard's error format (OAuth) install their own handler in their scope.
    return sendAppError(reply, appErr);
  });

}
