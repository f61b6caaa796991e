// GET /api/v4/site/health (api-contract §9): each part answers or is named as
// failing, within a bound, with no detail an outsider could use (no error
// text, no host, no connection string). Load balancers read the status code.
import type { FastifyInstance } from 'fastify';

export type PartState = 'ok' | 'error' | 'disabled';

export interface HealthSources {
  database(): Promise<void>;
  storage(): Promise<void>;
  /** Undefined when no Redis is configured. */
  redis?: () => Promise<void>;
  /** When revocations were last read successfully (ms). */
  revocationSyncedAt(): number;
}

/** Past this, the revocation view is too stale to trust (the contract allows 5 s). */
export const REVOCATION_LAG_LIMIT_MS = 5_000;
const CHECK_TIMEOUT_MS = 2_000;

async function state(check: (() => Promise<void>) | undefined): Promise<PartState> {
  if (!check) return 'disabled';
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

export async function health(sources: HealthSources) {
  const [database, storage, redis] = await Promise.all([state(sources.database), state(sources.storage), state(sources.redis)]);
  const lag = Math.max(0, Date.now() - sources.revocationSyncedAt());
  const revocation: PartState = lag <= REVOCATION_LAG_LIMIT_MS ? 'ok' : 'error';
  const failing = [database, storage, redis, revocation].includes('error');
  return { status: failing ? ('error' as const) : ('ok' as const), database, storage, redis, revocation, revocation_lag_ms: lag };
}

export function healthRoutes(app: FastifyInstance, sources: HealthSources): void {
  app.get('/api/v4/site/health', { config: { auth: 'none' } }, async (_request, reply) => {
    const body = await health(sources);
    // The object itself, not the envelope: monitors and load balancers read it as it is.
    return reply.code(body.status === 'ok' ? 200 : 503).header('Cache-Control', 'no-store').send(body);
  });
}
