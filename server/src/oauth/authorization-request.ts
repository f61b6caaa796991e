// Validation of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3,
// OIDC Core §3.1.2.1), shared by the page route and the consent API so that
// both apply exactly the same rules. client_id and redirect_uri come first:
// while either is wrong nothing may be sent to the redirect URI (§4.1.2.1).
import { MAX_CLIENT_ID_LENGTH, type Client } from './clients.js';
import { appendQuery, redirectUriRegistered } from './redirect-uris.js';
import { isWellFormedChallenge } from './pkce.js';
import { isKnownScope, parseScopeParam, scopeSatisfied } from './scopes.js';
import type { OAuthErrorCode } from '../core/errors.js';
import { repeatedParam, type RequestParams } from './params.js';
import { AUTHORIZATION_CODE } from './grant-types.js';

export const MAX_STATE_LENGTH = 4096;
const MAX_NONCE_LENGTH = 512;
export const SUPPORTED_PROMPTS: ReadonlySet<string> = new Set(['none', 'consent']);
/** Parameters that must not be repeated (RFC 6749 §3.1). Unknown ones are ignored. */
const DEFINED_PARAMS = new Set(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'response_mode', 'request', 'request_uri', 'dpop_jkt']);
/** A JWK SHA-256 thumbprint (RFC 7638), base64url: 43 characters. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

export interface AuthorizationRequest {
  client: Client;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  nonce: string | null;
  prompt: string[];
  /** The request_uri the parameters came from (RFC 9126 §4), to be spent by the decision; null for a plain request. */
  pushed: string | null;
  /** RFC 9449 §10: the DPoP key the code is bound to (dpop_jkt, or the proof of the pushed request); null: unbound. */
  dpopJkt: string | null;
}

export interface CheckOptions {
  /** The parameters pushed under `requestUri` by this client, if they are still waiting (RFC 9126 §4). */
  resolvePushed?: (clientId: string, requestUri: string) => Promise<RequestParams | undefined>;
  /** Checking the body of a pushed authorization request itself (RFC 9126 §2.1). */
  pushing?: boolean;
}

export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** client_id or redirect_uri is wrong: show an error, never redirect. */
  | { kind: 'invalid'; message: string }
  /** Any other problem: redirect to the client with the error. */
  | { kind: 'error'; location: string; error: OAuthErrorCode; description: string };

export function errorLocation(redirectUri: string, issuer: string, error: OAuthErrorCode, description: string, state: string | undefined): string {
  return appendQuery(redirectUri, { error, error_description: description, state, iss: issuer });
}

