// grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4–3.5):
// the device polls until the person has decided. Each state change is one
// conditional UPDATE (device/repository.ts), so polls reaching different
// instances see one history: one success, then invalid_grant.
import { sha256Hex } from '../../crypto/compare.js';
import { OAuthError } from '../../core/errors.js';
import type { AccountService } from '../../accounts/service.js';
import type { Clock } from '../../core/clock.js';
import type { DeviceCodeRepository } from '../device/repository.js';
import { SLOW_DOWN_S } from '../device/service.js';
import { scopeList } from '../scopes.js';
import type { TokenMinter } from './minter.js';
import { bindingFor, type GrantHandler } from './types.js';

export function deviceCodeGrant(deps: { devices: DeviceCodeRepository; accounts: AccountService; minter: TokenMinter; clock: Clock }): GrantHandler {
  const { devices, accounts, minter, clock } = deps;
  return async (client, form, context) => {
    const code = form.get('device_code');
    if (code === undefined) throw new OAuthError('invalid_request', 'device_code: is required');
    const hash = sha256Hex(code);
    const row = code.length <= 256 ? await devices.find(hash) : undefined;
    // §3.5 / RFC 6749 §5.2: a code of another client is as good as no code.
    if (!row || row.client_id !== client.id) throw new OAuthError('invalid_grant', 'The device code is invalid or was issued to another client');
    if (row.status === 'used') throw new OAuthError('invalid_grant', 'The device code was already used');
    const now = clock.now();
    if (row.expires_at <= now) throw new OAuthError('expired_token', 'The device code has expired; start again');

    const polled = await devices.poll(hash, now);
    if (!polled) {
      await devices.slowDown(hash, SLOW_DOWN_S, now);
      throw new OAuthError('slow_down', `Polling faster than every ${row.interval_s} s; the interval is now ${row.interval_s + SLOW_DOWN_S} s`);
    }
    switch (polled.status) {
      case 'pending':
        throw new OAuthError('authorization_pending', 'The user has not decided yet');
      case 'denied':
        throw new OAuthError('access_denied', 'The user denied the request');
      case 'used':
        throw new OAuthError('invalid_grant', 'The device code was already used');
      case 'approved':
        break;
    }
    if (!(await devices.consume(hash))) throw new OAuthError('invalid_grant', 'The device code was already used');
    const user = polled.user_id !== null ? await accounts.cache.get(polled.user_id) : undefined;
    if (!user?.active) throw new OAuthError('invalid_grant', 'The user is no longer active');
    const { response } = await minter.mint(client, user.id, scopeList(polled.scopes), { nonce: null, authTimeMs: polled.auth_time, binding: bindingFor(client, context) });
    return response;
  };
}
