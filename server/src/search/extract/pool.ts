// Runs extractions off the main thread, one at a time, in a worker thread
// with a heap cap, and ends the worker when a file takes longer than the time
// cap or runs out of memory (a PDF that loops, an inflating bomb): that file
// fails with the reason, the next gets a fresh worker. Requests never wait on
// extraction: the event loop only posts bytes and receives text.
import { Worker } from 'node:worker_threads';
import type { Kind } from './formats.js';
import type { Reply, Request } from './worker.js';

export interface ExtractCaps {
  /** Per file. */
  timeMs: number;
  /** The worker's JS heap (V8 old generation). */
  heapMb: number;
  /** Characters of text kept per file. */
  maxChars: number;
}

export const DEFAULT_CAPS: ExtractCaps = { timeMs: 30_000, heapMb: 256, maxChars: 1_000_000 };

/** `cancelled`: the pool closed mid-extraction (server shutdown); says nothing about the file. */
export type Outcome = { ok: true; text: string | null } | { ok: false; reason: string; cancelled?: true };

/**
 * worker.js beside this file in the build; from the sources (tests, run
 * through tsx) worker.ts, loaded after tsx's hooks are registered in the
 * worker (they are not inherited by worker threads). pdf.js is loaded first,
 * untransformed: through tsx its 3 MB of modules take ten seconds.
 */
function workerSource(): { code: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { code: new URL('./worker.js', import.meta.url), eval: false };
  const [api, pdf, pdfWorker] = ['tsx/esm/api', 'pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs'].map((m) => JSON.stringify(import.meta.resolve(m)));
  const entry = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return { code: `(async () => { await import(${pdf}); await import(${pdfWorker}); (await import(${api})).register(); await import(${entry}); })();`, eval: true };
}

export class ExtractionPool {
  private worker: Worker | null = null;
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Ends the extraction in progress at once (close()). */
  private cancelCurrent: (() => void) | null = null;

  constructor(readonly caps: ExtractCaps = DEFAULT_CAPS) {}

  /** Extractions run one after another (the machine's other core serves requests). */
  extract(kind: Kind, data: Uint8Array): Promise<Outcome> {
    const run = this.queue.then(() => this.runOne(kind, data));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private spawn(): Worker {
    const source = workerSource();
    const w = new Worker(source.code, { eval: source.eval, resourceLimits: { maxOldGenerationSizeMb: this.caps.heapMb, maxYoungGenerationSizeMb: 32 }, stdout: true, stderr: true });
    w.unref();
    // A worker's own console output (pdf.js warnings) is not the server's log.
    w.stdout.resume();
    w.stderr.resume();
    return w;
  }

  private runOne(kind: Kind, data: Uint8Array): Promise<Outcome> {
    // An indexer run that was between two statements when the server closed must not start a
    // new worker (it would keep the process alive); it fails, and its lease lets a later run retry.
    if (this.closed) return Promise.resolve({ ok: false, reason: 'the extraction pool is closed', cancelled: true });
    const worker = (this.worker ??= this.spawn());
    const id = ++this.seq;
    // The bytes move to the worker (no copy) when they own their buffer.
    const owned = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
    return new Promise<Outcome>((resolve) => {
      const done = (outcome: Outcome, kill: boolean) => {
        this.cancelCurrent = null;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        }
        resolve(outcome);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        done(reply.ok ? { ok: true, text: reply.text } : { ok: false, reason: reply.reason }, false);
      };
      const onError = (err: Error & { code?: string }) => {
        const reason = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `needed more than ${this.caps.heapMb} MB of memory` : `extractor crashed (${err.message.slice(0, 120)})`;
        done({ ok: false, reason }, true);
      };
      const onExit = () => done({ ok: false, reason: 'extractor stopped' }, true);
      const timer = setTimeout(() => done({ ok: false, reason: `took longer than ${Math.round(this.caps.timeMs / 1000)} s` }, true), this.caps.timeMs);
      this.cancelCurrent = () => done({ ok: false, reason: 'the server is closing', cancelled: true }, true);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      const req: Request = { id, kind, data: owned, maxChars: this.caps.maxChars };
      worker.postMessage(req, [owned.buffer as ArrayBuffer]);
    });
  }

  /**
   * Ends the worker at once, also in the middle of a file (a 30 s extraction
   * must not hold up a shutdown): that file's outcome is `cancelled`, and the
   * indexer gives its lease back so it is extracted again later.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelCurrent?.();
    await this.queue;
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }
}
