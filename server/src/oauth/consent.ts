// What users grant to applications: the consent decision (which issues the
// authorization code), remembered grants, and their revocation.
import { sha256Hex } from '../crypto/compare.js';
import { secretToken } from '../crypto/random.js';
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import type { RevocationService } from '../sessions/revocation.js';
import type { SessionRow } from '../sessions/service.js';
import type { FamilyLookup } from './token/types.js';
import type { Client, ClientService } from './clients.js';
import type { GrantRepository, RotatedAppFamily } from './grants-repository.js';
import { errorLocation, type AuthorizationRequest } from './authorization-request.js';
import { appendQuery } from './redirect-uris.js';
import { allSatisfied, scopeList } from './scopes.js';
import { rfc3339 } from '../accounts/views.js';
import type { Clock } from '../core/clock.js';
import { REFRESH_TOKEN } from './grant-types.js';

/** RFC 6749 §4.1.2 recommends at most 10 minutes; the contract says at most 5. */
export const CODE_TTL_MS = 5 * 60_000;

export interface AppInfo {
  id: string;
  name: string;
  icon: string;
  homepage_url: string | null;
  description: string;
  scopes: string[];
  consented_scopes: string[];
}

export interface GrantView {
  client_id: string;
  name: string;
  icon: string;
  homepage_url: string | null;
  scopes: string[];
  created_at: string;
  updated_at: string;
}

export type Decision = { redirect_uri: string; code: string; state: string | null } | { redirect_uri: string };

export class ConsentService {
  private readonly grantedListeners: ((userId: string, client: { id: string; name: string }, scopes: readonly string[]) => Promise<void>)[] = [];

