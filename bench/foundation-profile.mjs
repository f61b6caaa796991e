// CPU profile of the server under the foundation benchmark's load:
// node bench/foundation-profile.mjs [me|ping] [seconds]
// Writes a .cpuprofile (node --cpu-prof) of the server process and prints the
// functions with the most self time. Used to find where an authenticated
// request spends its time compared with /site/ping (docs/benchmarks.md).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, signIn, startCirrus } from './lib.mjs';

const route = process.argv[2] ?? 'me';
const seconds = Number(process.argv[3] ?? 6);
const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-prof-'));
const server = await startCirrus({ nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
let result;
try {
  const token = await signIn(server.url);
  const target = route === 'ping'
    ? { url: `${server.url}/api/v4/site/ping` }
    : { url: `${server.url}/api/v4/user/me`, headers: { authorization: `Bearer ${token.access_token}` } };
  await load({ ...target, duration: 1 });
  result = await load({ ...target, duration: seconds });
} finally {
  await server.stop();
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const self = new Map();
const dt = profile.timeDeltas;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const total = dt.reduce((a, b) => a + b, 0);
profile.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url || '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
});
console.log(`${route}: ${Math.round(result.rps)} req/s; profile ${path.join(dir, file)}`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);

// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url || '')}:${f.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + (dt[i] ?? 0));
  }
});
console.log('\ninclusive:');
for (const [k, v] of [...incl].filter(([k]) => !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
