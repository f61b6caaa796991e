// API calls of the settings pages, behind small functions so the generated
// client can replace their bodies without touching the components.
import { ApiError, call, refreshSession } from '../../api/client';
import { tokenStore } from '../../api/tokens';
import type { User } from '../../api/types';

/** The avatar of a user (a versioned same-origin URL), or undefined for initials. */
export function avatarUrl(user: User): string | undefined {
  return user.avatar_url ?? undefined;
}

/**
 * Uploads the picture as the request body (the route takes image/* bodies,
 * not JSON, so this is the one call that does not go through call()).
 */
export async function uploadAvatar(picture: Blob): Promise<string> {
  const put = () => {
    const token = tokenStore.get()?.access_token;
    return fetch('/api/v4/user/avatar', { method: 'PUT', headers: { 'content-type': picture.type, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: picture });
  };
  let res = await put();
  if (res.status === 401 && (await refreshSession())) res = await put();
  const env = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: { avatar_url: string } } | null;
  if (!res.ok || !env || env.code !== 0 || !env.data) throw new ApiError(res.status, env?.code ?? 50000, env?.msg || `HTTP ${res.status}`);
  return env.data.avatar_url;
}

export const deleteAvatar = () => call<null>('DELETE', '/api/v4/user/avatar');

export interface OAuthGrantView {
  client_id: string;
  name: string;
  icon: string;
  scopes: string[];
  created_at?: string;
  updated_at?: string;
  last_used_at?: string | null;
}

export interface UserSettings extends User {
  two_fa_enabled: boolean;
  oauth_grants: OAuthGrantView[];
}

export const getSettings = () => call<UserSettings>('GET', '/api/v4/user/setting');
export const updateNickname = (nickname: string) => call<User>('PATCH', '/api/v4/user/setting', { body: { nickname } });
export const changePassword = (current_password: string, new_password: string) =>
  call<User>('PATCH', '/api/v4/user/setting', { body: { current_password, new_password } });
export const begin2fa = () => call<{ secret: string; uri?: string; otpauth_url?: string }>('POST', '/api/v4/user/setting/2fa');
export const confirm2fa = (otp: string) => call<null>('PUT', '/api/v4/user/setting/2fa', { body: { otp } });
export const disable2fa = (otp: string) => call<null>('DELETE', '/api/v4/user/setting/2fa', { body: { otp } });
export const revokeGrant = (clientId: string) => call<null>('DELETE', `/api/v4/session/oauth/grant/${encodeURIComponent(clientId)}`);

export interface SessionView {
  id: string;
  current: boolean;
  device: string;
  browser: string | null;
  os: string | null;
  ip: string | null;
  app: { id: string; name: string } | null;
  created_at: string;
  last_used_at: string | null;
}

export const listSessions = () => call<{ sessions: SessionView[] }>('GET', '/api/v4/user/session');
export const endSession = (id: string) => call<null>('DELETE', `/api/v4/user/session/${encodeURIComponent(id)}`);
export const endOtherSessions = () => call<{ ended: number }>('DELETE', '/api/v4/user/session');
