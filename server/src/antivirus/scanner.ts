// Which uploads are scanned, and what a verdict does (docs/features/antivirus.md).
// The file feature calls `check` once an upload's bytes are stored and before
// its file exists (files/uploads.ts, UploadScanner): a clean file goes on; an
// infected one is refused (the upload is cancelled: its bytes are deleted, the
// owner told); no verdict (clamd down, silent, or the file past its size limit)
// refuses too, so nothing unscanned appears.
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode } from '../core/errors.js';
import { ScanFailure, scanStream, type ClamdAddress, type Verdict } from './clamd.js';

export type ScanScope = 'links' | 'all';
export type ScanResult = 'clean' | 'infected' | 'failed';

/** What is known of the upload being checked. */
export interface ScannedUpload {
  ownerId: string;
  /** The name the uploader gave. */
  name: string;
  /** Set when it came through an upload-request link. */
  shareId: string | null;
}

export interface ScannerOptions {
  address: ClamdAddress;
  scope: ScanScope;
  timeoutMs: number;
  /** Seconds a held uploader is asked to wait (Retry-After). */
  retryAfterSeconds: number;
}

export interface ScannerPorts {
  /** Counts each scan by outcome (/metrics). */
  counted(result: ScanResult): void;
  /** Tells the owner an infected file was refused (a mail through the outbox). */
  infected(upload: ScannedUpload, signature: string): Promise<void>;
  log(level: 'warn' | 'error', fields: Record<string, unknown>, message: string): void;
}

/** The verdict of a scan, told by the scanner's client (replaceable in tests). */
export type ScanFn = (address: ClamdAddress, source: AsyncIterable<Uint8Array>, timeoutMs: number) => Promise<Verdict>;

export class UploadScanner {
  constructor(
    private readonly options: ScannerOptions,
    private readonly ports: ScannerPorts,
    private readonly scan: ScanFn = scanStream,
  ) {}

  /** Whether this upload must be scanned before it appears. */
  applies(upload: ScannedUpload): boolean {
    return this.options.scope === 'all' || upload.shareId !== null;
  }

  /** Scans the stored bytes; resolves when clean, throws the refusal otherwise. */
  async check(upload: ScannedUpload, open: () => Promise<Readable>): Promise<void> {
    if (!this.applies(upload)) return;
    let verdict: Verdict;
    let source: Readable | undefined;
    try {
      source = await open();
      verdict = await this.scan(this.options.address, source, this.options.timeoutMs);
    } catch (err) {
      this.ports.counted('failed');
      if (err instanceof ScanFailure && err.reason === 'size_limit') {
        // Retrying cannot help: refuse it for good, as a file too large.
        throw new DomainError(ErrorCode.TooLarge, 'The file is larger than the virus scanner accepts', { data: { reason: 'too_large_to_scan' } });
      }
      this.ports.log('error', { err: err instanceof Error ? err.message : String(err) }, 'virus scan failed: upload held');
      throw new DomainError(ErrorCode.Internal, 'The virus scanner is not available; the upload is kept, try again later', {
        kind: 'unavailable',
        retryAfterSeconds: this.options.retryAfterSeconds,
        data: { reason: 'scanner_unavailable' },
      });
    } finally {
      // A scan that stopped early (clamd gone, or past its limit) leaves the file open otherwise.
      source?.destroy();
    }
    if (!verdict.infected) {
      this.ports.counted('clean');
      return;
    }
    this.ports.counted('infected');
    this.ports.log('warn', { owner: upload.ownerId, share: upload.shareId, signature: verdict.signature }, 'infected upload refused and deleted');
    await this.ports.infected(upload, verdict.signature).catch((err: unknown) => this.ports.log('error', { err: String(err) }, 'infected-upload notice failed'));
    throw new DomainError(ErrorCode.Forbidden, `The file was refused: the virus scanner found ${verdict.signature}`, { data: { reason: 'infected' } });
  }
}
