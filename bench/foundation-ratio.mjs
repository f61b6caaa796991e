// The hot-path target of issue 13: an authenticated GET /api/v4/user/me
// reaches at least 0.9x the requests per second of GET /api/v4/site/ping, as
// the median of 5 runs. Each run starts a fresh server (SQLite), warms both
// routes, then alternates them in short windows (ROUNDS each) so drift on a
// busy machine hits both alike; autocannon with 50 connections runs in this
// process. Besides requests per second it records the server's CPU time per
// request (from /proc), which other work on a shared machine disturbs less:
// ping's CPU/request over me's is the throughput ratio a saturated server
// would show.
// npm run bench -- foundation-ratio   (CIRRUS_BENCH_RATIO_RUNS, CIRRUS_BENCH_RATIO_SECONDS)
import { readFileSync } from 'node:fs';
import { fmt, load, signIn, startCirrus, table } from './lib.mjs';

/** CPU seconds (user + system) the server process has used (Linux /proc). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const TARGET = 0.9;
const ROUNDS = 6;

async function oneRun(duration) {
  const server = await startCirrus({ database: 'sqlite' });
  try {
    const token = await signIn(server.url);
    const ping = { url: `${server.url}/api/v4/site/ping` };
    const me = { url: `${server.url}/api/v4/user/me`, headers: { authorization: `Bearer ${token.access_token}` } };
    await load({ ...ping, duration: 1 });
    await load({ ...me, duration: 1 });
    const sum = { ping: { n: 0, cpu: 0 }, me: { n: 0, cpu: 0 } };
    let failed = 0;
    const window = async (key, target) => {
      const c0 = cpuSeconds(server.pid);
      const r = await load({ ...target, duration });
      sum[key].cpu += cpuSeconds(server.pid) - c0;
      sum[key].n += r.total;
      failed += r.failed;
    };
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        await window('ping', ping);
        await window('me', me);
      } else {
        await window('me', me);
        await window('ping', ping);
      }
    }
    const seconds = ROUNDS * duration;
    const pingRps = sum.ping.n / seconds;
    const meRps = sum.me.n / seconds;
    const pingCpu = (sum.ping.cpu / sum.ping.n) * 1e6;
    const meCpu = (sum.me.cpu / sum.me.n) * 1e6;
    return { pingRps, meRps, ratio: meRps / pingRps, pingCpu, meCpu, cpuRatio: pingCpu / meCpu, failed };
  } finally {
    await server.stop();
  }
}

export async function run({ runs = Number(process.env.CIRRUS_BENCH_RATIO_RUNS ?? 5), duration = Number(process.env.CIRRUS_BENCH_RATIO_SECONDS ?? 1.5) } = {}) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await oneRun(duration);
    console.error(`  run ${i + 1}: ping ${fmt(r.pingRps)} req/s, me ${fmt(r.meRps)} req/s, ratio ${r.ratio.toFixed(3)}, CPU/req ${fmt(r.pingCpu, 1)} / ${fmt(r.meCpu, 1)} µs (${r.cpuRatio.toFixed(3)})`);
    results.push(r);
  }
  const sorted = [...results].sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor(sorted.length / 2)].ratio;
  const cpuSorted = results.map((r) => r.cpuRatio).sort((a, b) => a - b);
  const cpuMedian = cpuSorted[Math.floor(cpuSorted.length / 2)];
  const failed = results.reduce((s, r) => s + r.failed, 0);
  const rows = results.map((r, i) => [i + 1, fmt(r.pingRps), fmt(r.meRps), r.ratio.toFixed(3), fmt(r.pingCpu, 1), fmt(r.meCpu, 1), r.cpuRatio.toFixed(3)]);
  const md =
    table(`GET /user/me (Bearer) vs GET /site/ping, SQLite, ${runs} runs (fresh server each; autocannon 50 connections; ${ROUNDS} alternated windows of ${duration} s per route)`, ['run', 'ping req/s', 'me req/s', 'me / ping (req/s)', 'ping CPU µs/req', 'me CPU µs/req', 'ping / me (CPU per request)'], rows) +
    `\n\nMedian me/ping: **${median.toFixed(3)}** in requests per second (target ≥ ${TARGET}); ${cpuMedian.toFixed(3)} in CPU per request; failed requests: ${failed}.\n`;
  return { md, ok: median >= TARGET && failed === 0 };
}
