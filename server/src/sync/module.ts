// The sync-client feature assembled (api-contract §14): status.php, OCS,
// Login Flow v2/v1 and the /remote.php/ WebDAV doors, over the WebDAV layer and the file service.
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
import type { Throttle } from '../throttle/service.js';
import { LoginFlowRepository } from './repository.js';
import { LoginFlows } from './login-flows.js';
import { loginFlowRoutes } from './login-routes.js';
import { instanceIdOf } from './file-numbers.js';
import { syncHistoryRoutes, type History } from './history-routes.js';
import { syncPreviewRoutes } from './preview-routes.js';
import { syncAvatarRoutes, type AvatarSource } from './avatar-routes.js';
import { ocsShareRoutes, type SharePorts } from './ocs/shares.js';
import { DavSearchRepository } from './dav-search-repository.js';
import { syncSearchRoutes } from './dav-search.js';
import type { Thumbnails } from '../files/thumbnails.js';

export interface SyncDeps {
  db: Db;
  dav: Dav;
  feed: FeedService;
  ports: SyncPorts;
  clock: Clock;
  jobs: Jobs;
  throttle: Throttle;
  /** The public base URL (Login Flow answers and nc:// redirects name it). */
  baseUrl: string;
  /** The trash and versions, served over DAV (history-routes.ts). */
  history: History;
  /** The web app's thumbnails, served as the apps' previews (preview-routes.ts). */
  thumbs: Pick<Thumbnails, 'get'>;
}

export interface Sync {
  service: SyncService;
  dav: Dav;
  /** Chunked uploads (/remote.php/dav/uploads/). */
  chunked: ChunkedUploads;
  /** Login Flow v2 and v1. */
  loginFlows: LoginFlows;
  /** WebDAV SEARCH's queries (dav-search.ts). */
  search: DavSearchRepository;
  baseUrl: string;
  history: History;
  thumbs: Pick<Thumbnails, 'get'>;
  /** Links and grants for the OCS Share API; set by useShares once they exist (they are made after sync/). */
  shares: SharePorts | null;
  useShares(ports: SharePorts): void;
}

export function createSync(deps: SyncDeps): Sync {
  const repo = new SyncRepository(deps.db);
  const chunked = new ChunkedUploads(repo, deps.dav.uploads, deps.dav.files, deps.clock);
  // Idle transfers go after 24 hours: checked hourly, and soon after start.
  deps.jobs.every('sync_transfer_sweep', 3600_000, () => chunked.sweep(), { firstAfterMs: 30_000 });
  const loginFlows = new LoginFlows(new LoginFlowRepository(deps.db), deps.dav.accounts, deps.throttle, { loginName: async (id) => (await deps.ports.person(id))?.email }, deps.clock);
  deps.jobs.every('sync_login_flow_sweep', 600_000, () => loginFlows.sweep(), { firstAfterMs: 60_000 });
  const service = new SyncService(repo, deps.dav.files, deps.dav.accounts, deps.feed, deps.ports, deps.clock, instanceIdOf(deps.baseUrl));
  // Settings → WebDAV lists each account's device: the sync clients' and /dav/'s uses are recorded here.
  deps.dav.accounts.useDevices({ seen: (id, ua) => service.seenAccount(id, ua), devices: (ids) => service.devices(ids) });
  const sync: Sync = {
    service, dav: deps.dav, chunked, loginFlows, search: new DavSearchRepository(deps.db), baseUrl: deps.baseUrl, history: deps.history, thumbs: deps.thumbs, shares: null,
    useShares: (ports) => {
      sync.shares = ports;
    },
  };
  return sync;
}

export function syncRoutes(app: FastifyInstance, sync: Sync, avatars: AvatarSource): void {
  statusRoutes(app, sync.service);
  ocsRoutes(app, sync.dav.auth, sync.service);
  syncDavRoutes(app, sync.dav, sync.service);
  syncUploadRoutes(app, sync.dav, sync.service, sync.chunked);
  loginFlowRoutes(app, sync.loginFlows, sync.baseUrl);
  syncHistoryRoutes(app, sync.dav, sync.service, sync.history);
  syncPreviewRoutes(app, sync.dav, sync.service, sync.thumbs);
  syncAvatarRoutes(app, sync.dav, sync.service, avatars);
  syncSearchRoutes(app, sync.dav, sync.service, sync.search);
  ocsShareRoutes(app, sync.dav.auth, sync.service, sync.dav.files, () => sync.shares);
}
