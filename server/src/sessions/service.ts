// Session families (method B): sign-in, the second factor, refresh rotation
// with reuse detection, and sign-out. OAuth reuses families for its grants.
import { checkTimes, JwtError, type Hs256, type JwtClaims } from '../crypto/jwt.js';
import { secretToken, timeOrderedId } from '../crypto/random.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { SignInMethod } from '../core/identity.js';
import type { AccountService } from '../accounts/service.js';
import type { UserWithGroup } from '../db/schema.js';
import type { SettingsService } from '../site/settings.js';
import { ACCOUNT_POLICY, ADDRESS_POLICY, type Throttle } from '../throttle/service.js';
import type { SessionRepository, SessionRow } from './repository.js';

export type { SessionRow };
import type { RevocationService } from './revocation.js';
import type { TokenBinding, TokenIssuer, TokenPair } from './token-issuer.js';
import { boundKey } from '../core/dpop.js';
import type { ChallengeRepository } from './challenge-repository.js';
import { nowSeconds, type Clock } from '../core/clock.js';

/** Two tabs refreshing with the same token at once are not punished within this window (contract: ≤ 10 s). */
export const REUSE_GRACE_MS = 10_000;
const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_MAX_ATTEMPTS = 5;

export type SignInResult = { kind: 'tokens'; user: UserWithGroup; token: TokenPair; familyId?: string } | { kind: 'second_factor'; sessionId: string };

export interface RefreshResult {
  pair: TokenPair;
  family: SessionRow;
  accessTtl: number;
  refreshExpiresAt: number;
  /** The instant the pair was signed at: lifetimes in an answer count from it. */
  issuedAt: number;
}

/**
 * Extra checks a family created by another feature (OAuth) must still pass at
 * refresh. `client` is the client the caller has already authenticated (the
 * token endpoint's), so the check need not read it again.
 */
export type FamilyCheck = (family: SessionRow, context: { client?: { id: string } }) => Promise<void>;

/** What a one-statement rotation is given: the family and generation the token names, and the next generation. */
export interface RotationRequest {
  sid: string;
  userId: string;
  fromJti: string;
  toJti: string;
  now: number;
  /** The site's refresh lifetime (s), for a family without its own. */
  siteRefreshTtl: number;
}

/**
 * A caller's own rotation statement (the token endpoint's, which also reads
 * the app's grant in it): moves the family from `fromJti` to `toJti` only if
 * that generation is current and the family is live, unrevoked, unexpired
 * and `userId`'s, with expires_at = now + its refresh lifetime, and returns
 * the row as updated; undefined when any condition fails. It may throw a
 * DomainError for checks of its own on the row: it stands in for the family
 * checks (addFamilyCheck), so it must apply their rules; after such a refusal
 * the family has moved on without issuing anything.
 */
export type FamilyRotation = (r: RotationRequest) => Promise<SessionRow | undefined>;

/** 403/40018: the password was right but the address is not confirmed yet; data names the address for the "send again" button. */
export const notActivated = (email: string) =>
  new DomainError(ErrorCode.NotActivated, 'This account is not activated yet: open the link mailed to you, or ask for a new one', { data: { email } });

const credentialInvalid = (msg = 'Refresh token is invalid') => new DomainError(ErrorCode.CredentialInvalid, msg);

/** A password sign-in through LDAP directories: the person's account when a directory accepts the login and password. */
export interface DirectorySignIn {
  active(): Promise<boolean>;
  /** The account and the directory (provider id) that accepted the password. */
  signIn(login: string, password: string): Promise<{ user: UserWithGroup; providerId: string } | undefined>;
}

export class SessionService {
  private familyChecks: FamilyCheck[] = [];
  private directory: DirectorySignIn | undefined;

  constructor(
    private readonly challenges: ChallengeRepository,
    private readonly repo: SessionRepository,
    private readonly accounts: AccountService,
    private readonly settings: SettingsService,
    private readonly throttle: Throttle,
    private readonly issuer: TokenIssuer,
    private readonly jwt: Hs256,
    readonly revocation: RevocationService,
    private readonly clock: Clock,
  ) {}

  /** Password sign-in also asks the directories (identity/ldap). */
  useDirectory(directory: DirectorySignIn): void {
    this.directory = directory;
  }

  addFamilyCheck(check: FamilyCheck): void {
    this.familyChecks.push(check);
  }

