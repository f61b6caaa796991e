// The file feature as assembled by module.ts, in a module of its own so the
// route files can take it without importing the module that registers them.
import type { StorageDriver } from './storage/driver.js';
import type { FilesService } from './service.js';
import type { TrashService } from './trash.js';
import type { FileSearch } from './search.js';
import type { Thumbnails } from './thumbnails.js';
import type { UploadService } from './uploads.js';
import type { TusService } from './tus.js';
import type { UrlSigner } from './signed-urls.js';
import type { VersionService } from './versions.js';
import type { ChangeSignal } from './events/signal.js';
import type { FeedAudiences } from './events/audience.js';
import type { ThumbCache } from './thumb-cache.js';

export interface Files {
  files: FilesService;
  trash: TrashService;
  search: FileSearch;
  thumbs: Thumbnails;
  /** Where thumbnails (and media's thumbnail sources) are kept: the S3 bucket, else the data directory. */
  thumbCache: ThumbCache;
  uploads: UploadService;
  tus: TusService;
  signer: UrlSigner;
  versions: VersionService;
  /**
   * Whether the owner of a file may still serve it to holders of a signed URL
   * (a banned owner's links stop, as share links do); answered from the
   * accounts' bounded-staleness user cache, not a query per download.
   */
  ownerActive(userId: string): Promise<boolean>;
  storage: StorageDriver;
  /** Raised after a transaction that recorded change-feed events commits (files/events/). */
  changes: ChangeSignal;
  /** Who besides an owner sees changes in their tree (sharing, team folders install sources at start-up). */
  audiences: FeedAudiences;
  /** Reclaims expired uploads, orphaned staging data and unreferenced blobs. */
  sweep(): Promise<unknown>;
  stop(): Promise<void>;
}
