// The browser's round trip through an OpenID Connect provider (api-contract
// §15): start (PKCE S256, state, nonce; the state single use and bound to the
// browser by a cookie, RFC 9700 §4.7), callback (openid-client checks the
// answer and the id_token; the account is found or made by the linking
// rules), and the one-time code the web app exchanges for tokens.
import { DomainError, ErrorCode, badRequest } from '../../core/errors.js';
import { safeEqual, sha256Hex } from '../../crypto/compare.js';
import { secretToken } from '../../crypto/random.js';
import type { Clock } from '../../core/clock.js';
import type { UserWithGroup } from '../../db/schema.js';
import type { IdentityLinking, UpstreamPerson } from '../linking.js';
import type { OidcProvider, ProviderService } from '../providers.js';
import type { IdentityRepository } from '../identities-repository.js';
import type { OidcClients, UpstreamClaims } from './client.js';
import type { SsoRepository } from './repository.js';

/** How long a browser has to come back from the provider. */
const STATE_TTL_MS = 10 * 60_000;
/** The one-time code's life (api-contract §15: 60 s). */
const CODE_TTL_MS = 60_000;

/** A same-site path (no scheme, no host, no `//` or `\`): nothing else may be a return path (RFC 9700 §4.11, open redirects). */
export function safeReturnPath(value: string | undefined): string {
  if (value === undefined || value === '') return '/';
  if (value.length > 2048 || !/^\/(?![/\\])[^\\\s\p{Cc}]*$/u.test(value)) throw badRequest('return_to: must be a path on this site, such as /files');
  return value;
}

const refused = (msg: string) => new DomainError(ErrorCode.CredentialInvalid, msg);

export interface UpstreamSession {
  providerId: string;
  subject: string;
  upstreamSid: string | null;
  idToken: string | null;
}

export type CallbackResult = { kind: 'signed_in'; code: string; returnTo: string } | { kind: 'linked'; returnTo: string };

export class SsoFlow {
  constructor(
    private readonly repo: SsoRepository,
    private readonly providers: ProviderService,
    private readonly clients: OidcClients,
    private readonly linking: IdentityLinking,
    private readonly identities: IdentityRepository,
    private readonly clock: Clock,
  ) {}

  private async oidcProvider(id: string): Promise<OidcProvider> {
    const p = await this.providers.get(id).catch(() => undefined);
    if (!p || p.type !== 'oidc' || !p.enabled) throw new DomainError(ErrorCode.NotFound, 'No such sign-in provider');
    return p;
  }

  /**
   * The provider's authorization URL, and the browser secret the state is
   * bound to (the caller sets it as a cookie; the callback must bring it back).
   * `browser` is the cookie the browser already has, reused so that two tabs
   * starting at once do not void each other.
   */
  async start(providerId: string, opts: { returnTo: string; linkUserId: string | null; browser: string | undefined }): Promise<{ url: string; browser: string }> {
    const p = await this.oidcProvider(providerId);
    const returnTo = safeReturnPath(opts.returnTo);
    const browser = opts.browser && /^[A-Za-z0-9_-]{32,64}$/.test(opts.browser) ? opts.browser : secretToken(32);
    const state = secretToken(32);
    const nonce = secretToken(32);
    const codeVerifier = secretToken(48);
    const url = await this.clients.authorizationUrl(p, { state, nonce, codeVerifier });
    await this.repo.insertState({
      id: sha256Hex(state),
      provider_id: p.id,
      browser: sha256Hex(browser),
      code_verifier: codeVerifier,
      nonce,
      return_to: returnTo,
      link_user_id: opts.linkUserId,
      expires_at: this.clock.now() + STATE_TTL_MS,
    });
    return { url, browser };
  }