  /**
   * `device` is the id of a valid device cookie for this e-mail (sessions/
   * device-cookies.ts), or null: a browser where the account signed in before
   * is limited on a count of its own, so guesses from elsewhere cannot lock
   * its owner out.
   */
  async signIn(emailInput: string, password: string, address: string, device: string | null = null): Promise<SignInResult & { method: SignInMethod }> {
    const email = emailInput.trim().toLowerCase();
    const isEmail = /^[^@\s]+@[^@\s]+$/.test(email);
    const directory = this.directory && (await this.directory.active()) ? this.directory : undefined;
    // A directory login (a uid) is accepted only when a directory is there to know it.
    if (!isEmail && !directory) throw new DomainError(ErrorCode.ParamError, 'email: must be an e-mail address');
    const accountKey = device === null ? `acct:${email}` : `acct-dev:${email}:${device}`;
    // The attempt is reserved before the password is checked (throttle/service.ts):
    // a wrong directory password counts like a wrong Cirrus one.
    const proven = await this.throttle.attempt(
      [
        { key: accountKey, policy: ACCOUNT_POLICY, clearOnSuccess: true },
        { key: `addr:${address}`, policy: ADDRESS_POLICY },
      ],
      async (): Promise<{ user: UserWithGroup; method: SignInMethod } | undefined> => {
        // A Cirrus password comes first: an account with its own password keeps it, whatever a directory says.
        // (An address without one still takes the time of a check, so the answer's time does not tell which addresses have one.)
        const local = isEmail ? await this.accounts.checkCredentials(email, password) : undefined;
        if (local) return { user: local, method: { method: 'password' } };
        const fromDirectory = directory ? await directory.signIn(emailInput.trim(), password) : undefined;
        return fromDirectory ? { user: fromDirectory.user, method: { method: 'ldap', provider_id: fromDirectory.providerId } } : undefined;
      },
    );
    if (!proven) throw new DomainError(ErrorCode.SignInFailed, 'Wrong e-mail or password');
    const user = proven.user;
    // Checked after the password, so that the answer tells nothing to someone who does not know it.
    // The switch is about Cirrus passwords only: a directory sign-in is the organisation's own.
    if (proven.method.method === 'password' && user.group_is_admin !== 1 && !(await this.settings.current()).password_sign_in) {
      throw new DomainError(ErrorCode.FeatureDisabled, "Password sign-in is turned off on this site: sign in with your organisation's account");
    }
    return { ...(await this.signInProven(user)), method: proven.method };
  }

  /**
   * Signs in a person whose first factor was proven (a Cirrus password, an
   * upstream provider, a directory bind): the account's own second factor
   * still applies.
   */
  async signInProven(user: UserWithGroup): Promise<SignInResult> {
    if (user.status === 'inactive') throw notActivated(user.email);
    if (user.status !== 'active') throw new DomainError(ErrorCode.Banned, 'This account is banned');
    if (user.totp_secret) {
      const sessionId = secretToken(24);
      await this.challenges.insert({ id: sessionId, user_id: user.id, expires_at: this.clock.now() + CHALLENGE_TTL_MS, attempts: 0 });
      return { kind: 'second_factor', sessionId };
    }
    const { family, pair } = await this.startFamily(user.id);
    return { kind: 'tokens', user, token: pair, familyId: family.id };
  }

  async completeSecondFactor(sessionId: string, otp: string, address: string): Promise<{ user: UserWithGroup; token: TokenPair }> {
    const challenge = await this.challenges.find(sessionId);
    if (!challenge || challenge.expires_at < this.clock.now() || challenge.attempts >= CHALLENGE_MAX_ATTEMPTS) {
      throw new DomainError(ErrorCode.CredentialInvalid, 'Sign-in session expired; sign in again');
    }
    // The user's codes are limited across all their challenges (reserved
    // before the code is checked); each challenge also allows only
    // CHALLENGE_MAX_ATTEMPTS, claimed atomically, so a spent challenge is
    // refused without counting as a guess.
    const user = await this.throttle.attempt(
      [
        { key: `otp:${challenge.user_id}`, policy: ACCOUNT_POLICY, clearOnSuccess: true },
        { key: `addr:${address}`, policy: ADDRESS_POLICY },
      ],
      async () => {
        if (!(await this.challenges.claimAttempt(sessionId, CHALLENGE_MAX_ATTEMPTS))) throw new DomainError(ErrorCode.CredentialInvalid, 'Sign-in session expired; sign in again');
        return this.accounts.verifySecondFactor(challenge.user_id, otp);
      },
    );
    if (!user) throw new DomainError(ErrorCode.WrongOtp, 'Wrong verification code');
    // Single use: only the request that deletes the challenge gets tokens.
    if (!(await this.challenges.take(sessionId))) throw new DomainError(ErrorCode.CredentialInvalid, 'Sign-in session expired; sign in again');
    if (user.status !== 'active') throw new DomainError(ErrorCode.Banned, 'This account is banned');
    return { user, token: (await this.startFamily(user.id)).pair };
  }

