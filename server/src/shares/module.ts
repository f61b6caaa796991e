// The share feature assembled: repository, unlock tokens, the owner's service,
// the public access rules, and the registration of their routes.
import type { FastifyInstance } from 'fastify';
import type { PageSender } from '../http/pages.js';
import type { Db } from '../db/database.js';
import type { FilesService } from '../files/service.js';
import type { Throttle } from '../throttle/service.js';
import { ShareAccess } from './access.js';
import { publicShareRoutes } from './public-routes.js';
import { ShareRepository } from './repository.js';
import { shareRoutes } from './routes.js';
import { ShareService, type OwnersPort } from './service.js';
import { UnlockTokens } from './unlock-tokens.js';
import type { Clock } from '../core/clock.js';

export interface SharesDeps {
  db: Db;
  files: FilesService;
  owners: OwnersPort;
  masterKey: string;
  throttle: Throttle;
  /** The public base URL (config.baseUrl). */
  baseUrl: string;
  clock: Clock;
}

export interface Shares {
  service: ShareService;
  access: ShareAccess;
  files: FilesService;
}

export function createShares(deps: SharesDeps): Shares {
  const repo = new ShareRepository(deps.db);
  return {
    service: new ShareService(repo, deps.files, deps.owners, deps.baseUrl, deps.clock),
    access: new ShareAccess(repo, deps.files, deps.owners, deps.throttle, new UnlockTokens(deps.masterKey, deps.clock), deps.clock),
    files: deps.files,
  };
}

export function sharesRoutes(app: FastifyInstance, shares: Shares, sendPage?: PageSender): void {
  shareRoutes(app, shares.service);
  publicShareRoutes(app, shares.access, shares.files, sendPage);
}
