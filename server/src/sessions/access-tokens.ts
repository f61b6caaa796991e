// Verifies bearer access tokens (api-contract §2) without touching the
// database on the hot path: signature and claims are checked in memory,
// revocations come from the RevocationCache, user status from the UserCache.
import { LruMap } from '../core/lru-map.js';
import { checkTimes, JwtError, type Hs256, type JwtClaims } from '../crypto/jwt.js';
import type { UserCache } from '../accounts/user-cache.js';
import { InvalidToken, type AuthContext, type AuthUser, type TokenVerifier } from '../core/identity.js';
import type { RevocationCache } from './revocation-cache.js';
import type { Clock } from '../core/clock.js';

export { InvalidToken, type AuthContext };

/**
 * Tokens whose signature and structure already checked out, keyed by the full
 * token string: a client sends the same token on every request, so the HMAC
 * and JSON parsing run once per token instead of once per request. Only the
 * cryptographic part is cached; times, revocations and the user are checked
 * on every request.
 */
class VerifiedTokens {
  private readonly map: LruMap<string, JwtClaims>;
  constructor(max: number) {
    this.map = new LruMap(max);
  }

  get(token: string): JwtClaims | undefined {
    return this.map.get(token);
  }

  set(token: string, claims: JwtClaims): void {
    this.map.set(token, claims);
  }
}

export class AccessTokenVerifier implements TokenVerifier {
  private readonly verified = new VerifiedTokens(20_000);

  constructor(
    private readonly jwt: Hs256,
    private readonly users: UserCache,
    private readonly revocations: RevocationCache,
    private readonly clock: Clock,
  ) {}

  async verify(token: string, nowMs = this.clock.now()): Promise<AuthContext> {
    return this.check(token, nowMs);
  }

  /**
   * verify() for the auth guard: throws InvalidToken at once, and answers
   * without a promise when the user is in the cache (the hot path: no
   * promise and no microtask per request, docs/benchmarks.md).
   */
  check(token: string, nowMs = this.clock.now(), held = false): AuthContext | Promise<AuthContext> {
    let claims: JwtClaims;
    try {
      const cached = this.verified.get(token);
      claims = cached ?? this.jwt.verify(token);
      checkTimes(claims, Math.floor(nowMs / 1000));
      if (!cached) this.verified.set(token, claims);
    } catch (err) {
      throw new InvalidToken(err instanceof JwtError ? err.message : 'invalid token');
    }
    if (claims.token_type !== 'access') throw new InvalidToken('not an access token');
    if (typeof claims.nbf !== 'number') throw new InvalidToken('missing nbf');
    const sub = claims.sub;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 64) throw new InvalidToken('bad sub');
    const sid = optionalString(claims.sid, 'sid');
    const clientId = optionalString(claims.client_id, 'client_id');
    let scopes: string[] | null = null;
    if (claims.scopes !== undefined || clientId !== null) {
      if (!Array.isArray(claims.scopes) || !claims.scopes.every((s) => typeof s === 'string')) throw new InvalidToken('bad scopes');
      scopes = claims.scopes as string[];
    }
    const iat = claims.iat;
    if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) throw new InvalidToken('bad iat');
    // A token without iat (method C) is dated by its nbf for cut-off checks.
    const issuedMs = ((iat as number | undefined) ?? (claims.nbf as number)) * 1000;

    if (sid !== null && this.revocations.isFamilyRevoked(sid)) throw new InvalidToken('session revoked');
    // Past this point a token with a sid belongs to a live family (see RevocationCache.isCutOff).
    const inLiveFamily = sid !== null;
    if (this.revocations.isCutOff('user', sub, issuedMs, inLiveFamily)) throw new InvalidToken('token revoked');
    if (clientId !== null) {
      if (this.revocations.isCutOff('client', clientId, issuedMs, inLiveFamily)) throw new InvalidToken('client revoked');
      if (this.revocations.isCutOff('grant', `${sub} ${clientId}`, issuedMs, inLiveFamily)) throw new InvalidToken('grant revoked');
    }
    const admit = (user: AuthUser | null): AuthContext => {
      if (!user || !user.active) throw new InvalidToken('user unavailable');
      // The user's "tokens not valid before" time (password change, reset, ban, sign-out
      // everywhere). A token of a live family is spared: every family the change was meant
      // to end is revoked with it, and the one kept (the session that changed the password)
      // must keep working. Everything else, tokens signed locally with the master key above
      // all, is dated by the earlier of iat and nbf, so a later iat cannot dodge the cut-off.
      if (sid === null && user.tokensValidAfter > 0) {
        const datedMs = Math.min((iat as number | undefined) ?? Infinity, claims.nbf as number) * 1000;
        if (datedMs <= user.tokensValidAfter) throw new InvalidToken('token predates a password change or sign-out');
      }
      return { user, claims, sid, clientId, scopes };
    };
    // A held connection's family token may use the user as last read, however old: everything that
    // ends such a token (ban, deletion, sign-out, password change, grant or app revoked) is a revocation
    // event checked above, so an idle stream reads nothing. A token without a family is ended by the
    // user's tokens_valid_after, which only the row says: it keeps the 3 s bound.
    const peeked = held && sid !== null ? this.users.peekHeld(sub) : this.users.peek(sub);
    return peeked === undefined ? this.users.get(sub).then(admit) : admit(peeked);
  }

  /**
   * check() again for a connection it already admitted (an open event
   * stream), once per round of the holder's timer. Same answers, except that
   * a family token does not send the user cache to the database (above).
   */
  recheck(token: string, nowMs = this.clock.now()): AuthContext | Promise<AuthContext> {
    return this.check(token, nowMs, true);
  }
}

function optionalString(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > 128) throw new InvalidToken(`bad ${name}`);
  return value;
}
