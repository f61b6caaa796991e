// The OpenID Connect relying party, through openid-client (a certified RP):
// discovery, the authorization URL, the code exchange with the id_token
// checked in full (OpenID Connect Core 1.0 §3.1.3.7: iss, aud, exp, nonce and
// the signature against the provider's JWKS even for a token from the token
// endpoint, with an algorithm allow-list), the upstream end-session URL, and
// the back-channel logout token (Back-Channel Logout 1.0 §2.6, with jose, as
// openid-client has no verifier for it). Every upstream call has a timeout, so
// a slow provider costs only the request that waits for it.
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { DomainError, ErrorCode } from '../../core/errors.js';
import { isLoopbackHost, type OidcProvider } from '../providers.js';

/** Seconds each upstream request may take (discovery, token, JWKS). */
export const UPSTREAM_TIMEOUT_S = 5;
/** How long a discovery document is kept (the JWKS inside it follows the provider's rotation on its own). */
const DISCOVERY_TTL_MS = 10 * 60_000;
/**
 * Asymmetric signatures only: `none` and HS* (a secret the provider shares
 * with every copy of the client) are refused whatever the provider advertises.
 */
export const ID_TOKEN_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

export interface UpstreamClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  sid?: string;
  [claim: string]: unknown;
}

export interface TestStep {
  step: 'discovery' | 'jwks' | 'connect' | 'bind' | 'search';
  ok: boolean;
  detail: string;
}

/** 40020 with the provider's or the library's reason (never a secret: neither holds one). */
export function upstreamRefused(what: string, err: unknown): DomainError {
  return new DomainError(ErrorCode.CredentialInvalid, `${what}: ${describe(err)}`, { detail: err instanceof Error ? err.stack : String(err) });
}

