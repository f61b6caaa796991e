// Runs every test file under server/test (and web/test) with node's test
// runner, TypeScript loaded by tsx. Extra arguments filter files by substring.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['server/test', 'web/test'];
const filters = process.argv.slice(2);

function walk(dir) {
  let out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(walk(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const files = roots.flatMap(walk).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const concurrency = process.env.CIRRUS_TEST_CONCURRENCY ?? '2';
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(res.status ?? 1);
