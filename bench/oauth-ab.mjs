// A/B of two builds of Cirrus's token endpoint in the same run, windows
// interleaved, so that a shared machine's load hits both alike:
//   node bench/oauth-ab.mjs <other checkout, built> [sqlite|postgres] [rounds] [seconds]
// "A" is the other checkout (e.g. `git archive <commit> | tar -x -C dir`, a
// node_modules link, `npx tsc -p tsconfig.json`), "B" this one. Each round
// runs, for each build in alternating order, an exchange window, a Bearer
// refresh window and a DPoP refresh window (bench/oauth.mjs's). Prints
// req/s and server CPU per request (Node process + PostgreSQL backends)
// per window and their medians.
import path from 'node:path';
import { cirrusTarget, exchangeWindow, refreshWindow } from './oauth.mjs';
import { fmt, median } from './lib.mjs';

const other = path.resolve(process.argv[2] ?? '');
const database = process.argv[3] ?? 'sqlite';
const rounds = Number(process.argv[4] ?? 4);
const seconds = Number(process.argv[5] ?? 4);
if (!process.argv[2]) throw new Error('usage: node bench/oauth-ab.mjs <other checkout> [sqlite|postgres] [rounds] [seconds]');

const builds = [
  { name: 'A (other)', t: await cirrusTarget(database, {}, other) },
  { name: 'B (this)', t: await cirrusTarget(database) },
];
const ops = ['exchange', 'refresh', 'refreshDpop'];
const results = new Map(builds.map((b) => [b, Object.fromEntries(ops.map((op) => [op, []]))]));
try {
  let rate = 1000;
  for (const b of builds) {
    const warm = await exchangeWindow(b.t, await b.t.mint(400), 2);
    rate = Math.max(rate, warm.rps);
  }
  for (let round = 0; round < rounds; round++) {
    for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
      const r = results.get(b);
      const ex = await exchangeWindow(b.t, await b.t.mint(Math.ceil(rate * seconds * 1.5) + 100), seconds);
      rate = Math.max(rate, ex.rps);
      r.exchange.push(ex);
      r.refresh.push(await refreshWindow(b.t, ex.refreshTokens.slice(-20), seconds));
      r.refreshDpop.push(await refreshWindow(b.t, ex.refreshTokens.slice(0, 20), seconds, {}, true));
      console.error(`round ${round + 1} ${b.name}: ${ops.map((op) => `${op} ${fmt(r[op][round].rps)}/s ${fmt(r[op][round].cpu ?? 0, 3)} ms CPU`).join(', ')}`);
    }
  }
} finally {
  for (const b of builds) await b.t.stop();
}
console.log(`\n${database}, ${rounds} rounds of ${seconds} s, medians (per-round figures above):`);
for (const op of ops) {
  const [a, b] = builds.map((x) => results.get(x)[op]);
  const rps = (ws) => median(ws.map((w) => w.rps));
  const cpu = (ws) => median(ws.map((w) => w.cpu ?? NaN));
  console.log(`${op.padEnd(12)} A ${fmt(rps(a))}/s ${fmt(cpu(a), 3)} ms CPU/req | B ${fmt(rps(b))}/s ${fmt(cpu(b), 3)} ms CPU/req | B/A req/s ${fmt(rps(b) / rps(a), 2)}×, CPU/req ${fmt(cpu(b) / cpu(a), 2)}×`);
}
