// Notifications assembled: the service, the hub of open streams (Redis when
// configured, else the per-instance poll: files/events/hub.ts), the quota
// watch on committed changes, and the digest and retention jobs.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../core/clock.js';
import type { Jobs } from '../core/jobs.js';
import type { HeldTokenVerifier } from '../core/identity.js';
import type { Mailer } from '../mail/mailer.js';
import { DEFAULT_HUB, FeedHub, type Bus, type HubOptions, type HubSource } from '../files/events/hub.js';
import type { ChangeSignal } from '../files/events/signal.js';
import { NotificationRepository } from './repository.js';
import { NotificationService, toView, type NotificationPorts } from './service.js';
import { notificationRoutes } from './routes.js';

export interface Notifications {
  service: NotificationService;
  hub: FeedHub;
}

export interface NotificationDeps {
  db: Db;
  mailer: Mailer;
  ports: NotificationPorts;
  changes: ChangeSignal;
  verifier: HeldTokenVerifier;
  bus?: Bus;
  jobs: Jobs;
  clock: Clock;
  baseUrl: string;
  hub?: Partial<HubOptions>;
}

/** Quota checks wait this long after a change, so a burst of uploads costs one check. */
const QUOTA_SETTLE_MS = 500;

export async function createNotifications(deps: NotificationDeps): Promise<Notifications> {
  const repo = new NotificationRepository(deps.db);
  const service = new NotificationService(repo, deps.ports, deps.mailer, deps.baseUrl, deps.clock, (err) => deps.jobs.outcome('notifications', err));
  const source: HubSource = {
    channel: 'notifications',
    jobs: { delivery: 'notifications_delivery', poll: 'notifications_poll' },
    after: async (userId, seq, limit) =>
      (await repo.after(userId, seq, limit)).map((r) => ({ seq: Number(r.seq), text: `id: ${Number(r.seq)}\nevent: notification\ndata: ${JSON.stringify(toView(r))}\n\n` })),
    heads: (userIds) => repo.heads(userIds),
  };
  const hub = new FeedHub(source, deps.verifier, deps.clock, deps.bus, { ...DEFAULT_HUB, ...deps.hub }, (job, err) => deps.jobs.outcome(job, err));
  service.onCreated((userId) => hub.committed(new Set([userId])));
  await hub.start();
  watchQuota(service, deps.changes, (err) => deps.jobs.outcome('notifications_quota', err));
  deps.jobs.every('notification_digests', 3600_000, () => service.sendDigests(), { firstAfterMs: 60_000 });
  deps.jobs.every('notifications_prune', 24 * 3600_000, () => service.prune(), { firstAfterMs: 120_000 });
  return { service, hub };
}

/** Owners whose trees changed are checked once the burst settles, after the answer (never on the request's path). */
function watchQuota(service: NotificationService, changes: ChangeSignal, report: (err: unknown) => void): void {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  changes.on((owners) => {
    for (const o of owners) pending.add(o);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const batch = [...pending];
      pending.clear();
      void (async () => {
        for (const o of batch) await service.checkQuota(o).then(() => report(null), report);
      })();
    }, QUOTA_SETTLE_MS);
    timer.unref();
  });
}

export function notificationModuleRoutes(app: FastifyInstance, n: Notifications): void {
  notificationRoutes(app, n.service, n.hub);
  app.addHook('preClose', (done) => {
    n.hub.close();
    done();
  });
}
