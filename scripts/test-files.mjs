// What the test reporters share: the source file a compiled test came from
// (run-tests.mjs runs the compiled tests under dist/ when built).
import path from 'node:path';

export function sourceOf(file) {
  return file.startsWith(`dist${path.sep}`) ? file.slice(5).replace(/\.js$/, '.ts') : file;
}
