// Token revocation (RFC 7009) and introspection (RFC 7662) for the client a
// token was issued to. Our tokens are self-describing JWTs, so
// token_type_hint is not needed to find them (RFC 7009 §2.1 lets us ignore it).
import { checkTimes, type Hs256, type JwtClaims } from '../../crypto/jwt.js';
import type { AccessTokenVerifier } from '../../sessions/access-tokens.js';
import type { RevocationService } from '../../sessions/revocation.js';
import type { Client } from '../clients.js';
import type { ConsentService } from '../consent.js';
import { OAuthError } from '../../core/errors.js';
import type { FamilyLookup } from './types.js';
import { nowSeconds, type Clock } from '../../core/clock.js';
import { boundKey } from '../../core/dpop.js';

export type Introspection = { active: false } | ({ active: true } & Record<string, unknown>);

const INACTIVE: Introspection = { active: false };

export class TokenInspection {
  constructor(
    private readonly jwt: Hs256,
    private readonly verifier: AccessTokenVerifier,
    private readonly families: FamilyLookup,
    private readonly consent: ConsentService,
    private readonly revocation: RevocationService,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  private claimsOf(token: string): JwtClaims | null {
    try {
      return this.jwt.verify(token);
    } catch {
      return null;
    }
  }

  /** §2.2: unknown and invalid tokens are answered 200 like revoked ones. */
  async revoke(client: Client, token: string): Promise<void> {
    const claims = this.claimsOf(token);
    if (!claims || (claims.token_type !== 'access' && claims.token_type !== 'refresh')) return;
    if (claims.client_id !== client.id) throw new OAuthError('invalid_request', 'This token was not issued to this client');
    // The whole family goes: a refresh token with its access tokens, an access token with its refresh token.
    if (typeof claims.sid === 'string') await this.revocation.revokeFamily(claims.sid, 'oauth_revocation');
  }

  /** §2.2: a token issued to another client is reported inactive, revealing nothing about it. */
  async introspect(client: Client, token: string): Promise<Introspection> {
    const claims = this.claimsOf(token);
    if (!claims || claims.client_id !== client.id) return INACTIVE;
    try {
      checkTimes(claims, nowSeconds(this.clock));
    } catch {
      return INACTIVE;
    }
    // RFC 9449 §6.2: a bound token's key, so that a resource server can check the proof.
    const jkt = boundKey(claims);
    const common = { client_id: client.id, sub: claims.sub, exp: claims.exp, iat: claims.iat, iss: this.issuer, ...(jkt !== null ? { cnf: { jkt } } : {}) };
    if (claims.token_type === 'access') {
      const auth = await this.verifier.verify(token).catch(() => null);
      if (!auth) return INACTIVE;
      return { active: true, ...common, scope: (auth.scopes ?? []).join(' '), token_type: jkt !== null ? 'DPoP' : 'Bearer', nbf: claims.nbf, jti: claims.jti };
    }
    if (claims.token_type === 'refresh' && typeof claims.sid === 'string') {
      const family = await this.families.findFamily(claims.sid);
      const live = family && family.revoked_at === null && family.user_id === claims.sub && family.current_jti === claims.jti && !this.revocation.cache.isFamilyRevoked(family.id);
      if (!live || !(await this.consent.checkFamily(family, client).then(() => true, () => false))) return INACTIVE;
      return { active: true, ...common, scope: family.scopes ?? '' };
    }
    return INACTIVE;
  }
}
