// The file API as the file manager uses it (api-contract §6). Each call is a
// small function so the generated client can replace its body alone.
import { call } from '../../api/client';
import { tokenStore } from '../../api/tokens';

export interface FileItem {
  id: string;
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  mime_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface TrashItem extends FileItem {
  trashed_at: string;
  original_path: string;
}

export interface Page<T> {
  files: T[];
  next_page_token: string | null;
}

export interface BatchResult {
  results: { path?: string; id?: string; code: number; msg: string; file?: FileItem }[];
}

const q = (params: Record<string, string | number | undefined | null>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  return sp.toString();
};

export const PAGE_SIZE = 500;

export const listFolder = (path: string, token?: string | null, sort?: { key: 'name' | 'size' | 'updated_at'; dir: 'asc' | 'desc' }, pageSize = PAGE_SIZE) =>
  call<Page<FileItem> & { parent: FileItem }>(
    'GET',
    `/api/v4/file?${q({ path, page_size: pageSize, next_page_token: token, order_by: sort?.key, order: sort?.dir })}`,
  );
export const fileInfo = (path: string) => call<FileItem>('GET', `/api/v4/file/info?${q({ path })}`);
export const createFolder = (path: string) => call<FileItem>('POST', '/api/v4/file/create', { body: { path, type: 'folder' } });
export const renameItem = (path: string, new_name: string) => call<FileItem>('POST', '/api/v4/file/rename', { body: { path, new_name } });
export const moveItems = (paths: string[], dst: string, copy: boolean) => call<BatchResult>('POST', '/api/v4/file/move', { body: { paths, dst, copy } });
export const deleteItems = (paths: string[]) => call<BatchResult>('DELETE', '/api/v4/file', { body: { paths } });
export const searchFiles = (query: string, token?: string | null) =>
  call<Page<FileItem>>('GET', `/api/v4/file/search?${q({ q: query, page_size: 100, next_page_token: token })}`);
/** A signed URL as a same-origin path (the page's CSP allows only 'self'). */
export async function signedUrl(path: string, inline = false): Promise<{ url: string; expires_at: string }> {
  const r = await call<{ url: string; expires_at: string }>('POST', '/api/v4/file/url', { body: { path, inline, expires_in: 3600 } });
  const u = new URL(r.url, window.location.origin);
  return { url: u.pathname + u.search, expires_at: r.expires_at };
}

export const listTrash = (token?: string | null) => call<Page<TrashItem>>('GET', `/api/v4/file/trash?${q({ page_size: 200, next_page_token: token })}`);
export const restoreTrash = (ids: string[]) => call<BatchResult>('POST', '/api/v4/file/trash/restore', { body: { ids } });
export const purgeTrash = (ids: string[]) => call<BatchResult>('POST', '/api/v4/file/trash/delete', { body: { ids } });
export const emptyTrash = () => call<{ deleted: number }>('DELETE', '/api/v4/file/trash');

/** A thumbnail URL for an image (the route takes the token in the header, so we fetch it as a blob). */
export async function thumbBlobUrl(path: string, size: number, signal?: AbortSignal): Promise<string | null> {
  const token = tokenStore.get()?.access_token;
  if (!token) return null;
  const res = await fetch(`/api/v4/file/thumb?${q({ path, size })}`, { headers: { authorization: `Bearer ${token}` }, signal });
  if (!res.ok) return null;
  return URL.createObjectURL(await res.blob());
}

/** Most items one signed archive link carries (the server's limit; the link holds their ids). */
export const MAX_LINK_ITEMS = 400;

/**
 * Folders and several items as one ZIP. Up to MAX_LINK_ITEMS the browser
 * navigates to a signed link, so the download streams with the browser's own
 * progress and can resume; beyond that the archive is fetched with the token
 * and handed over as a Blob.
 */
export async function downloadArchive(paths: string[], name: string): Promise<void> {
  if (paths.length <= MAX_LINK_ITEMS) {
    const r = await call<{ url: string; expires_at: string }>('POST', '/api/v4/file/archive/url', { body: { paths, name, expires_in: 3600 } });
    const u = new URL(r.url, window.location.origin);
    startDownload(u.pathname + u.search, `${name}.zip`);
    return;
  }
  const token = tokenStore.get()?.access_token;
  const res = await fetch('/api/v4/file/archive', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ paths, name }),
  });
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    try {
      msg = ((await res.json()) as { msg?: string }).msg || msg;
    } catch {
      // not JSON
    }
    throw new Error(msg);
  }
  saveBlob(await res.blob(), `${name}.zip`);
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  startDownload(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function startDownload(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function joinPath(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}
