// The file API as the file manager uses it (api-contract §6), on the client
// generated from the server's OpenAPI document (types included).
import { ApiError, ErrorCode, api, data, envelope } from '../../api/client';
import { tokenStore } from '../../api/tokens';
import type { FileVersion as FileVersionView, FileView, FolderPage, TrashPage, TrashView, paths } from '../../api/generated/schema';

type FolderQuery = NonNullable<paths['/api/v4/file']['get']['parameters']['query']>;

export type FileItem = FileView;
export type TrashItem = TrashView;

export interface Page<T> {
  files: T[];
  next_page_token: string | null;
}

/** Per-item results of a batch (`path` or `id`, code 0 or the item's error, `file` when there is one): what every batch route's generated type fits. */
export interface BatchResult {
  results: { path?: string; id?: string; code: number; msg: string; file?: FileItem }[];
}

const q = (params: Record<string, string | number | undefined | null>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  return sp.toString();
};

export const PAGE_SIZE = 500;

const page = (token?: string | null) => (token ? { next_page_token: token } : {});

/** How the listing is sorted (folders always come first). */
export interface FolderSort {
  key: NonNullable<FolderQuery['order_by']>;
  dir: NonNullable<FolderQuery['order']>;
}

export const listFolder = (path: string, token?: string | null, sort?: FolderSort, pageSize = PAGE_SIZE): Promise<FolderPage> =>
  data(api().GET('/api/v4/file', { params: { query: { path, page_size: pageSize, ...page(token), ...(sort ? { order_by: sort.key, order: sort.dir } : {}) } } }));
export const fileInfo = (path: string) => data(api().GET('/api/v4/file/info', { params: { query: { path } } }));
export const createFolder = (path: string) => data(api().POST('/api/v4/file/create', { body: { path, type: 'folder' } }));
export const renameItem = (path: string, new_name: string) => data(api().POST('/api/v4/file/rename', { body: { path, new_name } }));
export const moveItems = (paths: string[], dst: string, copy: boolean): Promise<BatchResult> =>
  data(api().POST('/api/v4/file/move', { body: { paths, dst, copy } }));
export const deleteItems = (paths: string[]): Promise<BatchResult> => data(api().DELETE('/api/v4/file', { body: { paths } }));
type SearchQuery = NonNullable<paths['/api/v4/file/search']['get']['parameters']['query']>;
export type SearchType = NonNullable<SearchQuery['type']>;
export type SearchHit = FileItem & { snippet?: string };
export interface SearchOptions {
  scope: NonNullable<SearchQuery['scope']>;
  type?: SearchType;
  /** RFC 3339 */
  modifiedAfter?: string;
}
export const searchFiles = (query: string, options: SearchOptions, token?: string | null): Promise<Page<SearchHit> & { indexing_pending?: number }> =>
  data(
    api().GET('/api/v4/file/search', {
      params: {
        query: {
          q: query,
          page_size: 100,
          scope: options.scope,
          ...(options.type ? { type: options.type } : {}),
          ...(options.modifiedAfter ? { modified_after: options.modifiedAfter } : {}),
          ...page(token),
        },
      },
    }),
  );
/** A signed URL as a same-origin path (the page's CSP allows only 'self'). */
export async function signedUrl(path: string, inline = false): Promise<{ url: string; expires_at: string }> {
  const r = await data(api().POST('/api/v4/file/url', { body: { path, inline, expires_in: 3600 } }));
  const u = new URL(r.url, window.location.origin);
  return { url: u.pathname + u.search, expires_at: r.expires_at };
}

export const listTrash = (token?: string | null): Promise<TrashPage> => data(api().GET('/api/v4/file/trash', { params: { query: { page_size: 200, ...page(token) } } }));
/**
 * Restores from the trash. `on_conflict` says what happens when the name is taken again
 * (rename: "name (1)"; fail: that item answers 409; replace: what is there goes to the trash).
 * A batch whose every item failed comes back as its results too (not as an error), so the
 * caller can tell the clashes apart.
 */
export async function restoreTrash(ids: string[], on_conflict: 'rename' | 'fail' | 'replace' = 'rename'): Promise<BatchResult> {
  try {
    return await data(api().POST('/api/v4/file/trash/restore', { body: { ids, on_conflict } }));
  } catch (err) {
    const results = err instanceof ApiError ? (err.data as Partial<BatchResult> | null)?.results : undefined;
    if (Array.isArray(results)) return { results };
    throw err;
  }
}
export const purgeTrash = (ids: string[]): Promise<BatchResult> => data(api().POST('/api/v4/file/trash/delete', { body: { ids } }));
export const emptyTrash = () => data(api().DELETE('/api/v4/file/trash'));

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
    const r = await data(api().POST('/api/v4/file/archive/url', { body: { paths, name, expires_in: 3600 } }));
    const u = new URL(r.url, window.location.origin);
    startDownload(u.pathname + u.search, `${name}.zip`);
    return;
  }
  const { data: zip, error, response } = await api().POST('/api/v4/file/archive', { body: { paths, name }, parseAs: 'blob' });
  if (!response.ok || !zip) {
    // An error answer is an envelope: envelope() throws it as an ApiError with the server's message.
    await envelope(Promise.resolve({ error, response }));
    throw new ApiError(response.status, ErrorCode.Internal, `Unexpected response from the server (HTTP ${response.status}).`);
  }
  saveBlob(zip, `${name}.zip`);
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

// ---- versions (api-contract §13) ----
export type FileVersion = FileVersionView;
export const listVersions = (path: string): Promise<FileVersion[]> => data(api().GET('/api/v4/file/versions', { params: { query: { path } } }));
export const restoreVersion = (path: string, version_id: string) => data(api().POST('/api/v4/file/versions/restore', { body: { path, version_id } }));
export const deleteVersion = (id: string) => data(api().DELETE('/api/v4/file/versions/{id}', { params: { path: { id } } }));

/** A version's bytes (or the first `limit` of them) as a Blob: a version has no signed URL, so it is fetched with the token. */
export async function versionBlob(id: string, limit?: number): Promise<Blob> {
  const token = tokenStore.get()?.access_token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (limit) headers.range = `bytes=0-${limit - 1}`;
  const res = await fetch(`/api/v4/file/versions/${encodeURIComponent(id)}/content`, { headers });
  if (!res.ok) throw new ApiError(res.status, ErrorCode.Internal, `HTTP ${res.status}`);
  return res.blob();
}
