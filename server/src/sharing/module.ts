// The sharing feature assembled: grants, the path resolver that the files
// service consults for every path, and the routes.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { FilesService } from '../files/service.js';
import type { Clock } from '../core/clock.js';
import { AccessRepository } from './repository.js';
import { SharedPaths } from './resolver.js';
import { SharingAudience } from './audience-repository.js';
import type { FeedAudiences } from '../files/events/audience.js';
import { AccessService, type SharingPorts } from './service.js';
import { accessRoutes } from './routes.js';
import { RecipientSuggestions } from './suggest.js';

export interface Sharing {
  access: AccessService;
  paths: SharedPaths;
  suggestions: RecipientSuggestions;
}

export function createSharing(deps: { db: Db; files: FilesService; audiences: FeedAudiences; ports: SharingPorts; clock: Clock }): Sharing {
  const repo = new AccessRepository(deps.db);
  const paths = new SharedPaths(repo, deps.files, deps.clock);
  deps.files.useScopes(paths);
  // Recipients' feeds carry changes inside what is shared with them.
  deps.audiences.add(new SharingAudience());
  return { access: new AccessService(repo, deps.files, paths, deps.ports, deps.clock), paths, suggestions: new RecipientSuggestions(repo, deps.ports) };
}

export function sharingRoutes(app: FastifyInstance, sharing: Sharing): void {
  accessRoutes(app, sharing.access, sharing.suggestions);
}
