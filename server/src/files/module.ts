// The file feature assembled: storage driver, tree, services, the background
// sweeper, the user-deletion hook, and the registration of its routes.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import { FileStore } from './repository.js';
import { LocalStorage } from './storage/local.js';
import type { StorageConfig } from '../config.js';
import type { StorageDriver } from './storage/driver.js';
import { Tree, type Quotas } from './tree.js';
import { FilesService } from './service.js';
import { TrashService } from './trash.js';
import { UploadService, type UploadOptions } from './uploads.js';
import { TusService } from './tus.js';
import { DEFAULT_LIVENESS, InstanceLiveness, type LivenessOptions } from './liveness.js';
import { InstanceRepository } from './instance-repository.js';
import { UrlSigner } from './signed-urls.js';
import { fileRoutes } from './routes.js';
import { downloadRoutes } from './download-routes.js';
import { uploadRoutes } from './upload-routes.js';
import { trashRoutes } from './trash-routes.js';
import { FileSearch } from './search.js';
import { SearchRepository } from './search-repository.js';
import { searchRoutes } from './search-routes.js';
import { Thumbnails } from './thumbnails.js';
import { DiskThumbCache } from './thumb-cache.js';
import { thumbRoutes } from './thumb-routes.js';
import { VersionService } from './versions.js';
import { versionRoutes } from './version-routes.js';
import { ChangeSignal } from './events/signal.js';
import { FeedAudiences, type ActivitySink } from './events/audience.js';

/** What the file feature needs from accounts (AccountService satisfies it). */
export interface AccountsPort {
  /** Any tree owner's quota: a person's or a team folder principal's. */
  findQuotaOwner(id: string): Promise<{ storage_quota: number | null; group_quota: number } | undefined>;
  /** An active person, or a team folder's principal. */
  ownerActive(id: string): Promise<boolean>;
  onUserDeleted(hook: (userId: string) => Promise<void>): void;
  /** The user cache the auth guard reads (AccountService.cache). */
  cache: { get(id: string): Promise<{ active: boolean } | null> };
}

export interface FilesDeps {
  db: Db;
  dataDir: string;
  /** Default: the local disk under dataDir. */
  storage?: StorageConfig;
  masterKey: string;
  accounts: AccountsPort;
  uploadOptions?: Partial<UploadOptions>;
  /** Runs the sweep and the reclaim (failures logged, counted and shown by health); a private runner when absent. */
  jobs?: Jobs;
  /** Default: every 10 minutes; 0 disables the timer (the sweep can still be run by hand). */
  sweepIntervalMs?: number;
  /** How often dead processes' uploads are reclaimed (default 1 s; 0 disables the timer). */
  reclaimIntervalMs?: number;
  /** How often old versions are pruned (default hourly; 0 disables the timer, `jobs.run('version_prune')` still works). */
  versionPruneIntervalMs?: number;
  liveness?: Partial<LivenessOptions>;
  /** Uploads and downloads in flight per account or link (default: files/transfers.ts). */
  transfers?: TransferLimits;
  /** Where item histories are written (activity/); none: no history. */
  activity?: ActivitySink;
  clock: Clock;
}

import type { Files } from './types.js';
import { Transfers, type TransferLimits } from './transfers.js';
import { Jobs } from '../core/jobs.js';
import type { Clock } from '../core/clock.js';

export type { Files };

