// Tells owners what their upload-request links received. Batched: the jobs
// runner calls `run` every minute, and each link gets one notification
// listing the files that arrived since its last one, so a visitor dropping
// fifty files makes one notice (and, by the owner's preferences, one mail),
// not fifty. Rows are claimed with a compare-and-set first (two instances
// never announce the same file).
import type { Clock } from '../core/clock.js';
import type { FilesService } from '../files/service.js';
import type { ShareRepository } from './repository.js';
import type { ShareUploadRow, UploadRequestRepository } from './upload-request-repository.js';

/** Where the notices go (notifications/: `upload_request_received`). */
export type UploadNoticeSink = (ownerId: string, data: { share_id: string; folder: string; count: number; files: string[]; link: string }) => Promise<void>;

/** At most this many names are spelled out in one mail. */
const NAMES_SHOWN = 20;

export class UploadNotices {
  constructor(
    private readonly repo: UploadRequestRepository,
    private readonly shares: ShareRepository,
    private readonly files: FilesService,
    private readonly sink: UploadNoticeSink,
    private readonly clock: Clock,
  ) {}

  /** One round: a notice per link that received files since its last one. Returns how many. */
  async run(): Promise<number> {
    const rows = await this.repo.unnotified(500);
    if (rows.length === 0) return 0;
    const byShare = new Map<string, ShareUploadRow[]>();
    for (const row of rows) byShare.set(row.share_id, [...(byShare.get(row.share_id) ?? []), row]);
    let sent = 0;
    for (const [shareId, received] of byShare) {
      const claimed = new Set(await this.repo.claimNotice(received.map((r) => r.id), this.clock.now()));
      const mine = received.filter((r) => claimed.has(r.id));
      if (mine.length === 0) continue;
      if (await this.tell(shareId, mine)) sent++;
    }
    return sent;
  }

  private async tell(shareId: string, received: ShareUploadRow[]): Promise<boolean> {
    const share = await this.shares.find(shareId);
    if (!share) return false;
    const folder = await this.files.getById(share.owner_id, share.file_id).catch(() => null);
    const files = received.slice(0, NAMES_SHOWN).map((r) => (r.uploader ? `${r.name} (${r.uploader})` : r.name));
    const link = folder ? `/files${folder.path.split('/').map(encodeURIComponent).join('/')}` : '/shares';
    await this.sink(share.owner_id, { share_id: shareId, folder: folder?.row.name ?? shareId, count: received.length, files, link });
    return true;
  }
}
