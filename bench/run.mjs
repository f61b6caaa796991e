// npm run bench: runs every benchmark and prints Markdown tables for
// docs/benchmarks.md. Pass names to run some: npm run bench -- foundation
import { writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const all = {
  foundation: () => import('./foundation.mjs'),
  'foundation-ratio': () => import('./foundation-ratio.mjs'),
  oauth: () => import('./oauth.mjs'),
  files: () => import('./files.mjs'),
  web: () => import('./web.mjs'),
  scale: () => import('./scale.mjs'),
  cluster: () => import('./cluster.mjs'),
  webdav: () => import('./webdav.mjs'),
  memory: () => import('./memory.mjs'),
  'sqlite-rows': () => import('./sqlite-rows.mjs'),
  'tree-stall': () => import('./tree-stall.mjs'),
  'reset-timing': () => import('./reset-timing.mjs'),
  versions: () => import('./versions.mjs'),
  feed: () => import('./feed.mjs'),
  'feed-audience': () => import('./feed-audience.mjs'),
  'stream-budget': () => import('./stream-budget.mjs'),
  'upload-queue': () => import('./upload-queue.mjs'),
  'ldap-signin': () => import('./ldap-signin.mjs'),
  media: () => import('./media.mjs'),
  search: () => import('./search.mjs'),
  'audit-cost': () => import('./audit-cost.mjs'),
  'sync-clients': () => import('./sync-clients.mjs'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(all);
const header = `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}\n`;
let out = `## Results\n\n${header}`;
let failed = false;
for (const name of names) {
  if (!all[name]) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
  let mod;
  try {
    mod = await all[name]();
  } catch (err) {
    console.error(`benchmark ${name} is not available: ${err.message}`);
    failed = true;
    continue;
  }
  console.error(`running ${name} …`);
  const results = await mod.runAll?.() ?? [await mod.run()];
  for (const r of results) {
    out += `\n${r.md}\n`;
    console.log(r.md);
    if (!r.ok) failed = true;
  }
}
mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
const file = path.join(import.meta.dirname, 'results', `bench-${Date.now()}.md`);
writeFileSync(file, out);
console.error(`\nwritten to ${file}${failed ? '\nsome targets were missed' : ''}`);
process.exitCode = failed ? 1 : 0;
