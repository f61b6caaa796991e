// A Server-Sent Events reader for tests, as a sync client written with fetch
// would do it (the HTML spec's event-stream parsing: `id:`, `event:`,
// `data:` lines, a blank line ends an event, `:` lines are comments).
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export class SseStream {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  /** Resolves when the server ends the stream (or the test aborts it). */
  readonly ended: Promise<void>;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];
  private opened!: () => void;
  /** Resolves once the first bytes (the `retry:` line) have arrived: the stream is registered. */
  readonly ready = new Promise<void>((resolve) => (this.opened = resolve));
  done = false;

  constructor(url: string, headers: Record<string, string>) {
    this.ended = this.run(url, headers).finally(() => {
      this.done = true;
      this.opened();
      this.notify();
    });
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private async run(url: string, headers: Record<string, string>): Promise<void> {
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: this.abort.signal });
    } catch {
      return;
    }
    this.status = res.status;
    if (!res.ok || !res.body) {
      await res.text().catch(() => undefined);
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    let current: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        this.opened();
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (current.data.length || current.event) this.events.push({ id: current.id, event: current.event ?? 'message', data: current.data.join('\n') });
            current = { data: [] };
            this.notify();
          } else if (line.startsWith(':')) this.comments++;
          else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
            else if (field === 'data') current.data.push(value);
          }
        }
      }
    } catch {
      /* aborted or cut */
    }
  }

  /** The change events (default `message` type), parsed. */
  changes<T = Record<string, unknown>>(): (T & { id: string })[] {
    return this.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data) as T & { id: string });
  }

  /** Waits until `pred` holds (checked on each event) or `ms` pass; returns whether it held. */
  async until(pred: () => boolean, ms = 5000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!pred()) {
      if (this.done || Date.now() > deadline) return pred();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, Math.min(100, deadline - Date.now())));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return true;
  }

  close(): Promise<void> {
    this.abort.abort();
    return this.ended;
  }
}

export function openEvents(baseUrl: string, token: string, lastEventId?: string, query = ''): SseStream {
  return new SseStream(`${baseUrl}/api/v4/file/events${query}`, { authorization: `Bearer ${token}`, ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) });
}
