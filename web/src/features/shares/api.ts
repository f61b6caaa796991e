// Share links (owner's routes and the public page's), behind small functions.
import { api, data } from '../../api/client';
import type { PublicShare, Share, SharedItem } from '../../api/generated/schema';

export type { PublicShare, Share, SharedItem };

export interface ShareOptions {
  password?: string | null;
  expires_in?: number;
  expires_at?: string | null;
  download_limit?: number | null;
  upload_only?: boolean;
  max_files?: number | null;
  max_file_size?: number | null;
  /** Pictures go out without their location (the default). */
  strip_location?: boolean;
  /** Each download notifies the owner (a link_downloaded notification). */
  notify_downloads?: boolean;
}

export const createShare = (path: string, opts: ShareOptions) =>
  data(
    api().PUT('/api/v4/share', {
      body: { path, ...opts, password: opts.password ?? undefined, expires_at: opts.expires_at ?? undefined, download_limit: opts.download_limit ?? undefined, max_files: opts.max_files ?? undefined, max_file_size: opts.max_file_size ?? undefined },
    }),
  );
/** What an upload request received, newest first. */
export const pendingUploads = (id: string) => data(api().GET('/api/v4/share/{id}/uploads/pending', { params: { path: { id } } }));
export const cancelPendingUpload = (id: string, upload: string) =>
  data(api().DELETE('/api/v4/share/{id}/uploads/pending/{upload}', { params: { path: { id, upload } } }));
export const receivedFiles = (id: string) => data(api().GET('/api/v4/share/{id}/uploads', { params: { path: { id }, query: { page_size: 200 } } }));
export const listShares = (token?: string | null) =>
  data(api().GET('/api/v4/share', { params: { query: { page_size: 100, ...(token ? { next_page_token: token } : {}) } } }));
/** The owner's links to the item at `path` (newest first): the share dialog opens the existing one. */
export const sharesOf = (path: string) => data(api().GET('/api/v4/share', { params: { query: { path, page_size: 10 } } }));
export const updateShare = (id: string, opts: ShareOptions) => data(api().PATCH('/api/v4/share/{id}', { params: { path: { id } }, body: opts }));
export const deleteShare = (id: string) => data(api().DELETE('/api/v4/share/{id}', { params: { path: { id } } }));

const tokenQ = (token: string | null) => (token ? { token } : {});

export const shareInfo = (id: string, token: string | null) =>
  data(api('none').GET('/api/v4/share/info/{id}', { params: { path: { id }, query: tokenQ(token) } }));
export const unlockShare = (id: string, password: string) => data(api('none').POST('/api/v4/share/unlock/{id}', { params: { path: { id } }, body: { password } }));
export const browseShare = (id: string, path: string, token: string | null, next?: string | null) =>
  data(api('none').GET('/api/v4/share/list/{id}', { params: { path: { id }, query: { path, page_size: 500, ...tokenQ(token), ...(next ? { next_page_token: next } : {}) } } }));

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
