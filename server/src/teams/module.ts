// Team folders assembled: the repository, the resolver that mounts them at the
// top of each member's tree (in front of sharing's), the admin service and routes.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { FilesService } from '../files/service.js';
import type { PathScopes } from '../files/scopes.js';
import type { TrashService } from '../files/trash.js';
import type { Clock } from '../core/clock.js';
import { TeamRepository } from './repository.js';
import { TeamPaths } from './resolver.js';
import { TeamService, type TeamFilesPort } from './service.js';
import { teamRoutes } from './routes.js';
import { TeamAudience } from './audience-repository.js';
import type { FeedAudiences } from '../files/events/audience.js';

export interface Teams {
  admin: TeamService;
  paths: TeamPaths;
}

export function createTeams(deps: { db: Db; files: FilesService; trash: TrashService; owners: TeamFilesPort; audiences: FeedAudiences; next: PathScopes; reserved: readonly string[]; clock: Clock }): Teams {
  const repo = new TeamRepository(deps.db);
  const paths = new TeamPaths(repo, deps.files, deps.next, deps.reserved);
  deps.files.useScopes(paths);
  deps.trash.useMounts(paths);
  // Members' feeds carry the changes inside their team folders.
  deps.audiences.add(new TeamAudience());
  return { admin: new TeamService(repo, deps.owners, deps.reserved, deps.clock), paths };
}

export function teamModuleRoutes(app: FastifyInstance, teams: Teams): void {
  teamRoutes(app, teams.admin);
}
