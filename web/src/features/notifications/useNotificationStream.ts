// Keeps the bell live: follows GET /api/v4/notifications/events while the
// shell is shown and refreshes the list (and its unread count) when a
// notification arrives, whichever instance raised it.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { followEvents, sleep } from '../../api/sse';
import { notificationsQuery } from './api';

/** The stream starts once the page's own requests are done (see files/useFeed.ts). */
const STREAM_AFTER_MS = 1500;

export function useNotificationStream(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const abort = new AbortController();
    let last: string | undefined;
    const onEvent = (id: string | undefined, type: string) => {
      if (id !== undefined) last = id;
      if (type === 'notification') void queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey });
    };
    void (async () => {
      await sleep(STREAM_AFTER_MS, abort.signal);
      // Whatever arrived before the stream opened is in the list read meanwhile.
      void queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey });
      await followEvents('/api/v4/notifications/events', () => last, onEvent, abort.signal);
    })();
    return () => abort.abort();
  }, [queryClient]);
}