export async function createFiles(deps: FilesDeps): Promise<Files> {
  const storage = await openStorage(deps.storage ?? { kind: 'local' }, deps.dataDir);
  const changes = new ChangeSignal();
  const audiences = new FeedAudiences();
  const store = new FileStore(deps.db, false, { now: () => deps.clock.now(), committed: (owners) => changes.emit(owners), audience: audiences.sources, activity: deps.activity });
  const quotas: Quotas = {
    async quotaOf(userId) {
      const user = await deps.accounts.findQuotaOwner(userId);
      if (!user) throw notFound('User not found');
      return user.storage_quota ?? user.group_quota;
    },
  };
  const tree = new Tree(store, storage, deps.clock);
  const files = new FilesService(tree, quotas, deps.clock);
  if (deps.transfers) files.transfers = new Transfers(deps.transfers);
  const liveness = new InstanceLiveness(new InstanceRepository(deps.db), deps.clock, { ...DEFAULT_LIVENESS, ...deps.liveness });
  await liveness.start();
  const uploads = new UploadService(tree, files, quotas, liveness, deps.clock, deps.uploadOptions);
  const trash = new TrashService(tree, files, deps.clock);
  const tus = new TusService(uploads, store, deps.clock);
  const versions = new VersionService(tree, files, deps.clock);
  deps.accounts.onUserDeleted((userId) => uploads.deleteOwner(userId));

  let running: Promise<unknown> | null = null;
  const sweep = () => {
    running ??= uploads.sweep().finally(() => {
      running = null;
    });
    return running;
  };
  const jobs = deps.jobs ?? new Jobs(undefined, deps.clock);
  // With S3 the bucket keeps the thumbnails, shared by every instance; with local storage, the data directory.
  const thumbCache = storage.thumbCache?.() ?? new DiskThumbCache(path.join(deps.dataDir, 'thumbs'));
  jobs.every('upload_sweep', deps.sweepIntervalMs ?? 600_000, sweep, { firstAfterMs: 5_000 });
  // Cheap and frequent: two indexed queries that usually find nothing.
  jobs.every('upload_reclaim', deps.reclaimIntervalMs ?? 1_000, () => uploads.reclaim());
  // Deletions a crash interrupted, copies never revealed (tree-batches.ts): one indexed query that usually finds nothing.
  jobs.every('tree_pending', 60_000, () => tree.batches.processPending(), { firstAfterMs: 5_000 });
  // Versions past their group's age or count (versions.ts); pruning on write handles the usual case.
  jobs.every('version_prune', deps.versionPruneIntervalMs ?? 3_600_000, () => versions.prune(), { firstAfterMs: 60_000 });
  return {
    files, trash, uploads, tus, storage, sweep, versions, changes, audiences,
    search: new FileSearch(new SearchRepository(deps.db), files),
    thumbs: new Thumbnails(files, thumbCache),
    thumbCache,
    signer: new UrlSigner(deps.masterKey, deps.clock),
    ownerActive: (userId) => deps.accounts.ownerActive(userId),
    async stop() {
      // A private runner is stopped here; a shared one by its owner (its other jobs go on until then).
      if (!deps.jobs) await jobs.stop();
      await running?.catch(() => undefined);
      await liveness.stop();
      storage.destroy?.();
    },
  };
}

async function openStorage(config: StorageConfig, dataDir: string): Promise<StorageDriver> {
  if (config.kind === 's3') {
    // The AWS SDK is loaded only by sites that store in S3 (tens of MB of memory and start-up time otherwise).
    const { S3Storage } = await import('./storage/s3.js');
    return new S3Storage(config);
  }
  const local = new LocalStorage(path.join(dataDir, 'files'), config.fsync !== false);
  await local.init();
  return local;
}

export async function filesRoutes(app: FastifyInstance, f: Files, baseUrl: string): Promise<void> {
  fileRoutes(app, f.files);
  searchRoutes(app, f.search);
  thumbRoutes(app, f.thumbs);
  trashRoutes(app, f.trash);
  versionRoutes(app, f.versions, f.files.transfers);
  downloadRoutes(app, f, baseUrl);
  await app.register(async (scope) => {
    // Upload bodies are raw streams of any type and size: this scope's only
    // parser hands the stream through unread, with no body limit; quota and
    // lengths are enforced while streaming. Only to a route that documents a
    // raw body (`x-body`) and in one of its media types: a form sent to tus
    // creation or termination is 415, not ignored (issue 19).
    acceptRawBodies(scope);
    uploadRoutes(scope, f);
  });
}

/** Makes a scope hand raw bodies through unread, to routes that document one (also the share feature's tus endpoint). */
export function acceptRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, _payload, done) => {
    const raw = (request.routeOptions.schema as { 'x-body'?: { mediaTypes: string[] } } | undefined)?.['x-body'];
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (raw && (raw.mediaTypes.includes('*/*') || raw.mediaTypes.includes(type))) return done(null, undefined);
    done(new DomainError(ErrorCode.ParamError, 'Unsupported Content-Type', { kind: 'unsupported_media_type' }));
  });
}
