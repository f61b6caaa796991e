// The person's own sessions (Settings > Security): list them with a readable
// device name, address, sign-in and last-refresh times; end one, or all but
// the current one. Only first-party families (password sign-ins): OAuth apps
// are ended by revoking the app (DELETE /session/oauth/grant/:client_id).
import { UAParser } from 'ua-parser-js';
import { notFound } from '../core/errors.js';
import type { AccessTokenVerifier } from './access-tokens.js';
import type { RevocationService } from './revocation.js';
import type { UserSessionRow, UserSessionsRepository } from './user-sessions-repository.js';
import type { Clock } from '../core/clock.js';

export interface UserSessionView {
  id: string;
  current: boolean;
  browser: string | null;
  os: string | null;
  device: string | null;
  ip: string | null;
  created_at: string;
  /** When the family last refreshed its tokens (a sign-in counts): the best "last used" without a write per request. */
  last_used_at: string;
}

const MAX_UA = 512;

function describe(ua: string | null): { browser: string | null; os: string | null; device: string | null } {
  if (!ua) return { browser: null, os: null, device: null };
  const r = UAParser(ua);
  const join = (name?: string, version?: string) => (name ? (version ? `${name} ${version.split('.')[0]}` : name) : null);
  const device = r.device.vendor || r.device.model ? [r.device.vendor, r.device.model].filter(Boolean).join(' ') : null;
  return { browser: join(r.browser.name, r.browser.version), os: join(r.os.name, r.os.version), device };
}

/** A sign-in from a browser and system this account never signed in from before (notifications: `new_device_sign_in`). */
export interface NewDevice {
  userId: string;
  browser: string | null;
  os: string | null;
  ip: string;
}

/** What counts as the same device: the browser and the system, without versions (a browser update is no new device). */
function deviceKey(ua: string | null): string {
  if (!ua) return '';
  const r = UAParser(ua);
  return `${r.browser.name ?? ''}\0${r.os.name ?? ''}\0${r.device.model ?? ''}`;
}

export class UserSessions {
  private readonly newDeviceListeners: ((d: NewDevice) => Promise<void>)[] = [];

  constructor(
    private readonly repo: UserSessionsRepository,
    private readonly revocation: RevocationService,
    private readonly verifier: AccessTokenVerifier,
    private readonly clock: Clock,
  ) {}

  onNewDevice(listener: (d: NewDevice) => Promise<void>): void {
    this.newDeviceListeners.push(listener);
  }

  /**
   * Called after a sign-in: remembers which browser and address started the
   * family, and tells the listeners when the account signed in before but
   * never from this browser and system (the first sign-in ever is no news).
   */
  async recordSignIn(accessToken: string, userAgent: string | undefined, ip: string): Promise<void> {
    const auth = await this.verifier.verify(accessToken);
    if (!auth.sid) return;
    const ua = typeof userAgent === 'string' ? userAgent.slice(0, MAX_UA) : null;
    const earlier = this.newDeviceListeners.length > 0 ? await this.repo.userAgentsOf(auth.user.id, auth.sid) : [];
    await this.repo.recordClient(auth.sid, ua, ip.slice(0, 64));
    const key = deviceKey(ua);
    if (earlier.length === 0 || earlier.some((e) => deviceKey(e) === key)) return;
    const { browser, os } = describe(ua);
    for (const l of this.newDeviceListeners) await l({ userId: auth.user.id, browser, os, ip: ip.slice(0, 64) });
  }

  async list(userId: string, currentSid: string | null): Promise<UserSessionView[]> {
    const rows = await this.repo.listLive(userId, this.clock.now());
    return rows.map((r) => this.view(r, currentSid));
  }

  async end(userId: string, sessionId: string): Promise<void> {
    const live = await this.repo.listLive(userId, this.clock.now());
    if (!live.some((r) => r.id === sessionId)) throw notFound('No such session');
    await this.revocation.revokeFamily(sessionId, 'signed_out_from_settings');
  }

  /** Ends every live first-party family but the current one; returns how many. */
  async endOthers(userId: string, currentSid: string | null): Promise<number> {
    const others = (await this.repo.listLive(userId, this.clock.now())).filter((r) => r.id !== currentSid);
    for (const r of others) await this.revocation.revokeFamily(r.id, 'signed_out_from_settings');
    return others.length;
  }

  private view(r: UserSessionRow, currentSid: string | null): UserSessionView {
    return {
      id: r.id,
      current: r.id === currentSid,
      ...describe(r.user_agent),
      ip: r.ip,
      created_at: new Date(r.created_at).toISOString(),
      last_used_at: new Date(Math.max(r.created_at, r.rotated_at ?? 0)).toISOString(),
    };
  }
}
