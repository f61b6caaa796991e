// Share links (owner's routes and the public page's), behind small functions.
import { call } from '../../api/client';

export interface Share {
  id: string;
  url: string;
  path: string | null;
  type: 'file' | 'folder' | null;
  name: string | null;
  has_password: boolean;
  expires_at: string | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  status: 'active' | 'expired' | 'exhausted' | 'unavailable';
  created_at: string;
  updated_at: string;
}

export interface ShareOptions {
  password?: string | null;
  expires_in?: number;
  expires_at?: string | null;
  download_limit?: number | null;
}

export const createShare = (path: string, opts: ShareOptions) => call<Share>('PUT', '/api/v4/share', { body: { path, ...opts } });
export const listShares = (token?: string | null) =>
  call<{ shares: Share[]; next_page_token: string | null }>('GET', `/api/v4/share?page_size=100${token ? `&next_page_token=${encodeURIComponent(token)}` : ''}`);
export const updateShare = (id: string, opts: ShareOptions) => call<Share>('PATCH', `/api/v4/share/${encodeURIComponent(id)}`, { body: opts });
export const deleteShare = (id: string) => call<null>('DELETE', `/api/v4/share/${encodeURIComponent(id)}`);

export interface PublicShare {
  id: string;
  type: 'file' | 'folder';
  name: string | null;
  size: number | null;
  owner: { nickname: string };
  has_password: boolean;
  unlocked: boolean;
  expires_at: string | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  created_at: string;
}

export interface SharedItem {
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  mime_type: string | null;
  updated_at: string;
}

const tokenQ = (token: string | null) => (token ? `token=${encodeURIComponent(token)}` : '');

export const shareInfo = (id: string, token: string | null) => call<PublicShare>('GET', `/api/v4/share/info/${encodeURIComponent(id)}?${tokenQ(token)}`, { auth: 'none' });
export const unlockShare = (id: string, password: string) =>
  call<{ token: string; expires_at?: string }>('POST', `/api/v4/share/unlock/${encodeURIComponent(id)}`, { body: { password }, auth: 'none' });
export const browseShare = (id: string, path: string, token: string | null, next?: string | null) =>
  call<{ files: SharedItem[]; next_page_token: string | null }>(
    'GET',
    `/api/v4/share/list/${encodeURIComponent(id)}?path=${encodeURIComponent(path)}&page_size=500&${tokenQ(token)}${next ? `&next_page_token=${encodeURIComponent(next)}` : ''}`,
    { auth: 'none' },
  );

/** The download URL of an item in a share (the folder itself as a ZIP when path is omitted). */
export function shareDownloadUrl(id: string, path: string | null, token: string | null, inline = false): string {
  const sp = new URLSearchParams();
  if (path && path !== '/') sp.set('path', path);
  if (token) sp.set('token', token);
  if (inline) sp.set('inline', '1');
  // An explicit download parameter keeps browser navigations on the bytes (contract §10).
  if (!inline) sp.set('download', '1');
  return `/s/${encodeURIComponent(id)}?${sp.toString()}`;
}
