// Graceful shutdown (api-contract §9): on SIGTERM (or SIGINT) stop accepting
// connections, answer new requests on open keep-alive connections with 503,
// let requests in flight finish for at most GRACE_MS, then cut what is left
// (a tus upload cut there keeps every byte already received: the upload
// service records its durable offset on any interruption), close the
// database pools, Redis and the store client, and exit 0.
import type { FastifyInstance } from 'fastify';

export const GRACE_MS = 30_000;

export function installShutdown(app: FastifyInstance, exit: (code: number) => void, graceMs = GRACE_MS): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const cut = setTimeout(() => {
      app.log.warn('requests still running after the grace period: closing their connections');
      app.server.closeAllConnections();
    }, graceMs);
    cut.unref();
    try {
      // Stops listening, waits for in-flight requests, then runs onClose (services, pools).
      await app.close();
      clearTimeout(cut);
      exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
