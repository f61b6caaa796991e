// Tells owners what their upload-request links received. Batched: the jobs
// runner calls `run` every minute, and each link gets one mail listing the
// files that arrived since its last mail, so a visitor dropping fifty files
// sends one mail, not fifty. Rows are claimed with a compare-and-set before
// mailing (two instances never mail the same file); with no mail transport
// configured they are marked and nothing is queued.
import type { Clock } from '../core/clock.js';
import { mailLanguage, type MailLanguage } from '../mail/messages.js';
import type { FilesService } from '../files/service.js';
import type { ShareRepository } from './repository.js';
import type { ShareUploadRow, UploadRequestRepository } from './upload-request-repository.js';

/** The recipient, as the accounts feature knows them. */
export interface NoticeOwners {
  findById(id: string): Promise<{ email: string; status: string; locale?: string | null } | undefined>;
}

/** What this needs of the mailer (mail/mailer.ts). */
export interface NoticeMailer {
  configured(): Promise<boolean>;
  queue(mail: { kind: 'upload_received'; to: string; language: MailLanguage; link?: string; vars?: Record<string, string> }): Promise<string>;
}

/** At most this many names are spelled out in one mail. */
const NAMES_SHOWN = 20;

export class UploadNotices {
  constructor(
    private readonly repo: UploadRequestRepository,
    private readonly shares: ShareRepository,
    private readonly files: FilesService,
    private readonly owners: NoticeOwners,
    private readonly mailer: NoticeMailer,
    private readonly baseUrl: string,
    private readonly clock: Clock,
  ) {}

  /** One round: a mail per link that received files since its last one. Returns the number of mails queued. */
  async run(): Promise<number> {
    const rows = await this.repo.unnotified(500);
    if (rows.length === 0) return 0;
    const byShare = new Map<string, ShareUploadRow[]>();
    for (const row of rows) byShare.set(row.share_id, [...(byShare.get(row.share_id) ?? []), row]);
    const configured = await this.mailer.configured();
    let sent = 0;
    for (const [shareId, received] of byShare) {
      const claimed = new Set(await this.repo.claimNotice(received.map((r) => r.id), this.clock.now()));
      const mine = received.filter((r) => claimed.has(r.id));
      if (mine.length === 0 || !configured) continue;
      if (await this.mail(shareId, mine)) sent++;
    }
    return sent;
  }

  private async mail(shareId: string, received: ShareUploadRow[]): Promise<boolean> {
    const share = await this.shares.find(shareId);
    const owner = share ? await this.owners.findById(share.owner_id) : undefined;
    if (!share || !owner || owner.status !== 'active') return false;
    const folder = await this.files.getById(share.owner_id, share.file_id).catch(() => null);
    const language = mailLanguage(owner.locale ?? null);
    const names = received.slice(0, NAMES_SHOWN).map((r) => (r.uploader ? `${r.name} (${r.uploader})` : r.name));
    const more = received.length - names.length;
    const files = more > 0 ? `${names.join(', ')}${language === 'zh-CN' ? ` 等 ${received.length} 个文件` : ` and ${more} more`}` : names.join(', ');
    const link = folder ? `${this.baseUrl}/files${folder.path.split('/').map(encodeURIComponent).join('/')}` : `${this.baseUrl}/shares`;
    await this.mailer.queue({
      kind: 'upload_received', to: owner.email, language, link,
      vars: { count: String(received.length), files, folder: folder?.row.name ?? shareId },
    });
    return true;
  }
}
