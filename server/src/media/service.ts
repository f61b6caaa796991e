// Media: each blob of a picture, video, song or PDF is looked at once, by the
// background job (after each committed change, and every RESCAN for what
// other instances wrote) or on the first request for its thumbnail. One look
// copies the blob to a private temporary folder (within a size cap per kind),
// learns its metadata and makes its thumbnail source (generators.ts), caches
// the source as <blob>-src.webp beside the sized thumbnails, and records the
// outcome per blob: a failure is remembered and not tried at every view; a
// kind whose tool is missing is "off" (made when the tool appears, at the
// next start). One look runs at a time per instance: the machine's cores
// belong to requests first.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Clock } from '../core/clock.js';
import { DiscoveredWork, type WorkOptions } from '../core/discovered-work.js';
import { generate, mediaKindOf, TOOLS, type Generated, type MediaInfo, type MediaKind } from './generators.js';
import { findTool, runTool, type ToolCaps } from './tools.js';
import type { MediaRepository, MediaState } from './repository.js';
import type { ThumbCache } from '../files/thumb-cache.js';

export interface BlobReader {
  read(blobId: string): Promise<Readable>;
}

export interface MediaOptions extends WorkOptions {
  /** Where thumbnail sources are kept, beside the sized thumbnails (files/thumb-cache.ts: the data directory, or the S3 bucket). */
  cache: ThumbCache;
  /** Parent of the per-blob temporary folders. */
  tmpDir: string;
  /** A claimed blob is free for another instance after this long (longer than any tool's time cap). */
  leaseMs: number;
  /** One run of the job stops taking new blobs after this long. */
  runBudgetMs: number;
  /** How long a thumbnail request waits for a look it started or joined before answering 202. */
  waitMs: number;
  /** Bytes of source at most, per kind (larger: failed, unread). */
  maxSourceBytes: Record<MediaKind, number>;
  caps: ToolCaps;
  /** PATH searched for the tools (tests switch tools off with it). */
  searchPath?: string;
}

const MiB = 1024 * 1024;

/** The cache's name for a blob's thumbnail source (the sized ones are `<blob>-<size>.webp`). */
const sourceName = (blobId: string) => `${blobId}-src.webp`;
export const DEFAULT_MEDIA: Omit<MediaOptions, 'cache' | 'tmpDir'> = {
  leaseMs: 120_000,
  runBudgetMs: 20_000,
  waitMs: 2_000,
  maxSourceBytes: { image: 50 * MiB, heif: 50 * MiB, pdf: 200 * MiB, audio: 1024 * MiB, video: 8 * 1024 * MiB },
  caps: { timeoutMs: 20_000, memoryBytes: 1024 * MiB, maxOutputBytes: 16 * MiB },
};

export const MAX_ATTEMPTS = 3;

export type ThumbSource = { state: 'ready'; webp: Buffer } | { state: 'pending' } | { state: 'none'; reason: string };

export interface KindStatus {
  kind: MediaKind;
  enabled: boolean;
  /** Tools not found on PATH. */
  missing: string[];
  /** The Debian package that brings them (null: nothing to install). */
  package: string | null;
}

export interface MediaStatus {
  kinds: KindStatus[];
  counts: Record<MediaState, number>;
}

const KINDS: MediaKind[] = ['image', 'heif', 'video', 'audio', 'pdf'];

export class MediaService {
  private readonly tools = new Map<string, string>();
  private readonly statuses: KindStatus[];
  private readonly inFlight = new Map<string, Promise<void>>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly work: DiscoveredWork<{ blob_id: string; attempts: number }>;

  constructor(
    private readonly repo: MediaRepository,
    private readonly blobs: BlobReader,
    private readonly clock: Clock,
    private readonly options: MediaOptions,
  ) {
    this.work = new DiscoveredWork(
      repo,
      async (claimed) => {
        const running = this.inFlight.get(claimed.blob_id);
        if (running) await running;
        else await this.track(claimed.blob_id, () => this.settle(claimed.blob_id, claimed.attempts));
      },
      clock,
      options,
    );
    this.statuses = KINDS.map((kind) => {
      const need = kind in TOOLS ? TOOLS[kind as keyof typeof TOOLS] : null;
      const missing: string[] = [];
      for (const tool of need?.tools ?? []) {
        const found = findTool(tool, options.searchPath);
        if (found) this.tools.set(tool, found);
        else missing.push(tool);
      }
      return { kind, enabled: missing.length === 0, missing, package: need && missing.length > 0 ? need.package : null };
    });
  }

