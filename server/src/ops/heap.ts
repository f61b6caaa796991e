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

const FLAG = '--heap-growing-percent';
export const HEAP_GROWING_PERCENT = 100;

/** Applies the flag unless the process was started with its own value. */
export function tuneHeapForStreaming(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => a.startsWith(FLAG) || a.startsWith('--heap_growing_percent'))) return false;
  v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
