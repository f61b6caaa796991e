// Errors in the OAuth standards' own format ({error, error_description}),
// used by the token, revocation and introspection endpoints (RFC 6749 §5.2)
// and, as query parameters, by authorization error redirects (§4.1.2.1).

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
  | 'request_uri_not_supported';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
