// The share feature assembled: repository, unlock tokens, the owner's service,
// the public access rules, upload requests, and the registration of their routes.
import type { FastifyInstance } from 'fastify';
import type { PageSender } from '../http/pages.js';
import type { Db } from '../db/database.js';
import type { FilesService } from '../files/service.js';
import { acceptRawBodies } from '../files/module.js';
import type { UploadService } from '../files/uploads.js';
import type { Throttle } from '../throttle/service.js';
import type { Jobs } from '../core/jobs.js';
import { ShareAccess } from './access.js';
import { publicShareRoutes } from './public-routes.js';
import { ShareRepository } from './repository.js';
import { shareRoutes } from './routes.js';
import { ShareService, type OwnersPort } from './service.js';
import { UnlockTokens } from './unlock-tokens.js';
import { UploadRequestRepository } from './upload-request-repository.js';
import { UploadRequests, type PendingLimits } from './upload-requests.js';
import { uploadRequestRoutes } from './upload-routes.js';
import { UploadNotices, type UploadNoticeSink } from './upload-notices.js';
import type { Clock } from '../core/clock.js';

export interface SharesDeps {
  db: Db;
  files: FilesService;
  /** Upload requests go through the file feature's upload machinery. */
  uploads: UploadService;
  owners: OwnersPort;
  masterKey: string;
  throttle: Throttle;
  /** The public base URL (config.baseUrl). */
  baseUrl: string;
  clock: Clock;
  /** What uploads through links may have reserved and not sent (config.ts linkUploadPending*). */
  linkUploadPending: PendingLimits;
  /** With both, owners are told when their upload-request links receive files (batched every minute) and, when a link asks for it, of its downloads. */
  notify?: SharesNotify;
  jobs?: Jobs;
}

/** What shares tells the notifications feature. */
export interface SharesNotify {
  uploadReceived: UploadNoticeSink;
  /** A download through a link whose owner asked to hear of each one (`notify_downloads`). */
  linkDownloaded(ownerId: string, data: { share_id: string; name: string; link: string }): Promise<void>;
}

export interface Shares {
  service: ShareService;
  access: ShareAccess;
  files: FilesService;
  requests: UploadRequests;
  notices: UploadNotices | null;
}

/** How often owners are told what their upload links received. */
export const NOTICE_INTERVAL_MS = 60_000;

export function createShares(deps: SharesDeps): Shares {
  const repo = new ShareRepository(deps.db);
  const uploadsRepo = new UploadRequestRepository(deps.db);
  const access = new ShareAccess(repo, deps.files, deps.owners, deps.throttle, new UnlockTokens(deps.masterKey, deps.clock), deps.clock, (id) => uploadsRepo.slotsInUse(id));
  const requests = new UploadRequests(uploadsRepo, repo, access, deps.uploads, deps.clock, deps.linkUploadPending);
  deps.uploads.shareHooks = requests.hooks();
  const notify = deps.notify;
  const notices = notify ? new UploadNotices(uploadsRepo, repo, deps.files, notify.uploadReceived, deps.clock) : null;
  if (notify) {
    access.onDownloaded(async (shareId) => {
      const share = await repo.find(shareId);
      if (!share || share.notify_downloads !== 1) return;
      const item = await deps.files.getById(share.owner_id, share.file_id).catch(() => null);
      await notify.linkDownloaded(share.owner_id, { share_id: shareId, name: item?.row.name ?? shareId, link: '/shares' });
    });
  }
  if (notices && deps.jobs) deps.jobs.every('upload_request_notices', NOTICE_INTERVAL_MS, () => notices.run(), { firstAfterMs: 5_000 });
  return {
    service: new ShareService(repo, deps.files, deps.owners, deps.baseUrl, deps.clock, (ids) => uploadsRepo.receivedCounts(ids), (id) => requests.release(id)),
    access,
    files: deps.files,
    requests,
    notices,
  };
}

export async function sharesRoutes(app: FastifyInstance, shares: Shares, sendPage?: PageSender): Promise<void> {
  shareRoutes(app, shares.service, shares.requests);
  publicShareRoutes(app, shares.access, shares.files, sendPage);
  await app.register(async (scope) => {
    acceptRawBodies(scope);
    uploadRequestRoutes(scope, shares.requests);
  });
}
