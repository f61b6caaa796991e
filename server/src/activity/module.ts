// Activity assembled (api-contract §17, docs/features/activity.md): the
// recorder the file store writes through, the reading service, its route, and
// the hook that names the actor of each request that may change something.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { runAs } from '../core/actor.js';
import type { FilesService } from '../files/service.js';
import { ActivityRecorder, ActivityRepository } from './repository.js';
import { ActivityService } from './service.js';
import { activityRoutes, type PeoplePort } from './routes.js';

export { ActivityRecorder };

export interface Activity {
  service: ActivityService;
  people: PeoplePort;
}

export function createActivity(deps: { db: Db; files: FilesService; people: PeoplePort }): Activity {
  return { service: new ActivityService(new ActivityRepository(deps.db), deps.files), people: deps.people };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Names the signed-in person as the actor of every request that may change
 * something (core/actor.ts), for the histories written while it runs. A
 * callback-style preHandler, after the auth guard and the body parser, so the
 * handler and everything it awaits run inside the actor's scope. Reads get no
 * hook (nothing to pay on the download paths); WebDAV authenticates in its
 * handler and names the actor there (webdav/routes.ts).
 */
export function registerActorScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((m) => READS.has(m))) return;
    const hook = (request: FastifyRequest, _reply: FastifyReply, done: () => void): void => {
      if (READS.has(request.method)) return done();
      runAs(request.auth ? { id: request.auth.user.id } : null, done);
    };
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

export function activityModuleRoutes(app: FastifyInstance, activity: Activity): void {
  activityRoutes(app, activity.service, activity.people);
}
