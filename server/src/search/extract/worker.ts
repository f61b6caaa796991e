// The extraction worker thread: one file at a time, told its kind and bytes,
// answers its text or why not. The pool (pool.ts) gives it a heap cap and
// ends it when a file takes too long, so nothing here needs to be trusted to
// finish.
import { parentPort } from 'node:worker_threads';
import { ExtractError, extractText } from './extractors.js';
import type { Kind } from './formats.js';

export interface Request {
  id: number;
  kind: Kind;
  data: Uint8Array;
  maxChars: number;
}

export type Reply = { id: number; ok: true; text: string | null } | { id: number; ok: false; reason: string };

parentPort?.on('message', (req: Request) => {
  extractText(req.kind, req.data, req.maxChars).then(
    (text) => parentPort?.postMessage({ id: req.id, ok: true, text } satisfies Reply),
    (err: unknown) => {
      const reason = err instanceof ExtractError ? err.message : `could not be read (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`;
      parentPort?.postMessage({ id: req.id, ok: false, reason } satisfies Reply);
    },
  );
});
