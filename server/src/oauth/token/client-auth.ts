// Client authentication at the token, revocation and introspection endpoints
// (RFC 6749 §2.3): client_secret_basic, client_secret_post, or none for
// public clients. Failures are counted per client and address and per address
// (the project's throttle, with its clean-key memory; keys of our own); past
// the allowance answers are 429.
import { ACCOUNT_POLICY, ADDRESS_POLICY, type Throttle } from '../../throttle/service.js';
import { MAX_CLIENT_ID_LENGTH, type Client, type ClientService } from '../clients.js';
import { OAuthError } from '../../core/errors.js';
import type { Form } from './types.js';

export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/** §2.3.1: id and secret are form-encoded before the Basic encoding. */
function parseBasic(header: string): { id: string; secret: string } | null {
  const m = /^Basic +([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    const id = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    // No client id or secret holds NUL (and PostgreSQL cannot even compare one).
    return id.includes('\u0000') || secret.includes('\u0000') ? null : { id, secret };
  } catch {
    return null;
  }
}

export class ClientAuthenticator {
  constructor(
    private readonly clients: ClientService,
    private readonly throttle: Throttle,
  ) {}

  async authenticate(authorization: string | undefined, form: Form, address: string): Promise<Client> {
    const viaBasic = authorization !== undefined;
    // §5.2: a client that tried the Authorization header gets 401 with a challenge.
    const failure = (description: string) => new OAuthError('invalid_client', description, { basicChallenge: viaBasic });
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (authorization !== undefined) {
      const basic = parseBasic(authorization);
      if (!basic) throw failure('The Authorization header must carry Basic client credentials');
      if (secret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
      if (id !== undefined && id !== basic.id) throw failure('client_id does not match the Basic credentials');
      id = basic.id;
      secret = basic.secret === '' ? undefined : basic.secret;
    }
    if (id === undefined || id === '') throw failure('Client authentication is required');
    if (id.length > MAX_CLIENT_ID_LENGTH) throw failure('Client authentication failed');

    // The client row usually comes from the client cache. The secret check
    // is an HMAC, cheap enough to run first: a right secret on keys with no
    // failures counted is admitted at once, however many requests the client
    // has in flight; a wrong one (or any on a key with failures) goes through
    // the reservation before its answer, so guesses stay bounded.
    const c = await this.clients.findEnabled(id);
    const valid = c !== undefined && (c.isPublic ? secret === undefined : secret !== undefined && c.secretHash !== null && this.clients.secrets.verify(secret, c.secretHash));
    const targets = [
      { key: `oauth-client:${id}:${address}`, policy: ACCOUNT_POLICY, clearOnSuccess: true },
      { key: `oauth-addr:${address}`, policy: ADDRESS_POLICY },
    ];
    const client = await this.throttle.attemptKnown(targets, valid ? c : undefined);
    if (!client) throw failure('Client authentication failed');
    return client;
  }
}
