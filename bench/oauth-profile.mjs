// Profiles Cirrus's token endpoint under the load of bench/oauth.mjs:
//   node bench/oauth-profile.mjs [sqlite|postgres] [seconds] [exchange|refresh|refreshDpop] [other built checkout]
// (the last: profile that build instead of this one, e.g. to compare two commits).
// Starts the built server with a CPU profiler (node:inspector, preloaded
// through NODE_OPTIONS, which does not allow --cpu-prof on Node 20), warms it
// up, profiles one window of the chosen operation, and prints the functions
// with the most self time, then the same grouped by package / file.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cirrusTarget, exchangeWindow, refreshWindow } from './oauth.mjs';
import { fmt } from './lib.mjs';

const database = process.argv[2] ?? 'sqlite';
const seconds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-prof-'));

const preload = path.join(dir, 'profile-preload.mjs');
// SIGUSR2 starts the profiler; the next one stops it and writes the profile
// (node:inspector answers synchronously), so set-up work stays out of it.
writeFileSync(
  preload,
  `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
let running = 0;
process.on('SIGUSR2', () => {
  if (running === 0) {
    session.post('Profiler.start');
    running = 1;
    return;
  }
  session.post('Profiler.stop', (err, res) => {
    if (!err) writeFileSync(process.env.CIRRUS_PROFILE_FILE, JSON.stringify(res.profile));
    running = 0;
  });
});
`,
);
const operation = process.argv[4] ?? 'exchange';
const profileFile = path.join(dir, `${operation}.cpuprofile`);
const root = process.argv[5] ? path.resolve(process.argv[5]) : undefined;
const t = await cirrusTarget(database, { NODE_OPTIONS: `--import=${preload}`, CIRRUS_PROFILE_FILE: profileFile }, root);
const toggle = () => process.kill(t.pid, 'SIGUSR2');
let ex, ref;
try {
  // Warm up (and collect refresh tokens) unprofiled, then profile one window of the chosen operation.
  ex = await exchangeWindow(t, await t.mint(600), 2);
  const codes = operation === 'exchange' ? await t.mint(Math.ceil(ex.rps * seconds * 1.75) + 100) : [];
  toggle();
  if (operation === 'exchange') ex = await exchangeWindow(t, codes, seconds);
  else ref = await refreshWindow(t, ex.refreshTokens.slice(-20), seconds, {}, operation === 'refreshDpop');
  toggle();
  await new Promise((r) => setTimeout(r, 500));
} finally {
  await t.stop();
}
const m = ref ?? ex;
console.log(`${operation}: ${fmt(m.rps)}/s, ${m.cpu == null ? "" : `${fmt(m.cpu, 3)} ms server CPU/req, `}p50 ${fmt(m.p50, 1)} ms, p99 ${fmt(m.p99, 1)} ms (${m.failed} failed${m.elapsed !== undefined && m.elapsed < seconds - 0.05 ? `, codes ran out after ${fmt(m.elapsed, 1)} s` : ''})`);

if (!existsSync(profileFile)) throw new Error(`no profile written to ${profileFile}`);
const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stackOf = (id) => {
  const frames = [];
  for (let x = id; x !== undefined; x = parent.get(x)) frames.push(byId.get(x));
  return frames;
};
// The profiler's own work (stopping and serialising) is not the server's.
const isProfiler = (id) => stackOf(id).some((n) => n.callFrame.url.includes('profile-preload'));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  if (!isProfiler(id)) self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm/').replace(/.*\/dist\/server\/src\//, 'cirrus/');
  return `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`;
};
const group = (n) => {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName || '(native)';
  if (url.startsWith('node:')) return url;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  return url.replace(/.*\/dist\/server\/src\//, 'cirrus/');
};
const top = (key, n) => {
  const sums = new Map();
  for (const [id, us] of self) {
    const k = key(id);
    sums.set(k, (sums.get(k) ?? 0) + us);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${fmt((us / total) * 100, 1).padStart(5)} %  ${k}`);
};
console.log(`\nprofile: ${profileFile} (${fmt(total / 1e6, 1)} s sampled)\n\nself time by function:\n${top((id) => label(byId.get(id)), 30).join('\n')}`);
console.log(`\nself time by package / file:\n${top((id) => group(byId.get(id)), 20).join('\n')}`);
// Native leaves (SQLite's run/all, crypto jobs, socket writes) named by who called them:
// async stacks end at the microtask that resumed, so the caller is the nearest JS frame.
console.log(`\nself time by function and its three nearest callers:\n${top((id) => stackOf(id).slice(0, 4).map(label).join('  <  '), 25).join('\n')}`);
