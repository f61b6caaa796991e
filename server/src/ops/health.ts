// GET /api/v4/site/health (api-contract §9): each part answers or is named as
// failing, within a bound, with no detail an outsider could use (no error
// text, no host, no connection string). Load balancers read the status code.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { JobState } from '../core/jobs.js';
import { Nullable, StringEnum, View } from '../http/contract.js';
import type { Clock } from '../core/clock.js';

export type PartState = 'ok' | 'error' | 'disabled';

export interface HealthSources {
  database(): Promise<void>;
  storage(): Promise<void>;
  /** Undefined when no Redis is configured. */
  redis?: () => Promise<void>;
  /** When revocations were last read successfully (ms). */
  revocationSyncedAt(): number;
  /** The background jobs' state (core/jobs.ts); no error text, which stays in the logs. */
  jobs?: () => JobState[];
  /** The instance's clock (core/clock.ts): the revocation lag is measured on it. */
  clock: Clock;
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

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function health(sources: HealthSources) {
  const [database, storage, redis] = await Promise.all([state(sources.database), state(sources.storage), state(sources.redis)]);
  const lag = Math.max(0, sources.clock.now() - sources.revocationSyncedAt());
  const revocation: PartState = lag <= REVOCATION_LAG_LIMIT_MS ? 'ok' : 'error';
  const failing = [database, storage, redis, revocation].includes('error');
  // A job failing now is reported but does not fail the instance: the parts above say whether it can serve.
  const jobs = Object.fromEntries(
    (sources.jobs?.() ?? []).map((j) => [j.name, { state: j.failing_for > 0 ? 'failing' : 'ok', failures: j.failures, last_success_at: iso(j.last_success_at), last_failure_at: iso(j.last_failure_at) }]),
  );
  return { status: failing ? ('error' as const) : ('ok' as const), database, storage, redis, revocation, revocation_lag_ms: lag, jobs };
}

const Part = (description: string) => StringEnum(['ok', 'error', 'disabled'], { description });
const JobHealth = View(
  {
    state: StringEnum(['ok', 'failing'], { description: 'failing: its last run failed' }),
    failures: Type.Integer({ description: 'failed runs since start-up' }),
    last_success_at: Nullable('string', { format: 'date-time', description: 'RFC 3339, UTC; null: none yet' }),
    last_failure_at: Nullable('string', { format: 'date-time', description: 'RFC 3339, UTC; null: none yet' }),
  },
  { title: 'JobHealth' },
);
/** The health object itself (no envelope): load balancers and monitors read it as it is. */
const HealthSchema = View(
  {
    status: StringEnum(['ok', 'error'], { description: 'error when any part below is error (the answer is then 503)' }),
    database: Part('the database answers'),
    storage: Part('the file storage answers'),
    redis: Part('disabled without CIRRUS_REDIS_URL'),
    revocation: Part(`error when revocations were last read more than ${REVOCATION_LAG_LIMIT_MS} ms ago`),
    revocation_lag_ms: Type.Integer({ description: 'how long ago revocations were last read' }),
    jobs: Type.Object({}, {
      additionalProperties: JobHealth,
      description: 'background jobs by name; a failing job is reported but does not fail the instance',
    }),
  },
  { title: 'Health' },
);

export function healthRoutes(app: FastifyInstance, sources: HealthSources): void {
  const schema = {
    description: 'Instance health for load balancers and monitors: 200 when it can serve, 503 when a part fails (no error details).',
    response: {
      200: { ...HealthSchema, description: 'Every part answers' },
      503: { ...HealthSchema, description: 'A part fails (status error)' },
    },
  };
  app.get('/api/v4/site/health', { config: { auth: 'none' }, schema }, async (_request, reply) => {
    const body = await health(sources);
    // The object itself, not the envelope: monitors and load balancers read it as it is.
    return reply.code(body.status === 'ok' ? 200 : 503).header('Cache-Control', 'no-store').send(body);
  });
}
