// The virus scanner assembled (when CIRRUS_CLAMAV is set): clamd's address,
// which uploads it sees, the metrics it counts and the owner's notice.
import type { AntivirusConfig } from '../config.js';
import type { JobLogger } from '../core/jobs.js';
import { mailLanguage } from '../mail/messages.js';
import type { QueuedMail } from '../mail/mailer.js';
import { parseClamdAddress } from './clamd.js';
import { UploadScanner, type ScanResult } from './scanner.js';

export interface ScannerDeps {
  metrics: { scanned(result: ScanResult): void };
  jobs: { readonly logger: JobLogger };
  mailer: { configured(): Promise<boolean>; queue(mail: QueuedMail): Promise<string> };
  accounts: { findById(id: string): Promise<{ email: string; status: string; locale?: string | null } | undefined> };
  baseUrl: string;
}

/** How long clamd may stay silent on one scan before the upload is held. */
const SCAN_TIMEOUT_MS = 60_000;
/** What a held uploader is told to wait. */
const RETRY_AFTER_S = 30;

export function createScanner(config: AntivirusConfig, deps: ScannerDeps): UploadScanner {
  return new UploadScanner(
    { address: parseClamdAddress(config.clamd), scope: config.scope, timeoutMs: SCAN_TIMEOUT_MS, retryAfterSeconds: RETRY_AFTER_S },
    {
      counted: (result) => deps.metrics.scanned(result),
      log: (level, fields, message) => deps.jobs.logger[level](fields, message),
      infected: async (upload, signature) => {
        const owner = await deps.accounts.findById(upload.ownerId);
        // Team folders' principals have no address; a banned or deleted owner is not mailed.
        if (!owner || owner.status !== 'active' || !(await deps.mailer.configured())) return;
        await deps.mailer.queue({
          kind: 'upload_infected',
          to: owner.email,
          language: mailLanguage(owner.locale ?? null),
          vars: { file: upload.name, signature, via: upload.shareId ? 'link' : 'upload' },
        });
      },
    },
  );
}
