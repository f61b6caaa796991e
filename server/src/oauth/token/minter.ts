// Turns an approved grant into the token response: a session family (so that
// rotation, reuse detection and revocation work as for sign-in), the access
// token, the refresh token only with offline_access, the id_token only with openid.
import { secretToken, timeOrderedId } from '../../crypto/random.js';
import { newFamilyRow, type SessionService } from '../../sessions/service.js';
import type { TokenBinding, TokenPair } from '../../sessions/token-issuer.js';
import type { SessionRow } from '../../sessions/service.js';
import type { SettingsService } from '../../site/settings.js';
import type { Client } from '../clients.js';
import type { IdTokenSigner } from '../id-tokens.js';
import { EMAIL, grantsOfflineAccess, OFFLINE_ACCESS, OPENID, scopeList } from '../scopes.js';
import type { TokenResponse } from './types.js';
import type { Clock } from '../../core/clock.js';

export interface MintOptions {
  nonce: string | null;
  authTimeMs: number | null;
  /** DPoP keys the tokens are bound to (types.ts bindingFor); undefined: Bearer tokens. */
  binding?: TokenBinding;
}

/**
 * What a family started from an authorization code will be, fixed before the
 * code is read: the ids and the lifetimes both with and without
 * offline_access (the scopes are known only from the code row).
 */
export interface FamilyPlan {
  sid: string;
  jti: string;
  clientId: string;
  now: number;
  accessTtl: number;
  siteRefreshTtl: number;
  /** The family's refresh_ttl with offline_access (the app's override, else null: the site's). */
  offlineTtl: number | null;
  /** Without offline_access the family only anchors revocation; it need not outlive the access token. */
  onlineTtl: number;
}

/** The family a plan yields for a code's user and scopes; the same row the database was given. */
export function planFamily(plan: FamilyPlan, userId: string, scopes: string): SessionRow {
  const offline = grantsOfflineAccess(scopes);
  return newFamilyRow(
    { id: plan.sid, jti: plan.jti, userId, clientId: plan.clientId, scopes, refreshTtl: offline ? plan.offlineTtl : plan.onlineTtl },
    plan.siteRefreshTtl,
    plan.now,
  );
}

/**
 * Seconds from the instant a token was signed to `rfc3339`. Tokens carry
 * whole seconds (`iat`, `exp`), so the count starts at the signing instant's
 * whole second: measuring from the millisecond instead made a 90-day
 * refresh token answer 7,775,999 (issue 11).
 */
export function secondsFromIssue(rfc3339: string, issuedAtMs: number): number {
  return Math.max(0, Math.round((Date.parse(rfc3339) - Math.floor(issuedAtMs / 1000) * 1000) / 1000));
}

/** The address claims of a user (OIDC Core §5.1), as userinfo gives them; undefined for an unknown user. */
export type EmailClaims = (userId: string) => Promise<{ email: string; email_verified: boolean } | undefined>;

export class TokenMinter {
  constructor(
    private readonly sessions: SessionService,
    private readonly settings: SettingsService,
    private readonly signer: IdTokenSigner,
    private readonly issuer: string,
    private readonly clock: Clock,
    private readonly emailClaims?: EmailClaims,
  ) {}

  async mint(client: Client, userId: string, scopes: string[], opts: MintOptions): Promise<{ sid: string; response: TokenResponse }> {
    const offline = grantsOfflineAccess(scopes);
    const refreshTtl = offline ? (client.refreshTokenTtl ?? undefined) : (await this.settings.current()).access_token_ttl;
    const { family, pair, accessTtl } = await this.sessions.startFamily(userId, { clientId: client.id, scopes, refreshTtl, binding: opts.binding });
    // The family was stamped with its creation time; answer with the pair startFamily already signed.
    return { sid: family.id, response: await this.respond(family, accessTtl, opts, family.created_at, pair) };
  }

  async plan(client: Client): Promise<FamilyPlan> {
    const s = await this.settings.current();
    const now = this.clock.now();
    return {
      sid: timeOrderedId(now),
      jti: secretToken(16),
      clientId: client.id,
      now,
      accessTtl: s.access_token_ttl,
      siteRefreshTtl: s.refresh_token_ttl,
      offlineTtl: client.refreshTokenTtl,
      onlineTtl: s.access_token_ttl,
    };
  }

  /** The token response for a family already stored (no statement): signatures only. */
  async respond(family: SessionRow, accessTtl: number, opts: MintOptions, now: number, pair: TokenPair = this.sessions.firstPair(family, accessTtl, now, opts.binding)): Promise<TokenResponse> {
    const scopes = scopeList(family.scopes);
    const tokenType = opts.binding?.access ? 'DPoP' : 'Bearer';
    const response: TokenResponse = { access_token: pair.access_token, token_type: tokenType, expires_in: accessTtl, scope: scopes.join(' ') };
    if (scopes.includes(OFFLINE_ACCESS)) {
      response.refresh_token = pair.refresh_token;
      response.refresh_token_expires_in = secondsFromIssue(pair.refresh_expires, now);
    }
    if (scopes.includes(OPENID)) {
      // With the email scope the id_token carries the same address claims as userinfo (api-contract §11).
      const email = scopes.includes(EMAIL) && this.emailClaims ? await this.emailClaims(family.user_id) : undefined;
      response.id_token = await this.signer.sign(
        {
          iss: this.issuer,
          sub: family.user_id,
          aud: family.client_id ?? '',
          sid: family.id,
          ...(opts.nonce !== null ? { nonce: opts.nonce } : {}),
          ...(opts.authTimeMs !== null ? { auth_time: Math.floor(opts.authTimeMs / 1000) } : {}),
          ...(email ?? {}),
        },
        accessTtl,
        now,
      );
    }
    return response;
  }
}
