// Turns every error into an HTTP response in one place. Internal details go
// to the log with the request id; clients see a code and a safe message.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode, type ErrorCodeValue } from '../core/errors.js';
import { HttpError, statusOf, toEnvelopeAnswer } from './errors.js';

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

/** Maps a framework or parser error (not a DomainError) to the contract's codes. */
function fromFrameworkError(err: FastifyError): DomainError {
  if (err.validation) {
    return new DomainError(ErrorCode.ParamError, describeValidation(err.validationContext, err.validation as ValidationIssue[]));
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return new DomainError(ErrorCode.TooLarge, 'Request body is too large');
  if (status === 415) return new DomainError(ErrorCode.ParamError, 'Unsupported Content-Type', { kind: 'unsupported_media_type' });
  if (status === 429) return new DomainError(ErrorCode.TooManyRequests, 'Too many requests');
  if (status === 404) return new DomainError(ErrorCode.NotFound, 'Not found');
  if (status >= 400 && status < 500) {
    const code: ErrorCodeValue = ErrorCode.ParamError;
    // Parser messages (bad JSON, empty body) are safe and useful; anything else gets a generic text.
    const safe = err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError || err.code === 'FST_ERR_VALIDATION';
    return new HttpError(code, safe ? err.message : 'Bad request', {}, {}, status);
  }
  return new DomainError(ErrorCode.Internal, 'Internal server error', { detail: err.stack ?? String(err) });
}

/** Any thrown value as a DomainError (framework errors mapped, anything unknown an internal error). */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (err && typeof err === 'object' && ('statusCode' in err || 'validation' in err || err instanceof SyntaxError)) {
    return fromFrameworkError(err as FastifyError);
  }
  return new DomainError(ErrorCode.Internal, 'Internal server error', { detail: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}

export function sendError(reply: FastifyReply, err: DomainError): FastifyReply {
  const answer = toEnvelopeAnswer(err);
  return reply.code(answer.status).headers(answer.headers).type('application/json; charset=utf-8').send(answer.body);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const domainErr = toDomainError(err);
    if (domainErr.kind === 'internal' || domainErr.kind === 'unavailable') request.log.error({ err: domainErr.detail ?? domainErr.message }, 'request failed');
    else request.log.info({ code: domainErr.code, status: statusOf(domainErr) }, domainErr.message);
    // Routes that speak a standard's error format (OAuth) install their own handler in their scope.
    return sendError(reply, domainErr);
  });
}
