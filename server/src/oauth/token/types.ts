import type { SessionService } from '../../sessions/service.js';
import type { Client } from '../clients.js';

/** Read access to session families (the sessions feature's rows), for auth_time, introspection and scope checks. */
export type FamilyLookup = Pick<SessionService, 'findFamily'>;

/** A token-endpoint form after the repeated-parameter check: one value per name. */
export type Form = Map<string, string>;

/** RFC 6749 §5.1 plus the contract's refresh_token_expires_in and OIDC's id_token. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  id_token?: string;
}

/** One grant type of the token endpoint (DESIGN: one file per grant, found through a registry). */
export type GrantHandler = (client: Client, form: Form) => Promise<TokenResponse>;
