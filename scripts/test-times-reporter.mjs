// A node:test reporter that prints, after the run, the test files that took
// longest (the sum of each file's top-level tests and suites, hooks included).
// run-tests.mjs adds it beside the spec reporter, so every CI log says where
// the suite's time goes (docs/testing.md: keep CI under 60 minutes).
import { writeSync } from 'node:fs';
import path from 'node:path';
import { sourceOf } from './test-files.mjs';

// CIRRUS_TEST_TIMES_SHOWN=1000 lists every file (to compare two runs file by file).
const SHOWN = Number(process.env.CIRRUS_TEST_TIMES_SHOWN) || 25;

// eslint-disable-next-line require-yield -- it writes its one report synchronously (below)
export default async function* fileTimes(source) {
  const perFile = new Map();
  for await (const event of source) {
    // The run's totals end with "todo N" then "duration_ms N", but --test-force-exit ends the
    // process before the last one reaches a reporter: so write at "todo", synchronously.
    if (event.type === 'test:diagnostic' && event.data.nesting === 0 && String(event.data.message).startsWith('todo ')) {
      writeSync(1, summary(perFile));
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    const key = sourceOf(path.relative(process.cwd(), file));
    perFile.set(key, (perFile.get(key) ?? 0) + (details?.duration_ms ?? 0));
  }
}

function summary(perFile) {
  const rows = [...perFile.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  const lines = rows.slice(0, SHOWN).map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
  return `\nslowest test files (of ${rows.length}; ${(total / 1000).toFixed(0)} s summed over files):\n${lines.join('\n')}\n`;
}
