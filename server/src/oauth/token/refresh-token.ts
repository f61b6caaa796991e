// grant_type=refresh_token (RFC 6749 §6). Rotation, reuse detection and the
// app/grant checks are SessionService's, shared with /api/v4/session/token/refresh.
import { DomainError, ErrorCode } from '../../core/errors.js';
import type { FamilyRotation, SessionService } from '../../sessions/service.js';
import type { GrantRepository } from '../grants-repository.js';
import { refreshRefusalOfRotated } from '../consent.js';
import type { Client } from '../clients.js';
import type { TokenIssuer } from '../../sessions/token-issuer.js';
import { OAuthError } from '../../core/errors.js';
import { parseScopeParam, scopeList } from '../scopes.js';
import { secondsFromIssue } from './minter.js';
import type { GrantHandler } from './types.js';

function asInvalidGrant(err: unknown): never {
  if (err instanceof DomainError && (err.code === ErrorCode.CredentialInvalid || err.code === ErrorCode.Banned)) throw new OAuthError('invalid_grant', err.message);
  throw err;
}

export function refreshTokenGrant(deps: { sessions: SessionService; issuer: TokenIssuer; grants: GrantRepository }): GrantHandler {
  const { sessions, issuer, grants } = deps;

  /**
   * The usual refresh in one statement: the family rotated and the user's
   * grant read together (GrantRepository.rotateAppFamily), then the family
   * check on the rows. A refusal there comes after the rotation: the family
   * has moved to a generation no one holds, and nothing is issued.
   */
  const rotateFor = (client: Client): FamilyRotation => async (r) => {
    const family = await grants.rotateAppFamily({ ...r, clientId: client.id });
    if (!family) return undefined;
    // The token names its family, user and app under our signature, so these hold; should they not, nothing is issued.
    if (family.user_id !== r.userId || family.client_id !== client.id) throw new DomainError(ErrorCode.CredentialInvalid, 'Session has ended');
    const refusal = refreshRefusalOfRotated(family, client);
    if (refusal) throw refusal;
    return family;
  };

  /** §6: a narrower scope may be asked for, never a wider one; checked before the token is spent. */
  async function requestedScopes(token: string, scopeParam: string | undefined): Promise<string[] | null> {
    if (scopeParam === undefined) return null;
    const requested = parseScopeParam(scopeParam);
    let familyScopes: string[] = [];
    try {
      const family = await sessions.findFamily(sessions.parseRefreshToken(token).sid);
      familyScopes = scopeList(family?.scopes);
    } catch (err) {
      asInvalidGrant(err);
    }
    if (!requested?.length || !requested.every((s) => familyScopes.includes(s))) throw new OAuthError('invalid_scope', 'scope: must not exceed the scope originally granted');
    return requested;
  }

  return async (client, form, { jkt }) => {
    const token = form.get('refresh_token');
    if (token === undefined) throw new OAuthError('invalid_request', 'refresh_token: is required');
    const narrowed = await requestedScopes(token, form.get('scope'));
    // RFC 9449 §5: a public client's refresh token is bound to its DPoP key (SessionService.refresh checks and keeps it).
    const result = await sessions.refresh(token, { clientId: client.id, client, proofJkt: jkt, bindRefresh: client.isPublic, rotate: rotateFor(client) }).catch(asInvalidGrant);
    // One instant for everything in the answer: the one the pair was signed at.
    const { family, pair, accessTtl, issuedAt: now } = result;
    let scopes = scopeList(family.scopes);
    let accessToken = pair.access_token;
    if (narrowed && narrowed.length < scopes.length) {
      scopes = narrowed;
      accessToken = issuer.access({ userId: family.user_id, sid: family.id, clientId: client.id, scopes }, accessTtl, now, jkt).token;
    }
    return {
      access_token: accessToken,
      token_type: jkt === null ? 'Bearer' : 'DPoP',
      expires_in: accessTtl,
      scope: scopes.join(' '),
      refresh_token: pair.refresh_token,
      refresh_token_expires_in: secondsFromIssue(pair.refresh_expires, now),
    };
  };
}