  enabled(kind: MediaKind): boolean {
    return this.statuses.find((s) => s.kind === kind)?.enabled ?? false;
  }

  /** At start-up: blobs left "off" by a missing tool that is now installed are looked at again. */
  async start(): Promise<void> {
    await this.repo.requeueOff(this.statuses.filter((s) => s.enabled).map((s) => s.kind), this.clock.now());
    // Folders a crash left behind (older than any look can last; another process may be using newer ones).
    try {
      for (const name of await readdir(this.options.tmpDir)) {
        const dir = path.join(this.options.tmpDir, name);
        if (name.startsWith('look-') && Date.now() - (await stat(dir)).mtimeMs > 3_600_000) await rm(dir, { recursive: true, force: true });
      }
    } catch {
      // no folder yet
    }
  }

  async status(): Promise<MediaStatus> {
    return { kinds: this.statuses.map((s) => ({ ...s, missing: [...s.missing] })), counts: await this.repo.counts() };
  }

  /** The metadata learnt about a blob, or null (not a media type, not looked at yet, nothing found). */
  async mediaOf(blobId: string): Promise<MediaInfo | null> {
    const row = await this.repo.get(blobId);
    if (!row?.meta) return null;
    try {
      return JSON.parse(row.meta) as MediaInfo;
    } catch {
      return null;
    }
  }

  /** Whether thumbnails of this type are made here (thumbnails.ts asks before thumbSource). */
  handles(mime: string | null): boolean {
    const kind = mediaKindOf(mime);
    return kind !== null && kind !== 'image';
  }

