// Who is asking on /dav/ (api-contract §8): HTTP Basic with the person's
// e-mail and the password of one of their WebDAV accounts (never the sign-in
// password), or a Bearer access token (first-party, local, or OAuth with
// Files.Read / Files.Write). Failed Basic attempts are throttled like sign-in,
// per credential.
//
// Basic sends the password with every request, and argon2id costs tens of
// milliseconds: a credential verified once is remembered (by a keyed hash,
// never the password) for VERIFIED_TTL_MS, but the account row is read on
// every request, so a deleted account, a new password or a changed folder
// takes effect at once on every instance.
import { LRUCache } from 'lru-cache';
import { createHash, randomBytes, createHmac } from 'node:crypto';
import { burnPasswordCheck, verifyPassword } from '../crypto/passwords.js';
import { safeEqual } from '../crypto/compare.js';
import { missingScopes } from '../core/scopes.js';
import { InvalidToken, type AccessTokenVerifier } from '../sessions/access-tokens.js';
import type { UserCache } from '../accounts/user-cache.js';
import { DavError } from './errors.js';
import { KEY_ID_LENGTH } from './accounts.js';
import type { DavRepository } from './repository.js';
import { ACCOUNT_POLICY, ADDRESS_POLICY, type Throttle } from '../throttle/service.js';
import type { Clock } from '../core/clock.js';
import { boundKey, dpopChallenge, DpopRefusal, type ResourceProofCheck, type ResourceRequest } from '../core/dpop.js';

/** The guess limit Basic passwords go through (throttle/service.ts): reserve, check, keep or give back. */
export type CredentialThrottle = Pick<Throttle, 'attempt'>;

export interface DavPrincipal {
  userId: string;
  /** The folder shown as /dav/ (absolute path in the person's tree). */
  root: string;
  readonly: boolean;
  /** OAuth scopes, or null for first-party tokens and WebDAV accounts. */
  scopes: string[] | null;
  accountId: string | null;
}

export const CHALLENGE = ['Basic realm="Cirrus", charset="UTF-8"', 'Bearer realm="Cirrus"'];
const VERIFIED_TTL_MS = 10 * 60_000;
const VERIFIED_MAX = 10_000;

/** Email or password were wrong: 401 with both challenges (RFC 7617 §2, RFC 6750 §3). */
export function unauthorized(message = 'Authentication required', bearerError?: string): DavError {
  // Two header fields, one challenge each: clients parse that more reliably than one combined list.
  const bearer = bearerError ? `Bearer realm="Cirrus", error="${bearerError}"` : CHALLENGE[1]!;
  return new DavError(401, message, undefined, { 'WWW-Authenticate': [CHALLENGE[0]!, bearer] });
}

export class DavAuthenticator {
  /** keyed hash of (username, password) -> account id and the hash it was verified against. */
  private readonly verified = new LRUCache<string, { accountId: string; userId: string; passwordHash: string; at: number }>({ max: VERIFIED_MAX });
  private readonly cacheKey = randomBytes(32);

  constructor(
    private readonly repo: DavRepository,
    private readonly users: { findByLogin(login: string): Promise<{ id: string; status: string } | undefined> },
    private readonly userCache: UserCache,
    private readonly verifier: AccessTokenVerifier,
    private readonly throttle: CredentialThrottle,
    private readonly clock: Clock,
    private readonly proofs?: ResourceProofCheck,
  ) {}

  /** Drops remembered credentials of an account (changed or deleted here). */
  forget(accountId: string): void {
    for (const [k, v] of this.verified) if (v.accountId === accountId) this.verified.delete(k);
  }

  /** `request`: what a DPoP proof is checked against (method, URL, the DPoP header). */
  async authenticate(header: string | undefined, address: string, write: boolean, request?: Omit<ResourceRequest, 'token' | 'jkt'>): Promise<DavPrincipal> {
    if (header === undefined) throw unauthorized();
    const space = header.indexOf(' ');
    const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : header.slice(space + 1).trim();
    if (scheme === 'basic') return this.basic(value, address);
    if (scheme === 'bearer') return this.bearer(value, write, null);
    if (scheme === 'dpop' && request && this.proofs) return this.bearer(value, write, request);
    throw unauthorized('Unsupported authorization scheme');
  }

