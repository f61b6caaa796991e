// The Photos page's calls (api-contract §16): the person's pictures and
// videos newest taken first (keyset pages), one item by id (a deep link to an
// item not loaded yet), the geotagged ones for the map, and thumbnails.
import { api, data } from '../../api/client';
import { tokenStore } from '../../api/tokens';
import type { FileView, PhotoItem, PhotoPage, PhotoPlace } from '../../api/generated/schema';

export type { PhotoItem, PhotoPlace };

/** Items a page asks for (the server allows up to 500). */
export const PHOTOS_PAGE = 200;

export const listPhotos = (cursor: string | null): Promise<PhotoPage> =>
  data(api().GET('/api/v4/file/photos', { params: { query: { page_size: PHOTOS_PAGE, ...(cursor ? { cursor } : {}) } } }));

export const listPlaces = (): Promise<PhotoPlace[]> => data(api().GET('/api/v4/file/photos/places'));

/** One item by its id, shaped as the listing gives it (a deep link may name one no page has brought yet). */
export async function photoById(id: string): Promise<PhotoItem> {
  const f: FileView = await data(api().GET('/api/v4/file/info', { params: { query: { id } } }));
  return { id: f.id, name: f.name, path: f.path, mime_type: f.mime_type ?? null, size: f.size, created_at: f.created_at, taken_at: f.media?.taken_at ?? null, media: f.media ?? null };
}

export const isVideo = (item: Pick<PhotoItem, 'mime_type'>) => (item.mime_type ?? '').startsWith('video/');

// ---- thumbnails -------------------------------------------------------------
// The route wants the token in a header, so each thumbnail is fetched and shown
// as a blob: URL. A bounded cache keeps the last few hundred (scrolling back
// shows them at once) and frees the rest; 202 (being made) is asked again after
// Retry-After, a few times.

const CACHE_MAX = 600;
const cache = new Map<string, string | null>();
const inflight = new Map<string, Promise<string | null>>();

function remember(key: string, url: string | null): void {
  cache.delete(key);
  cache.set(key, url);
  while (cache.size > CACHE_MAX) {
    const [oldest, oldUrl] = cache.entries().next().value as [string, string | null];
    cache.delete(oldest);
    if (oldUrl) URL.revokeObjectURL(oldUrl);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fetchThumb(path: string, size: number): Promise<string | null> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const token = tokenStore.get()?.access_token;
    if (!token) return null;
    const res = await fetch(`/api/v4/file/thumb?${new URLSearchParams({ path, size: String(size) })}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 202) {
      await sleep(Math.min(5, Number(res.headers.get('retry-after')) || 2) * 1000);
      continue;
    }
    // 404 (none can be made: no tool, unreadable) and the like: the tile shows the type's icon.
    if (!res.ok) return null;
    return URL.createObjectURL(await res.blob());
  }
  return null;
}

/** The cached thumbnail (a blob: URL, or null for "none"), undefined when not fetched yet. */
export const cachedThumb = (key: string): string | null | undefined => cache.get(key);

export function loadThumb(key: string, path: string, size: number): Promise<string | null> {
  const known = cache.get(key);
  if (known !== undefined) return Promise.resolve(known);
  let running = inflight.get(key);
  if (!running) {
    running = fetchThumb(path, size)
      .catch(() => null)
      .then((url) => {
        inflight.delete(key);
        remember(key, url);
        return url;
      });
    inflight.set(key, running);
  }
  return running;
}
