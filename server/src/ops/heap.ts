// V8 heap tuning for a server that streams large bodies (WebDAV and API
// transfers). Measured with --trace-gc in the WebDAV benchmark (issue 9):
// every socket read and every file read is a fresh ArrayBuffer, and V8 counts
// the external memory allocated since the last full GC against the old
// generation's limit. After the first full GC of the process, that limit sat
// about 24 MB above a 42 MB live heap, and the 30-odd MB of buffers a
// transfer allocates between two scavenges crossed it again and again: one
// mark-compact per ~40 MB transferred (28 during one 1 GiB upload, 2.5 s of
// GC, user CPU 1.0 s -> 3.6 s; 15 during the download), in every round
// after the first, which is why only the first round kept up with Apache.
// Growing the limit by 100 % of the live heap instead of V8's dynamic factor
// (which settles near its 1.1 minimum for this allocation pattern) leaves
// room for that drift: 0-1 mark-compacts per 1 GiB round. The old generation
// may then hold up to about twice its live size before a full GC.
import v8 from 'node:v8';

const FLAG = '--heap-growing-percent';
export const HEAP_GROWING_PERCENT = 100;

/** Applies the flag unless the process was started with its own value. */
export function tuneHeapForStreaming(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => a.startsWith(FLAG) || a.startsWith('--heap_growing_percent'))) return false;
  v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
