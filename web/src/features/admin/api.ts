// The admin API as the dashboard uses it (docs/api.md: administration). Thin
// typed wrappers over the app's envelope client; when the generated client
// (web/src/api/generated/) lands these become calls on it.
import { ApiError, call } from '../../api/client';

export { ApiError };

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ListParams {
  page: number;
  page_size: number;
  keyword?: string;
  order_by?: string;
  order_direction?: 'asc' | 'desc';
}

export interface DayPoint {
  date: string;
  sign_ups: number;
  uploads: number;
}

export interface Summary {
  users: number;
  files: number;
  storage_used: number;
  shares: number;
  oauth_apps: number;
  active_sessions: number;
  version: string;
  database: 'sqlite' | 'postgres';
  storage_driver: string;
  days: DayPoint[];
}

export interface AdminUser {
  id: string;
  email: string;
  nickname: string;
  status: 'active' | 'banned';
  created_at: string;
  group: { id: number; name: string };
  is_admin: boolean;
  two_fa_enabled: boolean;
  storage_quota: number | null;
  group_storage_quota: number;
  storage_used: number;
  last_sign_in_at: string | null;
}

export interface Group {
  id: number;
  name: string;
  is_admin: boolean;
  storage_quota: number;
  user_count: number;
  created_at: string;
}

export interface OAuthApp {
  id: string;
  name: string;
  icon: string;
  homepage_url: string | null;
  description: string;
  redirect_uris: string[];
  scopes: string[];
  is_public: boolean;
  is_enabled: boolean;
  refresh_token_ttl: number | null;
  created_at: string;
  updated_at: string;
  secret?: string;
}

export interface OAuthAppFields {
  name: string;
  icon: string;
  homepage_url?: string | null;
  description?: string;
  redirect_uris: string[];
  scopes: string[];
  secret?: string;
  is_public?: boolean;
  is_enabled?: boolean;
  refresh_token_ttl?: number | null;
}

export interface AdminShare {
  id: string;
  url?: string;
  type?: string;
  name?: string;
  path?: string | null;
  owner: { id: string; nickname: string; email: string } | null;
  status: 'active' | 'expired' | 'exhausted' | 'unavailable';
  views: number;
  downloads: number;
  download_limit: number | null;
  expires_at: string | null;
  created_at: string;
  has_password: boolean;
}

export interface SiteSettings {
  site_name: string;
  signup_enabled: boolean;
  default_group_id: number;
  access_token_ttl: number;
  refresh_token_ttl: number;
}

export const adminApi = {
  summary: () => call<Summary>('GET', '/api/v4/admin/summary'),

  users: async (p: ListParams): Promise<Page<AdminUser>> => {
    const d = await call<{ users: AdminUser[]; pagination: { total: number } }>('POST', '/api/v4/admin/user', { body: p });
    return { items: d.users, total: d.pagination.total };
  },
  createUser: (body: { email: string; password: string; nickname?: string; group_id?: number }) => call<AdminUser>('PUT', '/api/v4/admin/user', { body }),
  updateUser: (id: string, body: { nickname?: string; group_id?: number; status?: 'active' | 'banned'; storage_quota?: number | null }) =>
    call<AdminUser>('PUT', `/api/v4/admin/user/${encodeURIComponent(id)}`, { body }),
  resetPassword: (id: string) => call<{ password: string }>('POST', `/api/v4/admin/user/${encodeURIComponent(id)}/reset-password`),
  signOutUser: (id: string) => call<null>('POST', `/api/v4/admin/user/${encodeURIComponent(id)}/sign-out`),
  deleteUser: (id: string) => call<null>('DELETE', `/api/v4/admin/user/${encodeURIComponent(id)}`),

  groups: () => call<Group[]>('GET', '/api/v4/admin/group'),
  createGroup: (body: { name: string; is_admin: boolean; storage_quota: number }) => call<Group>('PUT', '/api/v4/admin/group', { body }),
  updateGroup: (id: number, body: { name?: string; is_admin?: boolean; storage_quota?: number }) => call<Group>('PUT', `/api/v4/admin/group/${id}`, { body }),
  deleteGroup: (id: number) => call<null>('DELETE', `/api/v4/admin/group/${id}`),

  apps: async (p: ListParams): Promise<Page<OAuthApp>> => {
    const d = await call<{ clients: OAuthApp[]; pagination: { total: number } }>('POST', '/api/v4/admin/oauthClient', { body: p });
    return { items: d.clients, total: d.pagination.total };
  },
  app: (id: string) => call<OAuthApp>('GET', `/api/v4/admin/oauthClient/${encodeURIComponent(id)}`),
  createApp: (client: OAuthAppFields) => call<OAuthApp>('PUT', '/api/v4/admin/oauthClient', { body: { client } }),
  updateApp: (id: string, client: Partial<OAuthAppFields> & { regenerate_secret?: boolean }) =>
    call<OAuthApp>('PUT', `/api/v4/admin/oauthClient/${encodeURIComponent(id)}`, { body: { client } }),
  deleteApp: (id: string) => call<null>('DELETE', `/api/v4/admin/oauthClient/${encodeURIComponent(id)}`),

  shares: async (p: ListParams): Promise<Page<AdminShare>> => {
    const d = await call<{ shares: AdminShare[]; pagination: { total: number } }>('POST', '/api/v4/admin/share', { body: p });
    return { items: d.shares, total: d.pagination.total };
  },
  takeDownShare: (id: string) => call<null>('DELETE', `/api/v4/admin/share/${encodeURIComponent(id)}`),

  settings: () => call<SiteSettings>('GET', '/api/v4/admin/settings'),
  updateSettings: (body: Partial<SiteSettings>) => call<SiteSettings>('PATCH', '/api/v4/admin/settings', { body }),
};

/** The `{field, index}` the server puts in `data` when one entry of a list is refused. */
export function listErrorIndex(err: unknown, field: string): number | null {
  if (!(err instanceof ApiError)) return null;
  const data = err.data as { field?: string; index?: number } | null;
  return data && data.field === field && typeof data.index === 'number' ? data.index : null;
}
