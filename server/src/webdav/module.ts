// The WebDAV feature assembled (api-contract §8): accounts, the Basic/Bearer
// authenticator, locks and the protocol routes, over the file service.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { FilesService } from '../files/service.js';
import type { UploadService } from '../files/uploads.js';
import type { AccessTokenVerifier } from '../sessions/access-tokens.js';
import type { UserCache } from '../accounts/user-cache.js';
import { DavRepository } from './repository.js';
import { DavAccountService } from './accounts.js';
import { DavAuthenticator, type CredentialThrottle } from './auth.js';
import { LockService } from './locks.js';
import { davAccountRoutes } from './accounts-routes.js';
import { davRoutes } from './routes.js';
import type { Clock } from '../core/clock.js';
import type { ResourceProofCheck } from '../core/dpop.js';

export interface DavDeps {
  db: Db;
  files: FilesService;
  uploads: UploadService;
  users: { findByLogin(login: string): Promise<{ id: string; status: string } | undefined> };
  userCache: UserCache;
  verifier: AccessTokenVerifier;
  /** DPoP proofs for bound tokens (RFC 9449 §7). */
  proofs: ResourceProofCheck;
  throttle: CredentialThrottle;
  clock: Clock;
}

export interface Dav {
  repo: DavRepository;
  accounts: DavAccountService;
  auth: DavAuthenticator;
  locks: LockService;
  files: FilesService;
  uploads: UploadService;
}

export function createDav(deps: DavDeps): Dav {
  const repo = new DavRepository(deps.db);
  const accounts = new DavAccountService(repo, deps.files, deps.clock);
  const auth = new DavAuthenticator(repo, deps.users, deps.userCache, deps.verifier, deps.throttle, deps.clock, deps.proofs);
  accounts.onChange((id) => auth.forget(id));
  return { repo, accounts, auth, locks: new LockService(repo, deps.clock), files: deps.files, uploads: deps.uploads };
}

export function webdavRoutes(app: FastifyInstance, dav: Dav): void {
  davAccountRoutes(app, dav.accounts);
  davRoutes(app, dav);
}
