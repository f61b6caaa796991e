import type { SessionService } from '../../sessions/service.js';
import type { Client } from '../clients.js';
import type { TokenBinding } from '../../sessions/token-issuer.js';

/** Read access to session families (the sessions feature's rows), for auth_time, introspection and scope checks. */
export type FamilyLookup = Pick<SessionService, 'findFamily'>;

/** A token-endpoint form after the repeated-parameter check: one value per name. */
export type Form = Map<string, string>;

/** RFC 6749 §5.1 plus the contract's refresh_token_expires_in and OIDC's id_token. */
export interface TokenResponse {
  access_token: string;
  /** DPoP when the access token is bound to a key (RFC 9449 §5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  id_token?: string;
}

/** What the token request proved besides the client: the DPoP key (RFC 9449 §5), if a proof was sent. */
export interface GrantContext {
  jkt: string | null;
}

/** One grant type of the token endpoint (DESIGN: one file per grant, found through a registry). */
export type GrantHandler = (client: Client, form: Form, context: GrantContext) => Promise<TokenResponse>;

/**
 * RFC 9449 §5: the access token is bound to the proof's key; the refresh
 * token too, for a public client only (a confidential client's refresh
 * token is already bound to its client authentication).
 */
export function bindingFor(client: Client, context: GrantContext): TokenBinding | undefined {
  if (context.jkt === null) return undefined;
  return { access: context.jkt, refresh: client.isPublic ? context.jkt : null };
}
