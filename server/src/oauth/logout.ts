// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): an app sends
// the browser to /session/logout with id_token_hint, post_logout_redirect_uri
// and state. The post-logout URI must be registered for the app (exact
// match, §3) or nothing is redirected. The web page ends the Cirrus session in
// that browser (its tokens live there) and asks the server to end the app's
// session family named by the hint. The person is asked first unless the hint
// is live and names the person signed in to this browser (§2: the OP must ask
// when there is no hint or it does not belong to the current End-User), so a
// link carrying someone else's id_token cannot sign anyone out silently.
import { DomainError, ErrorCode } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { RevocationService } from '../sessions/revocation.js';
import type { Client, ClientService } from './clients.js';
import type { IdTokenSigner, VerifiedIdToken } from './id-tokens.js';
import { appendQuery } from './redirect-uris.js';
import type { FamilyLookup } from './token/types.js';

export interface LogoutRequest {
  id_token_hint?: string;
  post_logout_redirect_uri?: string;
  state?: string;
  client_id?: string;
}

export interface LogoutView {
  /** The app that asked, when known. */
  client: { id: string; name: string; icon: string } | null;
  /** Ask the person first, unless a live hint names the person signed in. */
  confirm: boolean;
  /** Why the person is asked (null when not asked). */
  reason: ConfirmReason | null;
  /** Where to send the browser afterwards (with `state`), or null to show the signed-out page. */
  redirect_uri: string | null;
}

export const CONFIRM_REASONS = ['no_hint', 'stale_hint', 'not_signed_in', 'other_account'] as const;
export type ConfirmReason = (typeof CONFIRM_REASONS)[number];

type Checked = LogoutView & { hint: VerifiedIdToken | null; live: boolean };

const invalid = (message: string) => new DomainError(ErrorCode.ParamError, message);

export class RpLogout {
  constructor(
    private readonly clients: ClientService,
    private readonly signer: IdTokenSigner,
    private readonly families: FamilyLookup,
    private readonly revocation: RevocationService,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  /**
   * The request's rules; a DomainError (400) when nothing may be redirected.
   * `signedIn` is the user id of the browser's Cirrus session (its bearer
   * token), or null: only that person's own live hint skips the question.
   */
  async check(req: LogoutRequest, signedIn: string | null = null): Promise<Checked> {
    const hint = req.id_token_hint !== undefined ? this.signer.verify(req.id_token_hint, this.issuer) : null;
    if (req.id_token_hint !== undefined && hint === null) throw invalid('id_token_hint: not an id_token issued by this server');
    if (hint && req.client_id !== undefined && req.client_id !== hint.aud) throw invalid('client_id: does not match the id_token_hint');
    const clientId = hint?.aud ?? req.client_id;
    let client: Client | undefined;
    if (clientId !== undefined) {
      client = await this.clients.findEnabled(clientId);
      if (!client) throw invalid('client_id: no such application, or it is disabled');
    }
    let redirect: string | null = null;
    if (req.post_logout_redirect_uri !== undefined) {
      // §3: without knowing the app, no URI can be checked, so none is used.
      if (!client) throw invalid('post_logout_redirect_uri: needs id_token_hint or client_id');
      if (!client.postLogoutRedirectUris.includes(req.post_logout_redirect_uri)) throw invalid('post_logout_redirect_uri: is not registered for this application');
      redirect = appendQuery(req.post_logout_redirect_uri, { state: req.state });
    }
    let live = false;
    if (hint?.sid !== undefined && hint.exp * 1000 > this.clock.now()) {
      const family = await this.families.findFamily(hint.sid);
      live = family !== undefined && family.revoked_at === null && family.user_id === hint.sub && family.client_id === hint.aud;
    }
    const reason: ConfirmReason | null = !hint ? 'no_hint' : !live ? 'stale_hint' : signedIn === null ? 'not_signed_in' : signedIn !== hint.sub ? 'other_account' : null;
    return { client: client ? { id: client.id, name: client.name, icon: client.icon } : null, confirm: reason !== null, reason, redirect_uri: redirect, hint, live };
  }

  async view(req: LogoutRequest, signedIn: string | null): Promise<LogoutView> {
    const { client, confirm, reason, redirect_uri } = await this.check(req, signedIn);
    return { client, confirm, reason, redirect_uri };
  }

  /** Ends the app's session family the hint names (the page ends the browser's own session). */
  async logout(req: LogoutRequest): Promise<{ redirect_uri: string | null }> {
    const checked = await this.check(req);
    const sid = checked.hint?.sid;
    if (sid !== undefined) {
      const family = await this.families.findFamily(sid);
      if (family && family.revoked_at === null && family.user_id === checked.hint!.sub && family.client_id === checked.hint!.aud) await this.revocation.revokeFamily(sid, 'rp_logout');
    }
    return { redirect_uri: checked.redirect_uri };
  }
}
