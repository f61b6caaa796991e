// Activity assembled (api-contract §17, docs/features/activity.md): the
// recorder the file store writes through, the reading service and its route.
// Who acted is given by the files layer at each change (core/actor.ts).
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
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

export function activityModuleRoutes(app: FastifyInstance, activity: Activity): void {
  activityRoutes(app, activity.service, activity.people);
}
