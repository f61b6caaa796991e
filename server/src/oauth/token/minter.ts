// Turns an approved grant into the token response: a session family (so that
// rotation, reuse detection and revocation work as for sign-in), the access
// token, the refresh token only with offline_access, the id_token only with openid.
import type { SessionService } from '../../sessions/service.js';
import type { SettingsService } from '../../site/settings.js';
import type { Client } from '../clients.js';
import type { IdTokenSigner } from '../id-tokens.js';
import { OFFLINE_ACCESS, OPENID } from '../scopes.js';
import type { TokenResponse } from './types.js';

export interface MintOptions {
  nonce: string | null;
  authTimeMs: number | null;
}

export function secondsUntil(rfc3339: string, now: number): number {
  return Math.max(0, Math.floor((Date.parse(rfc3339) - now) / 1000));
}

export class TokenMinter {
  constructor(
    private readonly sessions: SessionService,
    private readonly settings: SettingsService,
    private readonly signer: IdTokenSigner,
    private readonly issuer: () => string,
  ) {}

  async mint(client: Client, userId: string, scopes: string[], opts: MintOptions): Promise<{ sid: string; response: TokenResponse }> {
    const offline = scopes.includes(OFFLINE_ACCESS);
    // Without offline_access the family only anchors revocation; it need not outlive the access token.
    const refreshTtl = offline ? (client.refreshTokenTtl ?? undefined) : (await this.settings.current()).access_token_ttl;
    const { family, pair, accessTtl } = await this.sessions.startFamily(userId, { clientId: client.id, scopes, refreshTtl });
    const now = Date.now();
    const response: TokenResponse = { access_token: pair.access_token, token_type: 'Bearer', expires_in: accessTtl, scope: scopes.join(' ') };
    if (offline) {
      response.refresh_token = pair.refresh_token;
      response.refresh_token_expires_in = secondsUntil(pair.refresh_expires, now);
    }
    if (scopes.includes(OPENID)) {
      response.id_token = await this.signer.sign(
        {
          iss: this.issuer(),
          sub: userId,
          aud: client.id,
          ...(opts.nonce !== null ? { nonce: opts.nonce } : {}),
          ...(opts.authTimeMs !== null ? { auth_time: Math.floor(opts.authTimeMs / 1000) } : {}),
        },
        accessTtl,
        now,
      );
    }
    return { sid: family.id, response };
  }
}
