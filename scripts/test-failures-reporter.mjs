// A node:test reporter that prints, after the run, every failed test with its
// file, its suite path and the first lines of its error, between two marker
// lines. .ci/run copies that block to the very end of its log, because the
// record kept of a CI run is the log's tail and the spec reporter's failures
// are scrolled far above it by then.
import { writeSync } from 'node:fs';
import path from 'node:path';
import { sourceOf } from './test-files.mjs';

export const BEGIN = '=== failed tests';
export const END = '=== end of failed tests';
const ERROR_CHARS = 1200;

// eslint-disable-next-line require-yield -- it writes its one report synchronously (below)
export default async function* failedTests(source) {
  const stacks = new Map(); // file -> names of the tests open at each nesting level
  const failures = [];
  for await (const event of source) {
    // Same moment as test-times-reporter.mjs: --test-force-exit ends the process before the
    // last totals reach a reporter, so write at "todo", synchronously.
    if (event.type === 'test:diagnostic' && event.data.nesting === 0 && String(event.data.message).startsWith('todo ')) {
      writeSync(1, report(failures));
      continue;
    }
    const { file, nesting, name } = event.data ?? {};
    const key = file ? sourceOf(path.relative(process.cwd(), file)) : '(no file)';
    if (event.type === 'test:start') {
      const stack = stacks.get(key) ?? [];
      stack.length = nesting;
      stack.push(name);
      stacks.set(key, stack);
      continue;
    }
    if (event.type !== 'test:fail') continue;
    const error = event.data.details?.error;
    // A suite fails when a test in it does; that test is reported itself.
    if (error?.failureType === 'subtestsFailed') continue;
    const parents = (stacks.get(key) ?? []).slice(0, nesting);
    failures.push({ file: key, title: [...parents, name].join(' › '), error: describe(error) });
  }
}

function describe(error) {
  if (!error) return '(no error)';
  const inner = error.cause ?? error;
  const text = inner instanceof Error ? `${inner.name}: ${inner.message}` : String(inner);
  const where = inner instanceof Error && inner.stack ? inner.stack.split('\n').find((l) => l.includes('/test/')) : undefined;
  const cut = text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
  return where ? `${cut}\n      at ${where.trim().replace(/^at /, '')}` : cut;
}

function report(failures) {
  if (failures.length === 0) return `\n${BEGIN}: none\n${END}\n`;
  const lines = failures.map((f) => `✖ ${f.file}\n    ${f.title}\n      ${f.error.split('\n').join('\n      ')}`);
  return `\n${BEGIN}: ${failures.length}\n${lines.join('\n')}\n${END}\n`;
}
