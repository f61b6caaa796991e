// V8 heap tuning for a server that streams large bodies (WebDAV and API
// transfers). Every socket read and file read is a fresh buffer, and V8
// counts external memory allocated since the last full GC against the old
// generation's limit. With V8's own growing factor that limit settles just
// above the live heap once the first full GC has run, so a transfer's
// buffers cross it again and again and each large transfer pays for many
// full collections. Growing the limit by 100 % of the live heap leaves room
// for that drift, at the price of an old generation up to about twice its
// live size before a full GC. The measurements are in docs/benchmarks.md
// (WebDAV, 2026-11-25).
import v8 from 'node:v8';
import { Transform } from 'node:stream';
import { runInNewContext } from 'node:vm';

const FLAG = '--heap-growing-percent';
export const HEAP_GROWING_PERCENT = 100;

/** Applies the flag unless the process was started with its own value. */
export function tuneHeapForStreaming(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => a.startsWith(FLAG) || a.startsWith('--heap_growing_percent'))) return false;
  v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}

/**
 * Transfer bytes between two scavenges (see transferred()). Small enough
 * that the dead buffers of a transfer stay a few MB; large enough that the
 * scavenges (well under a millisecond each on a young generation that is
 * almost all garbage) cost nothing one can measure per gigabyte.
 */
export const TRANSFER_SCAVENGE_BYTES = 8 * 1024 * 1024;
let scavenge: (() => void) | undefined;
let sinceScavenge = 0;

/**
 * Every piece of a transfer is a fresh ArrayBuffer: Node's HTTP parser
 * copies each piece of a request body (up to 64 KiB), and a file read
 * stream allocates each read. V8 frees young ones only at a scavenge, and a
 * scavenge comes when JavaScript objects fill the young generation, which a
 * stream of big buffers and few objects does slowly; meanwhile tens of MB
 * of dead buffers wait (V8 starts a full collection only 64 MB of external
 * memory past the last one). That was the largest part of the peak memory
 * of a 1 GiB WebDAV upload (issue 19). With this on, transferred() asks V8
 * for a scavenge every TRANSFER_SCAVENGE_BYTES, so the dead buffers are
 * freed while they are few. V8 gives no other way to ask for a scavenge
 * than its gc extension, reached here through a new context.
 */
export function enableTransferScavenges(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  scavenge = () => gc({ type: 'minor' });
}

/** Counts bytes that went through a transfer as fresh buffers; see enableTransferScavenges(). */
export function transferred(bytes: number): void {
  if (!scavenge) return;
  sinceScavenge += bytes;
  if (sinceScavenge < TRANSFER_SCAVENGE_BYTES) return;
  sinceScavenge = 0;
  scavenge();
}

/** A pass-through that counts what goes through it as transferred(): for download streams. */
export function countTransferred(options: { highWaterMark?: number } = {}): Transform {
  return new Transform({
    ...options,
    transform(chunk: Buffer, _encoding, done) {
      transferred(chunk.length);
      done(null, chunk);
    },
  });
}
