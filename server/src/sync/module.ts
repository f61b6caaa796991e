// The sync-client feature assembled (api-contract §14): status.php, OCS and
// the /remote.php/ WebDAV doors, over the WebDAV layer and the file service.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { Dav } from '../webdav/module.js';
import type { FeedService } from '../files/events/feed.js';
import type { Clock } from '../core/clock.js';
import { SyncRepository } from './repository.js';
import { SyncService, type SyncPorts } from './service.js';
import { statusRoutes } from './status-routes.js';
import { ocsRoutes } from './ocs/routes.js';
import { syncDavRoutes } from './dav-routes.js';
import { syncUploadRoutes } from './upload-routes.js';
import { ChunkedUploads } from './chunked.js';
import type { Jobs } from '../core/jobs.js';

export interface SyncDeps {
  db: Db;
  dav: Dav;
  feed: FeedService;
  ports: SyncPorts;
  clock: Clock;
  jobs: Jobs;
}

export interface Sync {
  service: SyncService;
  dav: Dav;
  /** Chunked uploads (/remote.php/dav/uploads/). */
  chunked: ChunkedUploads;
}

export function createSync(deps: SyncDeps): Sync {
  const repo = new SyncRepository(deps.db);
  const chunked = new ChunkedUploads(repo, deps.dav.uploads, deps.dav.files, deps.clock);
  // Idle transfers go after 24 hours: checked hourly, and soon after start.
  deps.jobs.every('sync_transfer_sweep', 3600_000, () => chunked.sweep(), { firstAfterMs: 30_000 });
  return { service: new SyncService(repo, deps.dav.files, deps.dav.accounts, deps.feed, deps.ports, deps.clock), dav: deps.dav, chunked };
}

export function syncRoutes(app: FastifyInstance, sync: Sync): void {
  statusRoutes(app, sync.service);
  ocsRoutes(app, sync.dav.auth, sync.service);
  syncDavRoutes(app, sync.dav, sync.service);
  syncUploadRoutes(app, sync.dav, sync.service, sync.chunked);
}
