// Runs every test file under server/test (and web/test) with node's test
// runner, TypeScript loaded by tsx. Extra arguments filter files by substring.
//
// --build (npm test): builds first (npm run build), unless CIRRUS_TEST_BUILT=1
// says the caller has just built this tree (.ci/run's second suite). A built
// run executes the compiled tests (dist/server/test, which tsc emits
// beside the server) with plain node: loading each file through tsx cost
// about 2.5 s of CPU more per file, some 17 minutes of CPU over CI's two
// suites (docs/testing.md). Without --build, files run from source via tsx.
// On PostgreSQL (CIRRUS_TEST_DATABASE_URL set), the browser tests run only
// where the database makes a difference (server/test/browser/databases.mjs,
// docs/testing.md); CIRRUS_TEST_ALL_BROWSER=1 runs them all.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BOTH_DATABASES } from '../server/test/browser/databases.mjs';

const roots = ['server/test', 'web/test'];
const args = process.argv.slice(2);
const build = args.includes('--build');
const filters = args.filter((a) => a !== '--build');

if (build && process.env.CIRRUS_TEST_BUILT !== '1') {
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: process.env });
  if (b.status !== 0) process.exit(b.status ?? 1);
}


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

let files = roots.flatMap(walk).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
const browserDir = path.join('server', 'test', 'browser') + path.sep;
if (process.env.CIRRUS_TEST_DATABASE_URL && process.env.CIRRUS_TEST_ALL_BROWSER !== '1') {
  const skipped = files.filter((f) => f.startsWith(browserDir) && !(path.basename(f) in BOTH_DATABASES));
  files = files.filter((f) => !skipped.includes(f));
  if (skipped.length > 0) {
    console.log(`${skipped.length} browser test files run on SQLite only (server/test/browser/databases.mjs lists the ones repeated here; docs/testing.md): ${skipped.map((f) => path.basename(f)).join(', ')}`);
  }
}
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Built: the compiled twin of each source file (a file deleted from the source is not run from a stale dist/).
const built = build || process.env.CIRRUS_TEST_BUILT === '1';
if (built) {
  files = files.map((f) => path.join('dist', f.replace(/\.ts$/, '.js')));
  const missing = files.filter((f) => {
    try {
      return !statSync(f).isFile();
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    console.error(`not built: ${missing.join(', ')} (run npm run build, or leave out --build to run the sources through tsx)`);
    process.exit(1);
  }
}
const concurrency = process.env.CIRRUS_TEST_CONCURRENCY ?? '2';
// --test-force-exit: a file whose process stays alive after its last test (a timer or worker left
// behind) ends instead of hanging the whole run; such a leak is still a defect to fix (docs/testing.md).
const res = spawnSync(process.execPath, [...(built ? [] : ['--import', 'tsx']), '--test', '--test-force-exit', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=./scripts/test-times-reporter.mjs', '--test-reporter-destination=stdout', '--test-reporter=./scripts/test-failures-reporter.mjs', '--test-reporter-destination=stdout', ...files], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(res.status ?? 1);