  /** Creates a session family and its first token pair. */
  /** A session family as stored (OAuth reads the family behind a token through this). */
  findFamily(id: string): Promise<SessionRow | undefined> {
    return this.repo.find(id);
  }

  async startFamily(userId: string, opts: { clientId?: string; scopes?: string[]; refreshTtl?: number; binding?: TokenBinding } = {}): Promise<{ family: SessionRow; pair: TokenPair; accessTtl: number; refreshExpiresAt: number }> {
    const s = await this.settings.current();
    const now = this.clock.now();
    const family = newFamilyRow({ userId, clientId: opts.clientId ?? null, scopes: opts.scopes ? opts.scopes.join(' ') : null, refreshTtl: opts.refreshTtl ?? null }, s.refresh_token_ttl, now);
    await this.repo.insert(family);
    return { family, pair: this.firstPair(family, s.access_token_ttl, now, opts.binding), accessTtl: s.access_token_ttl, refreshExpiresAt: family.expires_at };
  }

  /** The first token pair of a family already stored (by startFamily, or by another feature's statement). */
  firstPair(family: SessionRow, accessTtl: number, now: number, binding?: TokenBinding): TokenPair {
    return this.issuer.pair(subjectOf(family), family.current_jti, accessTtl, family.expires_at, now, binding);
  }

