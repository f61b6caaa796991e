// The one mapping to the OAuth standards' error answers (RFC 6749 §5.2,
// RFC 7009 §2.2.1, RFC 7662 §2.3): `{error, error_description}`. An OAuthError
// keeps its code; any other error is reduced to the few codes the standard
// allows, by its kind.
import { OAuthError, type DomainError } from '../core/errors.js';
import { headersOf, type HttpAnswer } from './errors.js';

const BASIC_CHALLENGE = 'Basic realm="cirrus"';

export interface OAuthErrorBody {
  error: string;
  error_description: string;
}

export function toOAuthAnswer(err: OAuthError | DomainError): HttpAnswer<OAuthErrorBody> {
  if (err instanceof OAuthError) {
    const headers: Record<string, string> = {};
    if (err.options.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.options.retryAfterSeconds);
    // RFC 9449 §8: the nonce the client must put in its next proof.
    if (err.options.dpopNonce !== undefined) headers['DPoP-Nonce'] = err.options.dpopNonce;
    // RFC 6749 §5.2: a client that tried Basic gets 401 with a Basic challenge.
    if (err.error === 'invalid_client' && err.options.basicChallenge) headers['WWW-Authenticate'] = BASIC_CHALLENGE;
    const status = err.error === 'invalid_client' ? 401 : err.error === 'server_error' ? 500 : err.error === 'temporarily_unavailable' ? 429 : 400;
    return { status, headers, body: { error: err.error, error_description: err.description } };
  }
  switch (err.kind) {
    case 'rate_limited':
      return { status: 429, headers: headersOf(err), body: { error: 'temporarily_unavailable', error_description: err.message } };
    case 'internal':
      return { status: 500, headers: {}, body: { error: 'server_error', error_description: 'Internal server error' } };
    case 'unavailable':
      return { status: 503, headers: headersOf(err), body: { error: 'temporarily_unavailable', error_description: err.message } };
    case 'unsupported_media_type':
      return { status: 400, headers: {}, body: { error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' } };
    default:
      return { status: 400, headers: {}, body: { error: 'invalid_request', error_description: err.message } };
  }
}
