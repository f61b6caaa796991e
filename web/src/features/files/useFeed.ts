// Follows the change feed (GET /api/v4/file/events, Server-Sent Events) while
// a folder is open, and refreshes its listing when a change touches it: a
// change made on another device, by another app, or in another tab shows up
// without a reload. The stream is read by api/sse.ts (fetch, reconnection
// with Last-Event-ID).
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { tokenStore } from '../../api/tokens';
import { followEvents, sleep } from '../../api/sse';

interface FeedEvent {
  path: string;
  old_path?: string;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Whether a change at `p` changes what the listing of `folder` shows (an item in it, or the folder or an ancestor itself). */
function touches(folder: string, p: string | undefined): boolean {
  if (p === undefined) return false;
  return parentOf(p) === folder || p === folder || folder.startsWith(p === '/' ? '/' : `${p}/`);
}

/** How long after the folder opens the stream starts (see below). */
const STREAM_AFTER_MS = 1500;

/** `keys`: the queries showing the folder (the file manager's listing by default; /shared passes its list). */
export function useFolderFeed(folder: string, keys: readonly (readonly unknown[])[] = [['folder', folder]]): void {
  const queryClient = useQueryClient();
  const keyText = JSON.stringify(keys);
  useEffect(() => {
    const abort = new AbortController();
    let last: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let usageTimer: ReturnType<typeof setTimeout> | undefined;
    // A change refreshes the listing 150 ms later; the changes that come meanwhile join that refresh,
    // and a long burst (a queue of uploads) refreshes at most once a second, not once per file.
    let lastRefresh = 0;
    const refresh = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        lastRefresh = Date.now();
        for (const queryKey of JSON.parse(keyText) as unknown[][]) void queryClient.invalidateQueries({ queryKey });
      }, Math.max(150, lastRefresh + 1000 - Date.now()));
    };
    // Any change may change the storage bar's figure; it is refreshed less eagerly.
    const refreshUsage = () => {
      clearTimeout(usageTimer);
      usageTimer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['capacity'] }), 1000);
    };
    const onEvent = (id: string | undefined, type: string, data: string) => {
      if (id !== undefined) last = id;
      if (type === 'reset') return (refresh(), refreshUsage());
      if (type !== 'message') return;
      refreshUsage();
      try {
        const e = JSON.parse(data) as FeedEvent;
        if (touches(folder, e.path) || touches(folder, e.old_path)) refresh();
      } catch {
        /* not an event of ours */
      }
    };
    void (async () => {
      // The cursor as the folder opens, then the stream a moment later with it as Last-Event-ID: the stream
      // replays whatever changed meanwhile, and the page's own requests finish before a long-lived one starts
      // (a page that never goes quiet on the network is one that tools and crawlers wait on forever).
      try {
        const token = tokenStore.get()?.access_token;
        if (!token) return;
        const res = await fetch('/api/v4/file/changes', { headers: { authorization: `Bearer ${token}` }, cache: 'no-store', credentials: 'omit', signal: abort.signal });
        if (res.ok) last = ((await res.json()) as { data?: { cursor?: string } }).data?.cursor ?? last;
      } catch {
        /* the stream below starts from now */
      }
      await sleep(STREAM_AFTER_MS, abort.signal);
      await followEvents('/api/v4/file/events', () => last, onEvent, abort.signal);
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
      clearTimeout(usageTimer);
    };
  }, [folder, keyText, queryClient]);
}