  /** Verifies a refresh token's signature and claims; no state is read. */
  parseRefreshToken(token: string): JwtClaims & { sub: string; sid: string; jti: string } {
    let claims: JwtClaims;
    try {
      claims = this.jwt.verify(token);
      checkTimes(claims, nowSeconds(this.clock));
    } catch (err) {
      throw credentialInvalid(err instanceof JwtError && err.message === 'expired' ? 'Refresh token has expired' : 'Refresh token is invalid');
    }
    if (claims.token_type !== 'refresh') throw credentialInvalid('Not a refresh token');
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.jti !== 'string') throw credentialInvalid();
    return claims as JwtClaims & { sub: string; sid: string; jti: string };
  }

  /**
   * Rotation (api-contract §3): the current token moves the family on; the
   * one just replaced is honoured for REUSE_GRACE_MS; anything else is reuse
   * and revokes the whole family.
   *
   * DPoP (RFC 9449 §5): a refresh token bound to a key (`cnf.jkt`) is
   * honoured only with a proof of that key (`proofJkt`, checked by the
   * caller), before anything else, so a stolen bound token cannot even set
   * off reuse detection; the new refresh token keeps the binding, and an
   * unbound one gets bound when `bindRefresh` (public clients) and a proof
   * is given. The access token is bound to the proof's key, if any.
   */
  async refresh(
    token: string,
    opts: { clientId?: string | null; refreshTtl?: number; client?: { id: string }; proofJkt?: string | null; bindRefresh?: boolean; rotate?: FamilyRotation } = {},
  ): Promise<RefreshResult> {
    const claims = this.parseRefreshToken(token);
    if (opts.clientId !== undefined && (claims.client_id ?? null) !== opts.clientId) throw credentialInvalid('Refresh token was not issued to this client');
    const proofJkt = opts.proofJkt ?? null;
    const bound = boundKey(claims);
    if (bound !== null && bound !== proofJkt) {
      throw credentialInvalid(proofJkt === null ? 'This refresh token is DPoP-bound: send a DPoP proof of its key' : 'This refresh token is bound to another DPoP key');
    }
    const binding: TokenBinding = { access: proofJkt, refresh: bound ?? (opts.bindRefresh ? proofJkt : null) };
    // The statement extends the family by its own lifetime (or the site's): a caller's refreshTtl takes the rule-by-rule path.
    if (opts.rotate && opts.refreshTtl === undefined) {
      const fast = await this.rotateAtOnce(claims, binding, opts.rotate);
      if (fast) return fast;
    }
    // The rule by rule path: the first-party route, and every token the one-statement rotation refused (reuse, grace, ended).
    let family = await this.repo.find(claims.sid);
    if (!family || family.revoked_at !== null || family.user_id !== claims.sub) throw credentialInvalid('Session has ended');
    if (family.expires_at < this.clock.now()) throw credentialInvalid('Session has expired');
    // The guard's user cache (bounded staleness) is enough here: banning or
    // deleting a user revokes their families, which the row above shows at once.
    const user = await this.accounts.cache.get(family.user_id);
    if (!user) throw credentialInvalid('Session has ended');
    if (!user.active) throw new DomainError(ErrorCode.Banned, 'This account is banned');
    for (const check of this.familyChecks) await check(family, { client: opts.client });

    const s = await this.settings.current();
    const now = this.clock.now();
    const refreshExpiresAt = now + (opts.refreshTtl ?? family.refresh_ttl ?? s.refresh_token_ttl) * 1000;
    let jti: string;
    if (claims.jti === family.current_jti) {
      const next = secretToken(16);
      if (await this.repo.rotate(family.id, family.current_jti, next, now, refreshExpiresAt)) {
        jti = next;
      } else {
        // Another request rotated it first: this one is now a grace-window reuse.
        family = await this.repo.find(claims.sid);
        if (!family || family.revoked_at !== null) throw credentialInvalid('Session has ended');
        jti = this.graceOrRevoke(family, claims.jti, now);
      }
    } else {
      jti = this.graceOrRevoke(family, claims.jti, now);
    }
    if (jti === '') {
      await this.revocation.revokeFamily(family.id, 'refresh_token_reuse');
      throw credentialInvalid('Refresh token was already used; the session has been ended');
    }
    const pair = this.issuer.pair(subjectOf(family), jti, s.access_token_ttl, Math.max(refreshExpiresAt, family.expires_at), now, binding);
    return { pair, family, accessTtl: s.access_token_ttl, refreshExpiresAt, issuedAt: now };
  }

  /**
   * The usual refresh in one statement (`rotate`): the current generation of
   * a live family moves on, and the tokens are signed from the row it
   * returns. The same conditions as the rule-by-rule path's rotation; the
   * user is checked first, by the token's subject (the statement requires
   * the family to be that user's). Undefined when the statement changed
   * nothing (or the user is not active): the caller then takes the
   * rule-by-rule path, which names the failure, honours the grace window or
   * detects the reuse.
   */
  private async rotateAtOnce(claims: { sub: string; sid: string; jti: string }, binding: TokenBinding, rotate: FamilyRotation): Promise<RefreshResult | undefined> {
    const user = await this.accounts.cache.get(claims.sub);
    if (!user?.active) return undefined;
    const s = await this.settings.current();
    const now = this.clock.now();
    const next = secretToken(16);
    const family = await rotate({ sid: claims.sid, userId: claims.sub, fromJti: claims.jti, toJti: next, now, siteRefreshTtl: s.refresh_token_ttl });
    if (!family) return undefined;
    const pair = this.issuer.pair(subjectOf(family), next, s.access_token_ttl, family.expires_at, now, binding);
    return { pair, family, accessTtl: s.access_token_ttl, refreshExpiresAt: family.expires_at, issuedAt: now };
  }

  /** The jti to hand out for a concurrent refresh inside the grace window, or '' for reuse. */
  private graceOrRevoke(family: SessionRow, jti: string, now: number): string {
    if (family.previous_jti === jti && family.rotated_at !== null && now - family.rotated_at <= REUSE_GRACE_MS) return family.current_jti;
    return '';
  }

  async signOut(token: string): Promise<void> {
    const claims = this.parseRefreshTokenAllowExpired(token);
    const family = await this.repo.find(claims.sid);
    if (!family || family.user_id !== claims.sub) return;
    await this.revocation.revokeFamily(family.id, 'sign_out');
  }

  private parseRefreshTokenAllowExpired(token: string): { sub: string; sid: string } {
    let claims: JwtClaims;
    try {
      claims = this.jwt.verify(token);
    } catch {
      throw credentialInvalid();
    }
    if (claims.token_type !== 'refresh' || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') throw credentialInvalid('Not a refresh token');
    return { sub: claims.sub, sid: claims.sid };
  }
}

export interface NewFamily {
  userId: string;
  clientId: string | null;
  /** Space-separated, as stored. */
  scopes: string | null;
  /** Seconds each rotation extends the family by; null = the site setting. */
  refreshTtl: number | null;
  /** Given when the ids must be known before the row exists (OAuth inserts it in its own statement). */
  id?: string;
  jti?: string;
}

/** The row of a new family: its refresh lifetime is refreshTtl, or the site's when null. */
export function newFamilyRow(f: NewFamily, siteRefreshTtl: number, now: number): SessionRow {
  return {
    id: f.id ?? timeOrderedId(now),
    user_id: f.userId,
    client_id: f.clientId,
    scopes: f.scopes,
    current_jti: f.jti ?? secretToken(16),
    previous_jti: null,
    rotated_at: null,
    created_at: now,
    expires_at: now + (f.refreshTtl ?? siteRefreshTtl) * 1000,
    revoked_at: null,
    revoke_reason: null,
    refresh_ttl: f.refreshTtl,
  };
}

function subjectOf(family: SessionRow) {
  return { userId: family.user_id, sid: family.id, clientId: family.client_id, scopes: family.scopes === null ? null : family.scopes.split(' ').filter(Boolean) };
}
