// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.5–4.6, RFC 9700 §4.8).
import { sha256Hex } from '../../crypto/compare.js';
import type { AccountService } from '../../accounts/service.js';
import type { RevocationService } from '../../sessions/revocation.js';
import { brokenCodeRule, type GrantRepository, type CodeRow, type CodeMatch } from '../grants-repository.js';
import { OAuthError } from '../../core/errors.js';
import { challengeFor, isWellFormedVerifier } from '../pkce.js';
import { OFFLINE_ACCESS, scopeList } from '../scopes.js';
import { planFamily, type TokenMinter } from './minter.js';
import type { Client } from '../clients.js';
import { bindingFor, type Form, type GrantContext, type GrantHandler, type TokenResponse } from './types.js';
import type { Clock } from '../../core/clock.js';

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

/** What the challenge rule's refusal means for this request (RFC 7636 §4.6, RFC 9700 §4.8.2). */
function verifierRefusal(row: CodeRow, verifier: string | undefined): OAuthError {
  if (row.code_challenge === null) {
    // Downgrade protection: a verifier with no challenge means the challenge was stripped.
    return invalidGrant('code_verifier was sent but the authorization request had no code_challenge');
  }
  if (verifier === undefined) return invalidGrant('code_verifier: is required (the request carried a code_challenge)');
  if (!isWellFormedVerifier(verifier)) return invalidGrant('code_verifier: must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  return invalidGrant('code_verifier does not match the code_challenge');
}

export function authorizationCodeGrant(deps: { grants: GrantRepository; accounts: AccountService; revocation: RevocationService; minter: TokenMinter; clock: Clock }): GrantHandler {
  const { grants, accounts, revocation, minter, clock } = deps;

  /** §4.1.2: a code used twice is refused and what it issued is revoked. */
  async function replayed(row: CodeRow): Promise<OAuthError> {
    const sid = await grants.markReused(row.code_hash, clock.now());
    if (sid !== null) await revocation.revokeFamily(sid, 'code_reuse');
    return invalidGrant('The authorization code was already used; the tokens it issued are revoked');
  }

  /**
   * The rules of the exchange (grants-repository.ts CODE_RULES, the same ones
   * the one-statement path applies), for a request that path refused: says
   * which rule failed, or consumes the code if the refusal was a race that
   * the code has meanwhile lost (then a replay).
   */
  async function checkedConsume(form: Form, hash: string, match: CodeMatch): Promise<CodeRow> {
    const row = await grants.findCode(hash);
    if (!row) throw invalidGrant('The authorization code is invalid or expired');
    switch (brokenCodeRule(row, match, clock.now())) {
      case 'used':
        throw await replayed(row);
      case 'other_client':
        throw invalidGrant('The authorization code was issued to another client');
      case 'expired':
        throw invalidGrant('The authorization code has expired');
      case 'redirect_uri':
        throw invalidGrant('redirect_uri does not match the authorization request');
      case 'challenge':
        throw verifierRefusal(row, form.get('code_verifier'));
      case 'dpop_key':
        // RFC 9449 §10 names no error; like node-oidc-provider, the code is the grant refused. The code stays unspent.
        throw invalidGrant(
          match.dpopJkt === null
            ? 'The authorization code is bound to a DPoP key (dpop_jkt): send a DPoP proof of that key'
            : 'The DPoP proof key does not match the dpop_jkt of the authorization request',
        );
      case null:
        break;
    }
    if (!(await grants.consumeCode(row.code_hash, clock.now()))) throw await replayed(row);
    return row;
  }

  /**
   * The common case: the code is consumed and its family inserted by
   * `grants.exchange` (one statement on PostgreSQL, two on SQLite); the
   * tokens are signed from the returned row. Undefined when the code did not
   * match (the fallback then names the failure or detects the replay).
   */
  async function usualExchange(client: Client, hash: string, match: CodeMatch, context: GrantContext): Promise<TokenResponse | undefined> {
    const plan = await minter.plan(client);
    const off = planFamily(plan, '', OFFLINE_ACCESS);
    const on = planFamily(plan, '', '');
    const family = { id: plan.sid, current_jti: plan.jti, created_at: plan.now, offline: off, online: on };
    const row = await grants.exchange(hash, match, family, plan.now);
    if (!row) return undefined;
    // The guard's bounded-staleness user cache: a ban here is seen at once, elsewhere within 3 s
    // (a ban also revokes the family, which now exists). The code is spent without issuing anything.
    const user = await accounts.cache.get(row.user_id);
    if (!user?.active) {
      await grants.discardFamily(plan.sid);
      throw invalidGrant('The user is no longer active');
    }
    return minter.respond(planFamily(plan, row.user_id, row.scopes), plan.accessTtl, { nonce: row.nonce, authTimeMs: row.auth_time, binding: bindingFor(client, context) }, plan.now);
  }

  return async (client, form, context) => {
    const code = form.get('code');
    if (code === undefined) throw new OAuthError('invalid_request', 'code: is required');
    if (code.length > 256) throw invalidGrant('The authorization code is invalid or expired');
    const hash = sha256Hex(code);
    // The challenge is compared by the database, not in constant time: it is
    // public (it travelled in the authorization request) and only the holder
    // of the code reaches this comparison.
    const verifier = form.get('code_verifier');
    const wellFormed = verifier === undefined || isWellFormedVerifier(verifier);
    const match: CodeMatch = { clientId: client.id, redirectUri: form.get('redirect_uri'), codeChallenge: verifier === undefined ? null : challengeFor(verifier), dpopJkt: context.jkt };
    if (wellFormed) {
      const response = await usualExchange(client, hash, match, context);
      if (response) return response;
    }

    // The fallback, rule by rule; a code it consumes (a refusal above that was
    // a race the code has meanwhile lost) still issues through a fresh family.
    const row = await checkedConsume(form, hash, match);
    const user = await accounts.cache.get(row.user_id);
    if (!user?.active) throw invalidGrant('The user is no longer active');

    const { sid, response } = await minter.mint(client, row.user_id, scopeList(row.scopes), { nonce: row.nonce, authTimeMs: row.auth_time, binding: bindingFor(client, context) });
    // A replay that raced this exchange found no family to revoke yet: revoke it here.
    if ((await grants.attachFamily(row.code_hash, sid)) !== null) {
      await revocation.revokeFamily(sid, 'code_reuse');
      throw invalidGrant('The authorization code was already used; the tokens it issued are revoked');
    }
    return response;
  };
}
