// Media assembled: the repository, the service (thumbnail sources and
// metadata per blob), the job that looks at new blobs (after each committed
// change of a tree, and every RESCAN_MS for what other instances wrote), the
// sweep of deleted content, and the routes.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { Jobs } from '../core/jobs.js';
import type { Clock } from '../core/clock.js';
import type { Foreground } from '../core/foreground.js';
import type { ChangeSignal } from '../files/events/signal.js';
import type { FilesService } from '../files/service.js';
import type { ThumbCache } from '../files/thumb-cache.js';
import { MediaRepository } from './repository.js';
import { DEFAULT_MEDIA, MediaService, type BlobReader, type MediaOptions } from './service.js';
import { mediaRoutes } from './routes.js';
import { Photos } from './photos.js';

const RESCAN_MS = 30_000;
const SWEEP_MS = 600_000;

export interface MediaDeps {
  db: Db;
  dataDir: string;
  blobs: BlobReader;
  files: FilesService;
  changes: ChangeSignal;
  jobs: Jobs;
  clock: Clock;
  /** Where thumbnails are kept (the file feature's: the data directory, or the S3 bucket). */
  thumbCache: ThumbCache;
  options?: Partial<MediaOptions>;
  /** Background steps wait for a pause in requests (core/foreground.ts). */
  foreground?: Foreground;
}

export interface Media {
  service: MediaService;
  photos: Photos;
  /** Runs the job now and resolves when it is idle (tests). */
  lookNow(): Promise<void>;
  stop(): Promise<void>;
}

export async function createMedia(deps: MediaDeps): Promise<Media> {
  const repo = new MediaRepository(deps.db);
  const service = new MediaService(repo, deps.blobs, deps.clock, {
    ...DEFAULT_MEDIA,
    cache: deps.thumbCache,
    tmpDir: path.join(deps.dataDir, 'media-tmp'),
    ...deps.options,
    pause: deps.foreground?.pause,
  });
  await service.start();
  const kick = () => void deps.jobs.run('media_look');
  deps.changes.on((owners) => {
    service.changed(owners);
    kick();
  });
  let stopped = false;
  deps.jobs.every('media_look', 0, async () => {
    if (await service.run()) setTimeout(() => !stopped && kick(), 50).unref();
  });
  deps.jobs.every(
    'media_rescan',
    RESCAN_MS,
    async () => {
      service.lookEverywhere();
      await deps.jobs.run('media_look');
    },
    { firstAfterMs: 1_000 },
  );
  deps.jobs.every('media_sweep', SWEEP_MS, () => service.sweep(), { firstAfterMs: 60_000 });
  return {
    service,
    photos: new Photos(repo, deps.files),
    async lookNow() {
      service.lookEverywhere();
      await deps.jobs.run('media_look');
    },
    async stop() {
      stopped = true;
      service.stop();
      await service.idle();
    },
  };
}

export function mediaModuleRoutes(app: FastifyInstance, media: Media): void {
  mediaRoutes(app, media.service, media.photos);
}
