import { readFileSync } from 'node:fs';
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const counts = new Map();
for (const s of prof.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
const total = prof.samples.length;
const agg = new Map();
for (const [id, c] of counts) {
  const n = byId.get(id);
  if (n.callFrame.functionName !== target) continue;
  const stack = [];
  let p = parent.get(id);
  while (p !== undefined && stack.length < 14) { const f = byId.get(p).callFrame; stack.push(`${f.functionName}@${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`); p = parent.get(p); }
  const key = stack.join(' < ');
  agg.set(key, (agg.get(key) ?? 0) + c);
}
for (const [k, c] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((100 * c / total).toFixed(1) + '%', k, '\n');
