// The change feed assembled: its service, the hub of open streams (with Redis
// when configured), the retention job, and the hook that ends the streams
// before the server closes.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../core/clock.js';
import type { Jobs } from '../../core/jobs.js';
import type { HeldTokenVerifier } from '../../core/identity.js';
import { FeedRepository } from './repository.js';
import { FeedService, encodeCursor, toEvent } from './feed.js';
import { DEFAULT_HUB, FeedHub, type Bus, type HubOptions, type HubSource } from './hub.js';
import type { ChangeSignal } from './signal.js';
import { feedRoutes } from './routes.js';

export interface Feed {
  service: FeedService;
  hub: FeedHub;
}

export interface FeedDeps {
  db: Db;
  changes: ChangeSignal;
  verifier: HeldTokenVerifier;
  bus?: Bus;
  jobs: Jobs;
  clock: Clock;
  hub?: Partial<HubOptions>;
}

export async function createFeed(deps: FeedDeps): Promise<Feed> {
  const service = new FeedService(new FeedRepository(deps.db), deps.clock);
  const source: HubSource = {
    channel: 'file-events',
    jobs: { delivery: 'file_events_delivery', poll: 'file_events_poll' },
    after: async (userId, seq, limit) =>
      (await service.repo.after(userId, seq, limit)).map((r) => ({ seq: Number(r.seq), text: `id: ${encodeCursor(Number(r.seq))}\ndata: ${JSON.stringify(toEvent(r))}\n\n` })),
    heads: (userIds) => service.repo.heads(userIds),
  };
  const hub = new FeedHub(source, deps.verifier, deps.clock, deps.bus, { ...DEFAULT_HUB, ...deps.hub }, (job, err) => deps.jobs.outcome(job, err));
  deps.changes.on((owners) => hub.committed(owners));
  await hub.start();
  deps.jobs.every('file_events_prune', 3600_000, () => service.prune(), { firstAfterMs: 60_000 });
  return { service, hub };
}

export function feedModuleRoutes(app: FastifyInstance, feed: Feed): void {
  feedRoutes(app, feed.service, feed.hub);
  // Open streams would hold the server's close for its 30 s cap: end them first (clients reconnect elsewhere).
  app.addHook('preClose', (done) => {
    feed.hub.close();
    done();
  });
}
