// What clients see of a share: the owner's object, the admin's (with the
// owner), the public page data, and items inside a shared folder. Public views
// carry paths relative to the shared folder, never the owner's own paths,
// ids or e-mail.
import { FOLDER } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import type { ShareRow } from './repository.js';

export type ShareStatus = 'active' | 'expired' | 'exhausted' | 'unavailable';

export interface ShareView {
  id: string;
  url: string;
  /** The shared item's current path in the owner's tree; null while it is in the trash. */
  path: string | null;
  type: 'file' | 'folder' | null;
  name: string | null;
  has_password: boolean;
  expires_at: string | null;
  download_limit: number | null;
  downloads: number;
  views: number;
  status: ShareStatus;
  created_at: string;
  updated_at: string;
}

export interface AdminShareView extends ShareView {
  owner: { id: string; nickname: string; email: string } | null;
}

export interface PublicShareView {
  id: string;
  type: 'file' | 'folder';
  /** Name and size are withheld until a password-protected share is unlocked. */
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

export interface SharedItemView {
  name: string;
  /** Relative to the shared folder (`/` is the shared folder itself). */
  path: string;
  type: 'file' | 'folder';
  size: number;
  mime_type: string | null;
  updated_at: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function kindOf(entry: Entry): 'file' | 'folder' {
  return entry.row.kind === FOLDER ? 'folder' : 'file';
}

export function statusOf(share: ShareRow, entry: Entry | null, now = Date.now()): ShareStatus {
  if (share.expires_at !== null && share.expires_at <= now) return 'expired';
  if (share.download_limit !== null && share.downloads >= share.download_limit) return 'exhausted';
  if (!entry) return 'unavailable';
  return 'active';
}

export function toShareView(share: ShareRow, entry: Entry | null, baseUrl: string): ShareView {
  return {
    id: share.id,
    url: `${baseUrl}/s/${share.id}`,
    path: entry?.path ?? null,
    type: entry ? kindOf(entry) : null,
    name: entry?.row.name ?? null,
    has_password: share.password_hash !== null,
    expires_at: iso(share.expires_at),
    download_limit: share.download_limit,
    downloads: share.downloads,
    views: share.views,
    status: statusOf(share, entry),
    created_at: iso(share.created_at)!,
    updated_at: iso(share.updated_at)!,
  };
}

export function toPublicView(share: ShareRow, root: Entry, ownerNickname: string, unlocked: boolean): PublicShareView {
  const reveal = share.password_hash === null || unlocked;
  return {
    id: share.id,
    type: kindOf(root),
    name: reveal ? root.row.name : null,
    size: reveal && root.row.kind !== FOLDER ? root.row.size : null,
    owner: { nickname: ownerNickname },
    has_password: share.password_hash !== null,
    unlocked: reveal,
    expires_at: iso(share.expires_at),
    download_limit: share.download_limit,
    downloads: share.downloads,
    views: share.views,
    created_at: iso(share.created_at)!,
  };
}

export function toSharedItemView(entry: Entry, relativePath: string): SharedItemView {
  const folder = entry.row.kind === FOLDER;
  return {
    name: entry.row.name,
    path: relativePath,
    type: folder ? 'folder' : 'file',
    size: folder ? 0 : entry.row.size,
    mime_type: folder ? null : entry.row.mime_type,
    updated_at: new Date(entry.row.updated_at).toISOString(),
  };
}