  /** The provider sent the browser back. Every failure is a refusal with no session (40020 / 40001 / 403 / 409). */
  async callback(providerId: string, query: URLSearchParams, browser: string | undefined): Promise<CallbackResult> {
    const state = query.get('state');
    if (!state) throw refused('The answer from the provider has no state: start the sign-in again');
    // Single use: the row is taken before anything else is checked, so a replay finds nothing.
    const row = await this.repo.takeState(sha256Hex(state));
    if (!row || row.provider_id !== providerId) throw refused('This sign-in link is unknown, used or from another provider: start the sign-in again');
    if (row.expires_at < this.clock.now()) throw refused('The sign-in took too long: start it again');
    if (!browser || !safeEqual(sha256Hex(browser), row.browser)) throw refused('This sign-in was started in another browser: start it again here');
    const p = await this.oidcProvider(providerId);
    const { claims, idToken } = await this.clients.exchange(p, query, { state, nonce: row.nonce, codeVerifier: row.code_verifier });
    const person = personOf(p, claims);
    const user = await this.linking.resolve(p, person, row.link_user_id);
    if (row.link_user_id !== null) return { kind: 'linked', returnTo: row.return_to };
    checkActive(user);
    const code = secretToken(32);
    await this.repo.insertCode({
      id: sha256Hex(code),
      user_id: user.id,
      provider_id: p.id,
      subject: person.subject,
      upstream_sid: typeof claims.sid === 'string' ? claims.sid : null,
      id_token: idToken,
      expires_at: this.clock.now() + CODE_TTL_MS,
    });
    return { kind: 'signed_in', code, returnTo: row.return_to };
  }

  /** The one-time code for the account and the upstream session it came from (used once, within 60 s). */
  async exchange(code: string): Promise<{ userId: string; upstream: UpstreamSession }> {
    const row = await this.repo.takeCode(sha256Hex(code));
    if (!row || row.expires_at < this.clock.now()) throw refused('This sign-in code is unknown, used or expired: sign in again');
    return { userId: row.user_id, upstream: { providerId: row.provider_id, subject: row.subject, upstreamSid: row.upstream_sid, idToken: row.id_token } };
  }

  /** Remembers which upstream session a Cirrus session family came from. */
  async recordSession(familyId: string, userId: string, upstream: UpstreamSession): Promise<void> {
    await this.identities.insertSession({
      family_id: familyId,
      user_id: userId,
      provider_id: upstream.providerId,
      subject: upstream.subject,
      upstream_sid: upstream.upstreamSid,
      id_token: upstream.idToken,
      created_at: this.clock.now(),
    });
  }

  /** Back-Channel Logout 1.0: the families that came from the named upstream session (or every one of the subject). */
  async backchannelLogout(providerId: string, logoutToken: string): Promise<string[]> {
    const p = await this.oidcProvider(providerId);
    const { sub, sid } = await this.clients.verifyLogoutToken(p, logoutToken);
    const rows = await this.identities.sessionsFor(p.id, sub, sid);
    return rows.map((r) => r.family_id);
  }

  /** Where to send the browser to end the upstream session too, or null (no such session, or the provider has no end_session_endpoint). */
  async endSessionUrl(familyId: string, postLogoutRedirectUri: string): Promise<string | null> {
    const row = await this.identities.findSession(familyId);
    if (!row) return null;
    const p = await this.providers.get(row.provider_id).catch(() => undefined);
    if (!p || p.type !== 'oidc') return null;
    return this.clients.endSessionUrl(p, row.id_token, postLogoutRedirectUri);
  }

  prune(): Promise<void> {
    return this.repo.prune(this.clock.now());
  }
}

function checkActive(user: UserWithGroup): void {
  if (user.status === 'banned' || user.status === 'team') throw new DomainError(ErrorCode.Banned, 'This account is banned');
}

/** The person as the id_token describes them; the groups claim may be a list or one string. */
export function personOf(p: OidcProvider, claims: UpstreamClaims): UpstreamPerson {
  let groups: string[] | null = null;
  const claimName = p.settings.groups_claim;
  if (claimName) {
    const raw = claims[claimName];
    groups = Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : typeof raw === 'string' ? [raw] : [];
  }
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return {
    subject: claims.sub,
    login: email ?? (typeof claims.preferred_username === 'string' ? claims.preferred_username : claims.sub),
    email,
    // Only a boolean true counts (some providers send the string "true"; that is not the claim's type, §5.1).
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined,
    groups,
  };
}
