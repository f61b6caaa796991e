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

export interface SyncDeps {
  db: Db;
  dav: Dav;
  feed: FeedService;
  ports: SyncPorts;
  clock: Clock;
}

export interface Sync {
  service: SyncService;
  dav: Dav;
}

export function createSync(deps: SyncDeps): Sync {
  const repo = new SyncRepository(deps.db);
  return { service: new SyncService(repo, deps.dav.files, deps.dav.accounts, deps.feed, deps.ports, deps.clock), dav: deps.dav };
}

export function syncRoutes(app: FastifyInstance, sync: Sync): void {
  statusRoutes(app, sync.service);
  ocsRoutes(app, sync.dav.auth, sync.service);
  syncDavRoutes(app, sync.dav, sync.service);
}