  constructor(
    private readonly clients: ClientService,
    private readonly grants: GrantRepository,
    private readonly revocation: RevocationService,
    private readonly families: FamilyLookup,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  /** Told when a person grants an app scopes it did not have (notifications: `app_authorized`). */
  onGranted(listener: (userId: string, client: { id: string; name: string }, scopes: readonly string[]) => Promise<void>): void {
    this.grantedListeners.push(listener);
  }

  private async granted(userId: string, clientId: string, scopes: readonly string[]): Promise<void> {
    if (this.grantedListeners.length === 0) return;
    const client = await this.clients.find(clientId);
    for (const l of this.grantedListeners) await l(userId, { id: clientId, name: client?.name ?? clientId }, scopes);
  }

  /** auth_time (OIDC Core §2): when the user signed in, i.e. the start of their session family. */
  async authTime(sid: string | null): Promise<number | null> {
    return sid !== null ? ((await this.families.findFamily(sid))?.created_at ?? null) : null;
  }

  async appInfo(clientId: string, userId: string | null): Promise<AppInfo> {
    const client = await this.clients.findEnabled(clientId);
    if (!client) throw notFound('OAuth app not found');
    return {
      id: client.id,
      name: client.name,
      icon: client.icon,
      homepage_url: client.homepageUrl,
      description: client.description,
      scopes: client.scopes,
      consented_scopes: userId ? await this.consentedScopes(userId, clientId) : [],
    };
  }

  async consentedScopes(userId: string, clientId: string): Promise<string[]> {
    return scopeList((await this.grants.find(userId, clientId))?.scopes);
  }

  /**
   * The user's answer to a validated request. Approval records (or extends)
   * the grant and issues a single-use code; refusal and prompt=none without a
   * prior grant send the matching error back to the client.
   */
  async decide(userId: string, authTimeMs: number | null, req: AuthorizationRequest, approve: boolean): Promise<Decision> {
    const iss = this.issuer;
    if (!approve) return { redirect_uri: errorLocation(req.redirectUri, iss, 'access_denied', 'The user denied the request', req.state) };
    const granted = await this.consentedScopes(userId, req.client.id);
    if (req.prompt.includes('none') && !allSatisfied(granted, req.scopes)) {
      return { redirect_uri: errorLocation(req.redirectUri, iss, 'consent_required', 'The user has not granted these scopes yet', req.state) };
    }
    const now = this.clock.now();
    const union = [...new Set([...granted, ...req.scopes])];
    if (union.length > granted.length) {
      await this.grants.upsert(userId, req.client.id, union.join(' '), now);
      await this.granted(userId, req.client.id, union);
    }
    const code = secretToken(32);
    await this.grants.insertCode({
      code_hash: sha256Hex(code),
      client_id: req.client.id,
      user_id: userId,
      redirect_uri: req.redirectUri,
      scopes: req.scopes.join(' '),
      code_challenge: req.codeChallenge,
      nonce: req.nonce,
      auth_time: authTimeMs,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      used_at: null,
      sid: null,
      reused_at: null,
      dpop_jkt: req.dpopJkt,
    });
    return { redirect_uri: appendQuery(req.redirectUri, { code, state: req.state, iss }), code, state: req.state ?? null };
  }

  /** Records (or extends) the user's grant to an app, as an approval does (the device grant's too). */
  async remember(userId: string, clientId: string, scopes: readonly string[]): Promise<void> {
    const granted = await this.consentedScopes(userId, clientId);
    const union = [...new Set([...granted, ...scopes])];
    if (union.length > granted.length) {
      await this.grants.upsert(userId, clientId, union.join(' '), this.clock.now());
      await this.granted(userId, clientId, union);
    }
  }

  async listGrants(userId: string): Promise<GrantView[]> {
    const rows = await this.grants.listForUser(userId);
    return rows.map((g) => ({
      client_id: g.client_id,
      name: g.client_name,
      icon: g.client_icon,
      homepage_url: g.client_homepage_url,
      scopes: scopeList(g.scopes),
      created_at: rfc3339(g.created_at),
      updated_at: rfc3339(g.updated_at),
    }));
  }

  /** Every app the user approved loses its grant (and its tokens), as if revoked one by one. */
  async revokeAllGrants(userId: string): Promise<void> {
    for (const g of await this.grants.listForUser(userId)) {
      if (await this.grants.delete(userId, g.client_id)) await this.revocation.revokeGrant(userId, g.client_id, 'grant_revoked');
    }
  }

  /** Refresh tokens of the app stop at once, its access tokens within the revocation poll (≤ 5 s). */
  async revokeGrant(userId: string, clientId: string): Promise<void> {
    if (!(await this.grants.delete(userId, clientId))) throw notFound('No grant for this application');
    await this.revocation.revokeGrant(userId, clientId, 'grant_revoked');
  }

  /**
   * Registered with SessionService: an OAuth family refreshes only while its
   * app and grant stand. `authenticated` is the enabled client the token
   * endpoint has just authenticated, used instead of reading it again.
   */
  async checkFamily(family: SessionRow, authenticated?: Client): Promise<void> {
    if (family.client_id === null) return;
    const client = authenticated?.id === family.client_id ? authenticated : await this.clients.findEnabled(family.client_id);
    const refusal = accessRefusal(family, client, client ? ((await this.grants.find(family.user_id, family.client_id))?.scopes ?? null) : null);
    if (refusal !== null) throw refusal;
  }

  /**
   * The check before a refresh (at either refresh route): the family's app and
   * grant stand, and the app may still use refresh tokens (api-contract §12).
   */
  async checkRefresh(family: SessionRow, authenticated?: Client): Promise<void> {
    await this.checkFamily(family, authenticated);
    if (family.client_id === null) return;
    const client = authenticated?.id === family.client_id ? authenticated : await this.clients.findEnabled(family.client_id);
    const refusal = refreshRefusal(client);
    if (refusal !== null) throw refusal;
  }

  async pruneCodes(): Promise<void> {
    // Used codes are kept a day past expiry so that a late replay still revokes what they issued.
    await this.grants.pruneCodes(this.clock.now() - 24 * 3600_000);
  }
}

/** The family check on rows already read: the app still has the family's scopes and the user's grant covers them. */
function accessRefusal(family: SessionRow, client: Client | undefined, grantScopes: string | null): DomainError | null {
  const scopes = scopeList(family.scopes);
  if (!client || !allSatisfied(client.scopes, scopes)) return new DomainError(ErrorCode.CredentialInvalid, 'The application no longer has this access');
  if (grantScopes === null || !allSatisfied(scopeList(grantScopes), scopes)) return new DomainError(ErrorCode.CredentialInvalid, 'The user has revoked this access');
  return null;
}

function refreshRefusal(client: Client | undefined): DomainError | null {
  return client?.grantTypes.includes(REFRESH_TOKEN) ? null : new DomainError(ErrorCode.CredentialInvalid, 'The application may no longer use refresh tokens');
}

/**
 * checkRefresh for the token endpoint's one-statement rotation
 * (GrantRepository.rotateAppFamily), which read the grant with the family:
 * the same rules, no statement. `client` is the authenticated client, whose
 * id the statement required of the family.
 */
export function refreshRefusalOfRotated(family: RotatedAppFamily, client: Client): DomainError | null {
  return accessRefusal(family, client, family.grant_scopes) ?? refreshRefusal(client);
}