export async function checkAuthorizationRequest(
  query: RequestParams,
  findClient: (id: string) => Promise<Client | undefined>,
  issuer: string,
  options: CheckOptions = {},
): Promise<AuthorizationCheck> {
  let params = query;
  const clientIds = params.get('client_id') ?? [];
  if (clientIds.length !== 1) return { kind: 'invalid', message: clientIds.length ? 'client_id: must be sent once' : 'client_id: is required' };
  const client = clientIds[0]!.length <= MAX_CLIENT_ID_LENGTH ? await findClient(clientIds[0]!) : undefined;
  if (!client) return { kind: 'invalid', message: 'client_id: no such application, or it is disabled' };
  // RFC 9126 §4: a pushed request replaces the query; only client_id and request_uri travel.
  let pushed: string | null = null;
  const requestUris = params.get('request_uri');
  if (requestUris !== undefined && options.resolvePushed && !options.pushing) {
    if (requestUris.length !== 1) return { kind: 'invalid', message: 'request_uri: must be sent once' };
    const stored = await options.resolvePushed(client.id, requestUris[0]!);
    if (!stored) return { kind: 'invalid', message: 'request_uri: unknown, expired, already used, or pushed by another application' };
    params = stored;
    pushed = requestUris[0]!;
  }
  const redirectUris = params.get('redirect_uri') ?? [];
  if (redirectUris.length !== 1) return { kind: 'invalid', message: redirectUris.length ? 'redirect_uri: must be sent once' : 'redirect_uri: is required' };
  const redirectUri = redirectUris[0]!;
  if (!redirectUriRegistered(client.redirectUris, redirectUri)) return { kind: 'invalid', message: 'redirect_uri: is not registered for this application' };

  const states = params.get('state');
  const state = states?.length === 1 && states[0]!.length <= MAX_STATE_LENGTH ? states[0] : undefined;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({ kind: 'error', location: errorLocation(redirectUri, issuer, error, description, state), error, description });
  const single = (name: string) => params.get(name)?.[0];

  const repeated = repeatedParam(params, DEFINED_PARAMS);
  if (repeated !== undefined) return fail('invalid_request', `${repeated}: must not be sent more than once`);
  if (states && state === undefined) return fail('invalid_request', `state: must be at most ${MAX_STATE_LENGTH} characters`);
  if (params.has('request')) return fail('request_not_supported', 'request objects are not supported');
  if (params.has('request_uri')) {
    return options.pushing ? fail('invalid_request', 'request_uri: must not be pushed (RFC 9126 §2.1)') : fail('request_uri_not_supported', 'request_uri: only those issued by the pushed authorization request endpoint are supported');
  }
  // RFC 9126 §5: an app registered to push its requests.
  if (client.requirePar && pushed === null && !options.pushing) return fail('invalid_request', 'this application must use pushed authorization requests (RFC 9126)');

  // RFC 6749 §4.1.2.1: an app not registered for this grant.
  if (!client.grantTypes.includes(AUTHORIZATION_CODE)) return fail('unauthorized_client', 'this application may not use the authorization code grant');

  const responseType = single('response_type');
  if (responseType === undefined) return fail('invalid_request', 'response_type: is required');
  if (responseType !== 'code') return fail('unsupported_response_type', 'response_type: only code is supported');
  const responseMode = single('response_mode');
  if (responseMode !== undefined && responseMode !== 'query') return fail('invalid_request', 'response_mode: only query is supported');

  const scopeParam = single('scope');
  if (scopeParam === undefined) return fail('invalid_scope', 'scope: is required');
  const scopes = parseScopeParam(scopeParam);
  if (!scopes?.length) return fail('invalid_scope', 'scope: is malformed');
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined) return fail('invalid_scope', `scope: ${unknown} is not a known scope`);
  const refused = scopes.find((s) => !scopeSatisfied(client.scopes, s));
  if (refused !== undefined) return fail('invalid_scope', `scope: this application may not request ${refused}`);

  const method = single('code_challenge_method');
  const challenge = single('code_challenge');
  if (method !== undefined && method !== 'S256') return fail('invalid_request', 'code_challenge_method: only S256 is supported');
  if (method !== undefined && challenge === undefined) return fail('invalid_request', 'code_challenge: is required with code_challenge_method');
  if (challenge !== undefined && !isWellFormedChallenge(challenge)) return fail('invalid_request', 'code_challenge: must be a base64url SHA-256 value (43 characters)');
  if (client.isPublic && challenge === undefined) return fail('invalid_request', 'code_challenge: public clients must use PKCE');

  const nonce = single('nonce');
  if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH) return fail('invalid_request', `nonce: must be at most ${MAX_NONCE_LENGTH} characters`);
  const prompt = single('prompt')?.split(' ').filter(Boolean) ?? [];
  const unsupported = prompt.find((p) => !SUPPORTED_PROMPTS.has(p));
  if (unsupported !== undefined) return fail('invalid_request', `prompt: ${unsupported} is not supported`);
  if (prompt.includes('none') && prompt.length > 1) return fail('invalid_request', 'prompt: none cannot be combined with other values');

  // RFC 9449 §10: the thumbprint of the key whose proof the code exchange must carry.
  const dpopJkt = single('dpop_jkt');
  if (dpopJkt !== undefined && !THUMBPRINT.test(dpopJkt)) return fail('invalid_request', 'dpop_jkt: must be a base64url SHA-256 JWK thumbprint (43 characters)');

  return { kind: 'valid', request: { client, redirectUri, scopes, state, codeChallenge: challenge ?? null, nonce: nonce ?? null, prompt, pushed, dpopJkt: dpopJkt ?? null } };
}
