// Authorization server metadata (RFC 8414) and OpenID Provider metadata
// (OIDC Discovery 1.0), derived from the issuer, the route table and the
// features actually registered, never from literal copies of them.
import { OAUTH_PATHS } from './paths.js';
import { ALL_SCOPES } from './scopes.js';
import { ID_TOKEN_ALG } from './id-tokens.js';
import { CLIENT_AUTH_METHODS } from './token/client-auth.js';
import { SUPPORTED_PROMPTS } from './authorization-request.js';
import { DPOP_ALGS } from '../core/dpop.js';

export const USERINFO_CLAIMS = ['sub', 'name', 'nickname', 'picture', 'updated_at', 'email', 'email_verified'] as const;

export function serverMetadata(issuer: string, grantTypes: readonly string[]): Record<string, unknown> {
  const url = (path: string) => `${issuer}${path}`;
  return {
    issuer,
    authorization_endpoint: url(OAUTH_PATHS.authorize),
    token_endpoint: url(OAUTH_PATHS.token),
    device_authorization_endpoint: url(OAUTH_PATHS.deviceAuthorization),
    pushed_authorization_request_endpoint: url(OAUTH_PATHS.par),
    end_session_endpoint: url(OAUTH_PATHS.endSession),
    // Site-wide no: each app can be set to require it (require_par).
    require_pushed_authorization_requests: false,
    userinfo_endpoint: url(OAUTH_PATHS.userinfo),
    jwks_uri: url(OAUTH_PATHS.jwks),
    revocation_endpoint: url(OAUTH_PATHS.revoke),
    introspection_endpoint: url(OAUTH_PATHS.introspect),
    scopes_supported: ALL_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: grantTypes,
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    // RFC 9449 §5.1: proofs are accepted at the token endpoint and on every protected route.
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
    claims_supported: ['iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', ...USERINFO_CLAIMS],
    prompt_values_supported: [...SUPPORTED_PROMPTS],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  };
}
