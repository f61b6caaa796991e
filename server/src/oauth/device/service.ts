// The device authorization grant (RFC 8628): a device without a browser asks
// for a user code (§3.1–3.2), the person enters it on /device, signs in and
// decides (§3.3), and the device polls the token endpoint (§3.4–3.5,
// token/device-code.ts). Everything lives in the database, so the request can
// start on one instance, be decided on another and be polled on a third.
import { sha256Hex } from '../../crypto/compare.js';
import { codeFrom, secretToken } from '../../crypto/random.js';
import { DomainError, ErrorCode, OAuthError } from '../../core/errors.js';
import { ACCOUNT_POLICY, ADDRESS_POLICY, type Throttle } from '../../throttle/service.js';
import type { Clock } from '../../core/clock.js';
import type { Client } from '../clients.js';
import type { AppInfo, ConsentService } from '../consent.js';
import { DEVICE_CODE } from '../grant-types.js';
import { isKnownScope, parseScopeParam, scopeSatisfied } from '../scopes.js';
import type { DeviceCodeRepository, DeviceCodeRow } from './repository.js';

/** RFC 8628 §6.1: 20 consonants, no vowels (no words), no look-alikes. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
export const DEVICE_CODE_TTL_S = 600;
export const POLL_INTERVAL_S = 5;
/** §3.5: slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_S = 5;

export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceRequestView {
  user_code: string;
  scopes: string[];
  app: AppInfo;
}

/** `BCDFGHJK` → `BCDF-GHJK`, the form people read and type. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed, without case, spaces or dashes; null when it cannot be a user code. */
export function normalizeUserCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

const noSuchCode = () => new DomainError(ErrorCode.NotFound, 'user_code: no pending request has this code (it may have expired or been used)');

export class DeviceFlowService {
  constructor(
    private readonly repo: DeviceCodeRepository,
    private readonly consent: ConsentService,
    /** The project's guess limit: user codes are short enough to guess (RFC 8628 §5.1). */
    private readonly throttle: Throttle,
    private readonly verificationUri: string,
    private readonly clock: Clock,
  ) {}

  /** §3.1–3.2: the device authorization request of an authenticated client. */
  async start(client: Client, scopeParam: string | undefined): Promise<DeviceAuthorizationResponse> {
    if (!client.grantTypes.includes(DEVICE_CODE)) throw new OAuthError('unauthorized_client', 'This application may not use the device authorization grant');
    if (scopeParam === undefined) throw new OAuthError('invalid_scope', 'scope: is required');
    const scopes = parseScopeParam(scopeParam);
    if (!scopes?.length) throw new OAuthError('invalid_scope', 'scope: is malformed');
    const unknown = scopes.find((s) => !isKnownScope(s));
    if (unknown !== undefined) throw new OAuthError('invalid_scope', `scope: ${unknown.slice(0, 64)} is not a known scope`);
    const refused = scopes.find((s) => !scopeSatisfied(client.scopes, s));
    if (refused !== undefined) throw new OAuthError('invalid_scope', `scope: this application may not request ${refused}`);

    const now = this.clock.now();
    // A user code names one live request: draw again in the (rare) case it is taken.
    let userCode = codeFrom(USER_CODE_ALPHABET, USER_CODE_LENGTH);
    while (await this.repo.findPending(sha256Hex(userCode), now)) userCode = codeFrom(USER_CODE_ALPHABET, USER_CODE_LENGTH);
    const deviceCode = secretToken(32);
    await this.repo.insert({
      device_code_hash: sha256Hex(deviceCode),
      user_code_hash: sha256Hex(userCode),
      client_id: client.id,
      scopes: scopes.join(' '),
      status: 'pending',
      user_id: null,
      auth_time: null,
      interval_s: POLL_INTERVAL_S,
      last_polled_at: null,
      created_at: now,
      expires_at: now + DEVICE_CODE_TTL_S * 1000,
    });
    const shown = formatUserCode(userCode);
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: this.verificationUri,
      verification_uri_complete: `${this.verificationUri}?user_code=${shown}`,
      expires_in: DEVICE_CODE_TTL_S,
      interval: POLL_INTERVAL_S,
    };
  }

  /**
   * A user code as the person typed it, through the throttle: wrong codes are
   * counted per user and per address, and past the allowance every answer is
   * 429 until the lock ends, right codes included (§5.1).
   */
  private async guess<T>(userId: string, address: string, input: string, use: (row: DeviceCodeRow) => Promise<T | undefined>): Promise<T> {
    const code = normalizeUserCode(input);
    if (code === null) throw new DomainError(ErrorCode.ParamError, `user_code: must be ${USER_CODE_LENGTH} letters, as XXXX-XXXX`);
    const hash = sha256Hex(code);
    const targets = [
      { key: `device-user:${userId}`, policy: ACCOUNT_POLICY },
      { key: `device-addr:${address}`, policy: ADDRESS_POLICY },
    ];
    const found = await this.throttle.attempt(targets, async () => {
      const row = await this.repo.findPending(hash, this.clock.now());
      return row ? { value: await use(row) } : undefined;
    });
    if (found?.value === undefined) throw noSuchCode();
    return found.value;
  }

  /** The request a user code names, for the consent screen. */
  lookup(userId: string, address: string, userCode: string): Promise<DeviceRequestView> {
    return this.guess(userId, address, userCode, async (row) => {
      const app = await this.consent.appInfo(row.client_id, userId).catch(() => undefined);
      return app && { user_code: formatUserCode(normalizeUserCode(userCode)!), scopes: row.scopes.split(' '), app };
    });
  }

  /** §3.3: the person approves or denies; approval records the grant as the authorize page's consent does. */
  decide(userId: string, authTime: number | null, address: string, userCode: string, approve: boolean): Promise<{ approved: boolean }> {
    return this.guess(userId, address, userCode, async (row) => {
      if (approve) await this.consent.remember(userId, row.client_id, row.scopes.split(' '));
      if (!(await this.repo.decide(row.device_code_hash, approve, userId, authTime, this.clock.now()))) return undefined;
      return { approved: approve };
    });
  }

  async prune(): Promise<void> {
    await this.repo.prune(this.clock.now() - 24 * 3600_000);
  }
}