  /**
   * The cached thumbnail source of a video, PDF, HEIC or song, making it now
   * (bounded by waitMs) when it was never made; 'pending' while it is being
   * made, 'none' when it cannot be (remembered) or its tool is missing.
   */
  async thumbSource(blobId: string, mime: string | null): Promise<ThumbSource> {
    const kind = mediaKindOf(mime);
    if (!kind || kind === 'image') return { state: 'none', reason: 'not a media type' };
    if (!this.enabled(kind)) return { state: 'none', reason: `${kind} thumbnails are off: ${this.statuses.find((s) => s.kind === kind)?.missing.join(', ')} not installed` };
    const cached = await this.readSource(blobId);
    if (cached) return { state: 'ready', webp: cached };
    let row = await this.repo.get(blobId);
    if (row && row.state !== 'pending' && !(row.state === 'done' && row.has_thumb === 1)) return { state: 'none', reason: row.reason ?? 'no picture in this file' };
    if (!row) {
      await this.repo.ensure(blobId, this.clock.now());
      row = await this.repo.get(blobId);
    }
    let work = this.inFlight.get(blobId);
    if (!work) {
      // Done elsewhere (another instance, before a restart): make the source again, recording nothing.
      if (row?.state === 'done') work = this.track(blobId, () => this.remake(blobId));
      else {
        const claimed = await this.repo.claim(this.clock.now(), this.options.leaseMs, blobId);
        // Another instance holds it: the client comes back.
        if (!claimed) return { state: 'pending' };
        work = this.track(blobId, () => this.settle(blobId, claimed.attempts));
      }
    }
    const finished = await Promise.race([work.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), this.options.waitMs).unref())]);
    if (!finished) return { state: 'pending' };
    const made = await this.readSource(blobId);
    if (made) return { state: 'ready', webp: made };
    const after = await this.repo.get(blobId);
    return after?.state === 'pending' ? { state: 'pending' } : { state: 'none', reason: after?.reason ?? 'no picture in this file' };
  }

  /** These owners' trees changed: look at their files on the next run. */
  changed(owners: Iterable<string>): void {
    this.work.changed(owners);
  }

  lookEverywhere(): void {
    this.work.lookEverywhere();
  }

  /** One run of the job: discovery, then one blob at a time until none is pending or the budget is spent (then true). */
  run(): Promise<boolean> {
    return this.work.run();
  }

  /** Removes the rows (and cached sources) of deleted content. */
  async sweep(): Promise<void> {
    for (const blobId of await this.repo.sweep(1000)) await this.options.cache.delete([sourceName(blobId)]);
  }

  stop(): void {
    this.work.stop();
  }

  /** Waits for looks in flight (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Runs `work` for a blob once at a time (joined by whoever asks meanwhile), and one look at a time overall. */
  private track(blobId: string, work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work, work).finally(() => this.inFlight.delete(blobId));
    this.queue = run.catch(() => undefined);
    this.inFlight.set(blobId, run);
    return run;
  }

  /** Looks at a claimed blob and records the outcome. */
  private async settle(blobId: string, attempts: number): Promise<void> {
    const now = () => this.clock.now();
    const file = await this.repo.fileOf(blobId);
    const kind = mediaKindOf(file?.mime_type ?? null);
    if (!file || !kind) return this.repo.settle(blobId, 'skipped', { reason: file ? 'not a media type' : 'no current file has this content' }, now());
    if (attempts > MAX_ATTEMPTS) return this.repo.settle(blobId, 'failed', { kind, reason: `gave up after ${MAX_ATTEMPTS} attempts` }, now());
    if (!this.enabled(kind)) {
      const s = this.statuses.find((x) => x.kind === kind)!;
      return this.repo.settle(blobId, 'off', { kind, reason: `${s.missing.join(', ')} not installed (Debian package ${s.package})` }, now());
    }
    let outcome: Generated | { error: string } | null;
    try {
      outcome = await this.generate(blobId, kind, file.mime_type!, Number(file.size));
    } catch (err) {
      outcome = { error: err instanceof Error ? err.message : String(err) };
    }
    // The blob could not be read (deleted meanwhile, storage down): the lease runs out and the next try decides.
    if (outcome === null) return;
    if ('error' in outcome) return this.repo.settle(blobId, 'failed', { kind, reason: outcome.error }, now());
    if (outcome.thumb) await this.writeSource(blobId, outcome.thumb);
    // A picture whose thumbnail cannot be made (no cover art, an unreadable frame) still has its metadata.
    const state: MediaState = kind !== 'image' && !outcome.thumb && Object.keys(outcome.media).length === 0 ? 'failed' : 'done';
    await this.repo.settle(blobId, state, { kind, reason: outcome.reason ?? null, hasThumb: outcome.thumb !== null, media: outcome.media }, now());
  }

  /** Makes the cached source again for a blob done before (nothing recorded). */
  private async remake(blobId: string): Promise<void> {
    const file = await this.repo.fileOf(blobId);
    const kind = mediaKindOf(file?.mime_type ?? null);
    if (!file || !kind || !this.enabled(kind)) return;
    const outcome = await this.generate(blobId, kind, file.mime_type!, Number(file.size)).catch(() => null);
    if (outcome && 'thumb' in outcome && outcome.thumb) await this.writeSource(blobId, outcome.thumb);
  }

  /** null when the blob cannot be read now. */
  private async generate(blobId: string, kind: MediaKind, mime: string, size: number): Promise<Generated | { error: string } | null> {
    const cap = this.options.maxSourceBytes[kind];
    if (size > cap) return { error: `larger than ${Math.round(cap / MiB)} MiB` };
    await mkdir(this.options.tmpDir, { recursive: true });
    const dir = await mkdtemp(path.join(this.options.tmpDir, 'look-'));
    try {
      const file = path.join(dir, 'source');
      try {
        await copyCapped(await this.blobs.read(blobId), file, cap);
      } catch (err) {
        if (err instanceof TooLarge) return { error: err.message };
        return null;
      }
      return await generate(kind, mime, file, {
        tmpDir: dir,
        run: (tool, args, caps) => {
          const exe = this.tools.get(tool);
          if (!exe) return Promise.resolve({ ok: false, stdout: Buffer.alloc(0), stderr: '', reason: `${tool} not installed` });
          return runTool(exe, args, { ...this.options.caps, ...caps });
        },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private readSource(blobId: string): Promise<Buffer | null> {
    return this.options.cache.get(sourceName(blobId));
  }

  private writeSource(blobId: string, webp: Buffer): Promise<void> {
    return this.options.cache.put(sourceName(blobId), webp);
  }
}

class TooLarge extends Error {}

async function copyCapped(source: Readable, target: string, cap: number): Promise<void> {
  let total = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        total += chunk.length;
        if (total > cap) throw new TooLarge(`larger than ${Math.round(cap / MiB)} MiB`);
        yield chunk;
      }
    },
    createWriteStream(target, { mode: 0o600 }),
  );
}
