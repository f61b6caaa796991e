// Pushed authorization requests (RFC 9126): an authenticated client sends the
// parameters of its authorization request straight to the server and gets a
// request_uri that stands for them, for 60 seconds, once, and only for that
// client. The parameters are checked when pushed, with the same validator the
// authorize page uses, and again when the page is opened.
import { sha256Hex } from '../crypto/compare.js';
import { secretToken } from '../crypto/random.js';
import { OAuthError, type OAuthErrorCode } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { ParRepository } from './par-repository.js';
import { checkAuthorizationRequest } from './authorization-request.js';
import type { Client } from './clients.js';
import type { RequestParams } from './params.js';

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
/** RFC 9126 §2.2 suggests a short life: 5 to 600 seconds. */
export const PAR_TTL_S = 60;

/** The codes a PAR answer may carry (RFC 9126 §2.3 uses those of the authorization endpoint). */
const PAR_ERRORS: ReadonlySet<OAuthErrorCode> = new Set(['invalid_request', 'invalid_scope', 'unauthorized_client', 'unsupported_response_type', 'request_not_supported']);

function hashOf(requestUri: string): string | null {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX) || requestUri.length > REQUEST_URI_PREFIX.length + 64) return null;
  return sha256Hex(requestUri.slice(REQUEST_URI_PREFIX.length));
}

export class PushedRequests {
  constructor(
    private readonly repo: ParRepository,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  /** RFC 9126 §2: checks and stores the parameters; answers the request_uri that stands for them. */
  async push(client: Client, form: Map<string, string>): Promise<{ request_uri: string; expires_in: number }> {
    if (form.has('request_uri')) throw new OAuthError('invalid_request', 'request_uri: must not be pushed (RFC 9126 §2.1)');
    const sentId = form.get('client_id');
    if (sentId !== undefined && sentId !== client.id) throw new OAuthError('invalid_request', 'client_id: does not match the authenticated client');
    // The authorization request's own parameters; the client's credentials are not kept.
    const params: RequestParams = new Map();
    for (const [name, value] of form) if (name !== 'client_secret') params.set(name, [value]);
    params.set('client_id', [client.id]);
    const check = await checkAuthorizationRequest(params, async (id) => (id === client.id ? client : undefined), this.issuer, { pushing: true });
    if (check.kind === 'invalid') throw new OAuthError('invalid_request', check.message);
    if (check.kind === 'error') throw new OAuthError(PAR_ERRORS.has(check.error) ? check.error : 'invalid_request', check.description);

    const secret = secretToken(32);
    const now = this.clock.now();
    await this.repo.insert({
      request_uri_hash: sha256Hex(secret),
      client_id: client.id,
      params: JSON.stringify(Object.fromEntries(params)),
      created_at: now,
      expires_at: now + PAR_TTL_S * 1000,
    });
    return { request_uri: `${REQUEST_URI_PREFIX}${secret}`, expires_in: PAR_TTL_S };
  }

  /** The pushed parameters, while they wait for this client (RFC 9126 §4); undefined otherwise. */
  async resolve(clientId: string, requestUri: string): Promise<RequestParams | undefined> {
    const hash = hashOf(requestUri);
    const json = hash === null ? undefined : await this.repo.findLive(hash, clientId, this.clock.now());
    return json === undefined ? undefined : new Map(Object.entries(JSON.parse(json) as Record<string, string[]>));
  }

  /** One decision per request_uri (single use, §4). */
  async consume(clientId: string, requestUri: string): Promise<boolean> {
    const hash = hashOf(requestUri);
    return hash !== null && this.repo.consume(hash, clientId, this.clock.now());
  }

  async prune(): Promise<void> {
    await this.repo.prune(this.clock.now() - 3600_000);
  }
}