  /** Bearer (RFC 6750) or, with `dpop`, a DPoP-bound token and its proof (RFC 9449 §7.1). */
  private async bearer(token: string, write: boolean, dpop: Omit<ResourceRequest, 'token' | 'jkt'> | null): Promise<DavPrincipal> {
    if (!/^[A-Za-z0-9._~+/=-]+$/.test(token)) throw unauthorized('Invalid access token', 'invalid_token');
    let auth;
    try {
      auth = await this.verifier.verify(token);
    } catch (err) {
      if (err instanceof InvalidToken) throw unauthorized('Invalid or expired access token', 'invalid_token');
      throw err;
    }
    const jkt = boundKey(auth.claims);
    try {
      // §7.2: a bound token is no bearer token; §7.1: and a DPoP one needs its proof.
      if (dpop === null && jkt !== null) throw new DpopRefusal('invalid_token', 'this access token is DPoP-bound: send it with the DPoP scheme and a proof');
      if (dpop !== null && jkt === null) throw new DpopRefusal('invalid_token', 'this access token is not DPoP-bound: send it as Bearer');
      if (dpop !== null && jkt !== null) await this.proofs!.checkResource({ ...dpop, token, jkt });
    } catch (err) {
      if (err instanceof DpopRefusal) {
        throw new DavError(401, err.message, undefined, { 'WWW-Authenticate': [CHALLENGE[0]!, dpopChallenge(err)], ...(err.nonce !== undefined ? { 'DPoP-Nonce': err.nonce } : {}) });
      }
      throw err;
    }
    // Files.Write covers Files.Read (oauth/scopes.ts); first-party tokens are unscoped.
    const missing = missingScopes(auth.scopes, [write ? 'Files.Write' : 'Files.Read']);
    if (missing.length) {
      throw new DavError(403, `This token lacks the scope ${missing.join(' ')}`, undefined, {
        'WWW-Authenticate': `Bearer realm="Cirrus", error="insufficient_scope", scope="${missing.join(' ')}"`,
      });
    }
    return { userId: auth.user.id, root: '/', readonly: false, scopes: auth.scopes, accountId: null };
  }

  private async basic(encoded: string, address: string): Promise<DavPrincipal> {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // NUL is no part of any e-mail or password (and PostgreSQL cannot even compare one).
    if (colon <= 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || decoded.includes('\u0000')) throw unauthorized('Malformed Basic credentials');
    const login = decoded.slice(0, colon).trim().toLowerCase();
    const password = decoded.slice(colon + 1);
    if (login.length > 320 || password.length > 256) throw unauthorized('Wrong e-mail or WebDAV password');
    const key = createHmac('sha256', this.cacheKey).update(login).update('\0').update(password).digest('base64url');
    const hit = this.verified.get(key);
    if (hit && this.clock.now() - hit.at < VERIFIED_TTL_MS) {
      // Known good: read the row (deleted or regenerated accounts stop at once) and the user's status.
      const row = await this.repo.findAccountByKey(hit.userId, password.slice(0, KEY_ID_LENGTH));
      const user = await this.userCache.get(hit.userId);
      if (row && row.id === hit.accountId && row.password_hash === hit.passwordHash && user?.active) {
        return { userId: row.user_id, root: row.root_path, readonly: row.readonly === 1, scopes: null, accountId: row.id };
      }
      this.verified.delete(key);
    }
    // Per credential (the e-mail and the password's public key id): a forgotten device retrying a revoked
    // password is held back alone, never its owner's other devices (api-contract §14). Guessing the
    // random rest of a password is held back all the same, and every guess also counts for the address.
    const accountKey = `dav:${createHash('sha256').update(login).update('\0').update(password.slice(0, KEY_ID_LENGTH)).digest('hex').slice(0, 32)}`;
    const addressKey = `dav-addr:${address}`;
    // The attempt is reserved before the password is checked, so parallel
    // guesses cannot outrun the count (throttle/service.ts).
    const found = await this.throttle.attempt(
      [
        { key: accountKey, policy: ACCOUNT_POLICY, clearOnSuccess: true },
        { key: addressKey, policy: ADDRESS_POLICY },
      ],
      async () => {
        const user = await this.users.findByLogin(login);
        const row = user ? await this.repo.findAccountByKey(user.id, password.slice(0, KEY_ID_LENGTH)) : undefined;
        let good = false;
        if (row && password.length > KEY_ID_LENGTH && safeEqual(row.key_id, password.slice(0, KEY_ID_LENGTH))) good = await verifyPassword(row.password_hash, password);
        else await burnPasswordCheck(password);
        return good && row && user && user.status === 'active' ? row : undefined;
      },
    );
    if (!found) throw unauthorized('Wrong e-mail or WebDAV password');
    const row = found;
    this.verified.set(key, { accountId: row.id, userId: row.user_id, passwordHash: row.password_hash, at: this.clock.now() });
    return { userId: row.user_id, root: row.root_path, readonly: row.readonly === 1, scopes: null, accountId: row.id };
  }
}
