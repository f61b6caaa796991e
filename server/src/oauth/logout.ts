// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): an app sends
// the browser to /session/logout with id_token_hint, post_logout_redirect_uri
// and state. The post-logout URI must be registered for the app (exact
// match, §3) or nothing is redirected. The web page ends the Cirrus session in
// that browser (its tokens live there) and asks the server to end the app's
// session family named by the hint; a missing or stale hint needs the person's
// confirmation first (§2, §6).
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
  /** Ask the person first: no hint, an expired one, or one whose session has already ended. */
  confirm: boolean;
  /** Where to send the browser afterwards (with `state`), or null to show the signed-out page. */
  redirect_uri: string | null;
}

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

  /** The request's rules; a DomainError (400) when nothing may be redirected. */
  async check(req: LogoutRequest): Promise<Checked> {
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
    return { client: client ? { id: client.id, name: client.name, icon: client.icon } : null, confirm: !live, redirect_uri: redirect, hint, live };
  }

  async view(req: LogoutRequest): Promise<LogoutView> {
    const { client, confirm, redirect_uri } = await this.check(req);
    return { client, confirm, redirect_uri };
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
