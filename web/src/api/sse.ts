// Reads a Server-Sent Events stream of the API with fetch, reconnecting with
// backoff until `signal` aborts. EventSource cannot send the Authorization
// header, and a token in the URL would land in logs and history. On
// reconnection `Last-Event-ID` (the last id seen) replays what was missed;
// the server ends a stream when its token expires (event `end`), and the next
// try takes the pair the session has refreshed meanwhile. Used by the change
// feed (files/useFeed.ts) and the notifications bell.
import { tokenStore } from './tokens';
import { refreshSession } from './client';

export type SseHandler = (id: string | undefined, type: string, data: string) => void;

export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

async function read(body: ReadableStream<Uint8Array>, onEvent: SseHandler): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let type = 'message';
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (data.length || type !== 'message') onEvent(id, type, data.join('\n'));
        id = undefined;
        type = 'message';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}

/** Follows `url` until `signal` aborts; `last` is the id to resume from (kept up to date by the caller's handler). */
export async function followEvents(url: string, last: () => string | undefined, onEvent: SseHandler, signal: AbortSignal): Promise<void> {
  let delay = 1000;
  while (!signal.aborted) {
    const token = tokenStore.get()?.access_token;
    if (!token) return;
    try {
      const from = last();
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(from ? { 'last-event-id': from } : {}) },
        cache: 'no-store',
        credentials: 'omit',
        signal,
      });
      if (res.status === 401) {
        // The session's shared refresh (once for every caller); a refused one ends the session elsewhere.
        if (!(await refreshSession().catch(() => false))) return;
        continue;
      }
      if (res.ok && res.body) {
        delay = 1000;
        await read(res.body, onEvent);
      }
    } catch {
      /* offline or cut: try again below */
    }
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 30_000);
  }
}
