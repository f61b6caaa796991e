// The background job that keeps the index up to date: it finds blobs of
// files that have no text yet (after an upload, an overwrite, a version
// restore: each makes a file point at a blob without a doc), takes one at a
// time under a lease (several instances share the work), reads it within the
// size cap and has the extraction pool turn it into text. A file that cannot
// be read is marked failed with the reason and is not tried again (until an
// admin reindexes); one whose extraction killed the process is given up after
// MAX_ATTEMPTS leases.
import type { Readable } from 'node:stream';
import type { Clock } from '../core/clock.js';
import { DiscoveredWork, type WorkOptions } from '../core/discovered-work.js';
import type { Claimed, IndexRepository } from './index-repository.js';
import type { ExtractionPool } from './extract/pool.js';
import { kindOf } from './extract/formats.js';

export interface IndexerOptions extends WorkOptions {
  /** Bigger files are marked failed unread. */
  maxInputBytes: number;
  /** A claimed doc is free for another instance after this long (longer than the extraction time cap). */
  leaseMs: number;
  /** One run stops taking new docs after this long, so the runner's other jobs and a shutdown are not held up. */
  runBudgetMs: number;
}

export const DEFAULT_INDEXER: IndexerOptions = { maxInputBytes: 100 * 1024 * 1024, leaseMs: 120_000, runBudgetMs: 20_000 };

export const MAX_ATTEMPTS = 3;

export interface BlobReader {
  read(blobId: string): Promise<Readable>;
}

async function readCapped(stream: Readable, cap: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > cap) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  // One buffer of its own, so it can move to the worker without a copy.
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export class Indexer {
  private readonly work: DiscoveredWork<Claimed>;

  constructor(
    private readonly repo: IndexRepository,
    private readonly blobs: BlobReader,
    private readonly pool: ExtractionPool,
    private readonly clock: Clock,
    private readonly options: IndexerOptions = DEFAULT_INDEXER,
  ) {
    this.work = new DiscoveredWork(repo, (c) => this.process(c.doc_id, c.blob_id, c.attempts), clock, options);
  }

  /** These owners' trees changed (the change feed's signal): look at their files on the next run. */
  changed(owners: Iterable<string>): void {
    this.work.changed(owners);
  }

  /** Look at every file on the next run (the periodic pass: other instances' uploads, a missed signal). */
  lookEverywhere(): void {
    this.work.lookEverywhere();
  }

  /** One run of the job: discovery, then extraction until nothing is pending or the budget is spent (then true: more to do). */
  run(): Promise<boolean> {
    return this.work.run();
  }

  private async process(docId: number, blobId: string, attempts: number): Promise<void> {
    const now = () => this.clock.now();
    const file = await this.repo.fileOf(blobId);
    if (!file) {
      // Only versions hold this content now: nothing to search (a restore makes it current again, and pending).
      await this.repo.settle(docId, 'skipped', 'no current file has this content', 0, now());
      return;
    }
    const size = Number(file.size);
    if (attempts > MAX_ATTEMPTS) {
      await this.repo.settle(docId, 'failed', `gave up after ${MAX_ATTEMPTS} attempts (the extraction never finished)`, size, now());
      return;
    }
    const kind = kindOf(file.name, file.mime_type);
    if (kind === 'none') {
      await this.repo.settle(docId, 'skipped', 'no text in this type of file', size, now());
      return;
    }
    if (size > this.options.maxInputBytes) {
      await this.repo.settle(docId, 'failed', `larger than ${Math.round(this.options.maxInputBytes / 1048576)} MB`, size, now());
      return;
    }
    let data: Uint8Array | null;
    try {
      data = await readCapped(await this.blobs.read(blobId), this.options.maxInputBytes);
    } catch {
      // The blob is gone (deleted meanwhile) or storage failed: the lease runs out and the next try decides.
      return;
    }
    if (!data) {
      await this.repo.settle(docId, 'failed', `larger than ${Math.round(this.options.maxInputBytes / 1048576)} MB`, size, now());
      return;
    }
    const outcome = await this.pool.extract(kind, data);
    // Shutdown mid-extraction: not the file's fault; pending again, this attempt not counted.
    if (!outcome.ok && outcome.cancelled) await this.repo.release(docId);
    else if (!outcome.ok) await this.repo.settle(docId, 'failed', outcome.reason, size, now());
    else if (outcome.text === null) await this.repo.settle(docId, 'skipped', 'not text', size, now());
    else await this.repo.store(docId, outcome.text, size, now());
  }

  stop(): void {
    this.work.stop();
  }
}
