// Redis as the fast path between instances (api-contract §9): revocations and
// cache invalidations are published on channels every instance subscribes to.
// It is only ever a shortcut: the database stays the source of truth (every
// instance still polls revocation_events each second, caches still expire on
// their own), so a Redis outage slows propagation to the database path and
// shows in health, but never lets a revoked token through nor fails a request.
import { createRequire } from 'node:module';
import type { createClient } from 'redis';

type Client = ReturnType<typeof createClient>;
type Handler = (message: string) => void;

const CONNECT_WAIT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 1_000;

export class RedisBus {
  private readonly pub: Client;
  private readonly sub: Client;
  private readonly handlers = new Map<string, Handler[]>();
  private closed = false;

  constructor(url: string, private readonly prefix = 'cirrus:') {
    const options = {
      url,
      // A command while disconnected fails at once instead of waiting in a queue.
      disableOfflineQueue: true,
      socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2_000) },
    };
    // Loaded here, not at the top: only a site with CIRRUS_REDIS_URL uses the
    // client, and loading it costs every process megabytes of memory.
    const redis = createRequire(import.meta.url)('redis') as { createClient: typeof createClient };
    this.pub = redis.createClient(options);
    this.sub = redis.createClient(options);
    // Connection errors are expected during an outage: the client reconnects by itself.
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
  }

  /** Connects, waiting a little; a Redis that is down does not stop the start (it is retried in the background). */
  async start(): Promise<void> {
    const connecting = Promise.all([this.pub.connect(), this.sub.connect()]).catch(() => undefined);
    await Promise.race([connecting, new Promise((r) => setTimeout(r, CONNECT_WAIT_MS).unref())]);
  }

  get ready(): boolean {
    return this.pub.isReady && this.sub.isReady;
  }

  /** Rejects unless both connections answer (health). */
  async ping(): Promise<void> {
    if (!this.ready) throw new Error('redis is not connected');
    await withTimeout(Promise.all([this.pub.ping(), this.sub.isReady ? Promise.resolve() : Promise.reject(new Error('subscriber down'))]));
  }

  /** Publishes, best effort: false when Redis is unavailable (the database path carries it then). */
  async publish(channel: string, message: string): Promise<boolean> {
    if (!this.pub.isReady) return false;
    try {
      await withTimeout(this.pub.publish(this.prefix + channel, message));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Sets `key` only if it is absent, expiring after `ttlMs` (SET NX PX): true
   * when this call set it, false when it was there, undefined when Redis is
   * unavailable (the caller falls back to what it can check alone).
   */
  async claim(key: string, ttlMs: number): Promise<boolean | undefined> {
    if (!this.pub.isReady) return undefined;
    try {
      return (await withTimeout(this.pub.set(this.prefix + key, '1', { NX: true, PX: Math.max(1, Math.ceil(ttlMs)) }))) === 'OK';
    } catch {
      return undefined;
    }
  }

  /** Calls `handler` for each message on `channel` (resubscribed by the client after a reconnect). */
  async subscribe(channel: string, handler: Handler): Promise<void> {
    const name = this.prefix + channel;
    const list = this.handlers.get(name);
    if (list) {
      list.push(handler);
      return;
    }
    const handlers = [handler];
    this.handlers.set(name, handlers);
    const deliver = (message: string) => {
      for (const h of handlers) {
        try {
          h(message);
        } catch {
          /* a malformed message from another instance must not stop the others */
        }
      }
    };
    await this.trySubscribe(name, deliver);
  }

  /** Channels whose SUBSCRIBE could not be sent (Redis down): sent when the connection is ready. */
  private readonly pending = new Map<string, (message: string) => void>();

  private async trySubscribe(name: string, deliver: (message: string) => void): Promise<void> {
    // The client re-sends the subscriptions it holds after a reconnect, but one refused while
    // disconnected (no offline queue) is not held: an instance started during a Redis outage
    // would never hear from the others. Those are kept here and retried on 'ready'.
    try {
      await this.sub.subscribe(name, deliver);
      this.pending.delete(name);
    } catch {
      if (this.closed) return;
      const first = this.pending.size === 0;
      this.pending.set(name, deliver);
      if (first) this.sub.once('ready', () => void this.retryPending());
    }
  }

  private async retryPending(): Promise<void> {
    const waiting = [...this.pending];
    this.pending.clear();
    for (const [name, deliver] of waiting) await this.trySubscribe(name, deliver);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of [this.pub, this.sub]) {
      try {
        if (c.isOpen) c.destroy();
      } catch {
        /* already gone */
      }
    }
  }
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('redis timeout')), COMMAND_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}
