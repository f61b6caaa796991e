// What clients see of a share: the owner's object, the admin's (with the
// owner), the public page data, and items inside a shared folder. Public views
// carry paths relative to the shared folder, never the owner's own paths,
// ids or e-mail.
import { FOLDER } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import type { ShareRow } from './repository.js';
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum, View } from '../core/schema.js';

const SHARE_STATUSES = ['active', 'expired', 'exhausted', 'unavailable'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

const shareFields = {
  id: Type.String(),
  url: Type.String({ description: 'the public link, /s/:id' }),
  path: Nullable('string', { description: "the shared item's current path in the owner's tree; null while it is in the trash" }),
  type: Type.Unsafe<'file' | 'folder' | null>({ type: ['string', 'null'], enum: ['file', 'folder', null] }),
  name: Nullable('string'),
  has_password: Type.Boolean(),
  expires_at: Nullable('string', { format: 'date-time' }),
  download_limit: Nullable('integer'),
  downloads: Type.Integer(),
  views: Type.Integer(),
  status: StringEnum(SHARE_STATUSES),
  upload_only: Type.Boolean({ description: 'an upload request: people with the link send files into the folder and see nothing of it' }),
  max_file_size: Nullable('integer', { description: 'upload requests: the largest file accepted, in bytes' }),
  max_files: Nullable('integer', { description: 'upload requests: how many files the link accepts in all' }),
  uploads: Type.Integer({ description: 'upload requests: files received through the link (GET /api/v4/share/:id/uploads lists them)' }),
  notify_downloads: Type.Boolean({ description: 'each download notifies the owner (link_downloaded)' }),
  strip_location: Type.Boolean({ description: 'pictures go out through the link (alone or in a folder ZIP) without their location (EXIF GPS, XMP places); TIFF and camera raw pictures are refused; true unless the owner turned it off' }),
  created_at: DateTime,
  updated_at: DateTime,
};
export const ShareViewSchema = View(shareFields, { title: 'Share' });
export type ShareView = Static<typeof ShareViewSchema>;

export const AdminShareViewSchema = View(
  {
    ...shareFields,
    owner: Type.Union([View({ id: Type.String(), nickname: Type.String(), email: Type.String() }, { title: 'ShareOwner' }), Type.Null()]),
  },
  { title: 'AdminShare' },
);
export type AdminShareView = Static<typeof AdminShareViewSchema>;

export const PublicShareViewSchema = View(
  {
    id: Type.String(),
    type: StringEnum(['file', 'folder']),
    name: Nullable('string', { description: 'withheld until a password-protected share is unlocked' }),
    size: Nullable('integer', { description: 'withheld until unlocked; null for folders' }),
    mime_type: Nullable('string', { description: "the shared file's type (the page picks its preview); withheld until unlocked; null for folders" }),
    owner: View({ nickname: Type.String() }, { title: 'PublicShareOwner' }),
    has_password: Type.Boolean(),
    unlocked: Type.Boolean(),
    expires_at: Nullable('string', { format: 'date-time' }),
    download_limit: Nullable('integer'),
    downloads: Type.Integer(),
    views: Type.Integer(),
    upload_only: Type.Boolean({ description: 'an upload request: the page offers to send files and shows nothing of the folder (name withheld)' }),
    max_file_size: Nullable('integer'),
    max_files: Nullable('integer'),
    accepting: Type.Boolean({ description: 'upload requests: false once the link has received (or is receiving) max_files files' }),
    created_at: DateTime,
  },
  { title: 'PublicShare' },
);
export type PublicShareView = Static<typeof PublicShareViewSchema>;

export const SharedItemViewSchema = View(
  {
    name: Type.String(),
    path: Type.String({ description: 'relative to the shared folder (/ is the shared folder itself)' }),
    type: StringEnum(['file', 'folder']),
    size: Type.Integer(),
    mime_type: Nullable('string'),
    updated_at: DateTime,
  },
  { title: 'SharedItem' },
);
export type SharedItemView = Static<typeof SharedItemViewSchema>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function kindOf(entry: Entry): 'file' | 'folder' {
  return entry.row.kind === FOLDER ? 'folder' : 'file';
}

export function statusOf(share: ShareRow, entry: Entry | null, now: number): ShareStatus {
  if (share.expires_at !== null && share.expires_at <= now) return 'expired';
  if (share.download_limit !== null && share.downloads >= share.download_limit) return 'exhausted';
  if (!entry) return 'unavailable';
  return 'active';
}

export function toShareView(share: ShareRow, entry: Entry | null, baseUrl: string, now: number, uploads = 0): ShareView {
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
    status: statusOf(share, entry, now),
    upload_only: share.upload_only === 1,
    max_file_size: share.max_file_size,
    max_files: share.max_files,
    uploads,
    notify_downloads: share.notify_downloads === 1,
    strip_location: share.strip_location === 1,
    created_at: iso(share.created_at)!,
    updated_at: iso(share.updated_at)!,
  };
}

export function toPublicView(share: ShareRow, root: Entry, ownerNickname: string, unlocked: boolean, accepting = true): PublicShareView {
  const uploadOnly = share.upload_only === 1;
  const reveal = (share.password_hash === null || unlocked) && !uploadOnly;
  return {
    id: share.id,
    type: kindOf(root),
    name: reveal ? root.row.name : null,
    size: reveal && root.row.kind !== FOLDER ? root.row.size : null,
    mime_type: reveal && root.row.kind !== FOLDER ? root.row.mime_type : null,
    owner: { nickname: ownerNickname },
    has_password: share.password_hash !== null,
    unlocked: share.password_hash === null || unlocked,
    expires_at: iso(share.expires_at),
    download_limit: share.download_limit,
    downloads: share.downloads,
    views: share.views,
    upload_only: uploadOnly,
    max_file_size: uploadOnly ? share.max_file_size : null,
    max_files: uploadOnly ? share.max_files : null,
    accepting: uploadOnly ? accepting : false,
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