export function describe(err: unknown): string {
  if (err instanceof oidc.ResponseBodyError) return `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  if (err instanceof oidc.AuthorizationResponseError) return `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `the provider did not answer within ${UPSTREAM_TIMEOUT_S} s`;
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`.slice(0, 300);
  }
  return 'unknown error';
}

export class OidcClients {
  private readonly configs = new Map<string, { at: number; updatedAt: number; config: Promise<oidc.Configuration> }>();
  private readonly logoutKeys = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly redirectUriOf: (providerId: string) => string,
    private readonly now: () => number,
  ) {}

  forget(providerId: string): void {
    this.configs.delete(providerId);
    this.logoutKeys.delete(providerId);
  }

  /** The provider's discovered configuration, kept for a while; a failed discovery is not kept. */
  config(p: OidcProvider): Promise<oidc.Configuration> {
    const cached = this.configs.get(p.id);
    if (cached && cached.updatedAt === p.updated_at && this.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = this.discover(p);
    this.configs.set(p.id, { at: this.now(), updatedAt: p.updated_at, config });
    config.catch(() => this.configs.delete(p.id));
    return config;
  }

  private discover(p: OidcProvider): Promise<oidc.Configuration> {
    const issuer = new URL(p.settings.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
    const metadata: Partial<oidc.ClientMetadata> = {
      client_secret: p.secret || undefined,
      // openid-client accepts a list here: the allow-list of §3.1.3.7 step 7.
      id_token_signed_response_alg: ID_TOKEN_ALGS as unknown as string,
      redirect_uris: [this.redirectUriOf(p.id)],
    };
    return oidc.discovery(issuer, p.settings.client_id, metadata, p.secret ? oidc.ClientSecretPost(p.secret) : oidc.None(), {
      timeout: UPSTREAM_TIMEOUT_S,
      execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
    });
  }

  async authorizationUrl(p: OidcProvider, checks: { state: string; nonce: string; codeVerifier: string }): Promise<string> {
    const config = await this.config(p).catch((err: unknown) => {
      // A refusal (400), not a 5xx: nothing is wrong with Cirrus, and the message says what is.
      throw new DomainError(ErrorCode.ParamError, `${p.name} cannot be reached: ${describe(err)}`, { detail: String(err) });
    });
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: this.redirectUriOf(p.id),
        scope: p.settings.scopes,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /** The code for tokens; the id_token verified in full. Throws 40020 with the reason. */
  async exchange(p: OidcProvider, query: URLSearchParams, checks: { state: string; nonce: string; codeVerifier: string }): Promise<{ claims: UpstreamClaims; idToken: string }> {
    let config: oidc.Configuration;
    try {
      config = await this.config(p);
    } catch (err) {
      throw upstreamRefused(`${p.name} cannot be reached`, err);
    }
    const current = new URL(this.redirectUriOf(p.id));
    current.search = query.toString();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new Error('the token response has no id_token');
      // OIDC Core §5.4: a provider that issues an access token may return the profile, email and
      // groups claims from the UserInfo endpoint only (Cirrus's own provider does). Those fill what
      // the id_token lacks; the signed id_token's claims win, and a UserInfo answer for another
      // subject is refused (§5.3.2, checked by the library).
      const userinfo = config.serverMetadata().userinfo_endpoint && tokens.access_token ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub) : {};
      return { claims: { ...userinfo, ...claims } as unknown as UpstreamClaims, idToken: tokens.id_token };
    } catch (err) {
      throw upstreamRefused(`${p.name} refused the sign-in`, err);
    }
  }

  /** What worked: discovery, then the JWKS (keys it can verify with); else the provider's own error. */
  async test(p: OidcProvider): Promise<TestStep[]> {
    this.forget(p.id);
    const steps: TestStep[] = [];
    let config: oidc.Configuration;
    try {
      config = await this.config(p);
      const m = config.serverMetadata();
      steps.push({ step: 'discovery', ok: true, detail: `issuer ${m.issuer}; authorization ${m.authorization_endpoint}; token ${m.token_endpoint}${m.end_session_endpoint ? '; end session supported' : ''}` });
    } catch (err) {
      steps.push({ step: 'discovery', ok: false, detail: describe(err) });
      return steps;
    }
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) {
      steps.push({ step: 'jwks', ok: false, detail: 'the discovery document names no jwks_uri' });
      return steps;
    }
    try {
      const res = await fetch(jwksUri, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_S * 1000), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status} from ${jwksUri}`);
      const body = (await res.json()) as { keys?: { kty?: string; alg?: string; use?: string }[] };
      const keys = (body.keys ?? []).filter((k) => k.use === undefined || k.use === 'sig');
      if (keys.length === 0) throw new Error('the JWKS holds no signing key');
      steps.push({ step: 'jwks', ok: true, detail: `${keys.length} signing key(s): ${keys.map((k) => k.alg ?? k.kty).join(', ')}` });
    } catch (err) {
      steps.push({ step: 'jwks', ok: false, detail: describe(err) });
    }
    return steps;
  }

  /** The provider's end-session URL for this id_token, or null when it has none (or cannot be reached). */
  async endSessionUrl(p: OidcProvider, idToken: string | null, postLogoutRedirectUri: string): Promise<string | null> {
    try {
      const config = await this.config(p);
      if (!config.serverMetadata().end_session_endpoint) return null;
      const params: Record<string, string> = { client_id: p.settings.client_id, post_logout_redirect_uri: postLogoutRedirectUri };
      if (idToken) params.id_token_hint = idToken;
      return oidc.buildEndSessionUrl(config, params).toString();
    } catch {
      return null;
    }
  }

  /**
   * Back-Channel Logout 1.0 §2.6: signature against the provider's JWKS (the
   * same allow-list), iss, aud, iat, the backchannel event, no nonce, and a
   * sub or a sid. Throws 40001 with the reason.
   */
  async verifyLogoutToken(p: OidcProvider, token: string): Promise<{ sub?: string; sid?: string }> {
    let payload: JWTPayload;
    try {
      const config = await this.config(p);
      const m = config.serverMetadata();
      if (!m.jwks_uri) throw new Error('the provider publishes no jwks_uri');
      let keys = this.logoutKeys.get(p.id);
      if (!keys) {
        keys = createRemoteJWKSet(new URL(m.jwks_uri), { timeoutDuration: UPSTREAM_TIMEOUT_S * 1000, cooldownDuration: 60_000 });
        this.logoutKeys.set(p.id, keys);
      }
      ({ payload } = await jwtVerify(token, keys, { issuer: m.issuer, audience: p.settings.client_id, algorithms: ID_TOKEN_ALGS, maxTokenAge: '5m', typ: undefined }));
    } catch (err) {
      throw new DomainError(ErrorCode.ParamError, `logout_token: ${describe(err)}`);
    }
    const events = payload.events as Record<string, unknown> | undefined;
    if (!events || typeof events !== 'object' || !(BACKCHANNEL_EVENT in events)) throw new DomainError(ErrorCode.ParamError, 'logout_token: no back-channel logout event');
    if ('nonce' in payload) throw new DomainError(ErrorCode.ParamError, 'logout_token: must not carry a nonce');
    const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
    const sid = typeof payload.sid === 'string' ? payload.sid : undefined;
    if (sub === undefined && sid === undefined) throw new DomainError(ErrorCode.ParamError, 'logout_token: names neither sub nor sid');
    return { sub, sid };
  }
}
