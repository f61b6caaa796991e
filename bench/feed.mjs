// The change feed's idle cost (issue 21: 1,000 open streams in under 50 MB
// more memory on one instance) and its delivery with all of them open. One
// Cirrus (SQLite, `npm start`'s node flags); USERS people each open
// STREAMS / USERS event streams (one socket each); the server's resident
// memory (VmRSS) is read before and after, the streams idle 5 s; then each
// person uploads one file and the time until every stream of that person has
// the event is measured.
// npm run bench -- feed   (CIRRUS_BENCH_FEED_STREAMS, CIRRUS_BENCH_FEED_USERS)
import http from 'node:http';
import { api, envInt, fmt, median, procMemory, signIn, startCirrus, table } from './lib.mjs';

const STREAMS = envInt('CIRRUS_BENCH_FEED_STREAMS', 1000);
const USERS = envInt('CIRRUS_BENCH_FEED_USERS', 50);
const TARGET_MB = 50;

/** Opens one event stream and calls `onData` with each chunk; resolves once the first bytes arrived. */
function openStream(url, token, onData) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/v4/file/events`, { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`events: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.once('data', () => resolve(req));
      res.on('data', onData);
    });
    req.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function run() {
  const server = await startCirrus();
  const requests = [];
  try {
    const admin = (await signIn(server.url)).access_token;
    const people = [];
    for (let i = 0; i < USERS; i++) {
      const email = `feed-${i}@example.com`;
      const made = await api(server.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email, password: 'bench-password-123' } });
      if (made.status !== 200) throw new Error(`create user: ${JSON.stringify(made.body)}`);
      people.push({ token: (await signIn(server.url, email, 'bench-password-123')).access_token, seen: [] });
    }
    // Warm the routes once (first-request compilation is not the streams' cost).
    for (const p of people.slice(0, 5)) await api(server.url, 'PUT', '/api/v4/file/content?path=/warm.txt', { token: p.token });
    await sleep(2000);
    const before = procMemory(server.pid, 'VmRSS');
    const t0 = performance.now();
    for (let i = 0; i < STREAMS; i++) {
      const p = people[i % USERS];
      const k = p.seen.length;
      p.seen.push('');
      requests.push(await openStream(server.url, p.token, (chunk) => (p.seen[k] += chunk)));
    }
    const openSeconds = (performance.now() - t0) / 1000;
    await sleep(5000);
    const after = procMemory(server.pid, 'VmRSS');
    // Delivery with every stream open: each person changes their tree once.
    const lags = [];
    for (const p of people) {
      const started = performance.now();
      await api(server.url, 'PUT', '/api/v4/file/content?path=/bench.txt', { token: p.token });
      while (!p.seen.every((s) => s.includes('"/bench.txt"'))) {
        if (performance.now() - started > 5000) throw new Error('an event did not arrive within 5 s');
        await sleep(2);
      }
      lags.push(performance.now() - started);
    }
    const extra = (after - before) / 1e6;
    const ok = extra < TARGET_MB;
    const rows = [
      ['resident memory before the streams (VmRSS)', `${fmt(before / 1e6, 1)} MB`],
      [`after ${fmt(STREAMS)} streams (${USERS} people), idle 5 s`, `${fmt(after / 1e6, 1)} MB`],
      ['extra memory', `**${fmt(extra, 1)} MB** (${fmt((after - before) / STREAMS / 1024, 1)} KiB a stream; target < ${TARGET_MB} MB)`],
      ['opening them (one after another)', `${fmt(openSeconds, 2)} s`],
      ['an upload until all of its person\'s streams have the event: median / max', `${fmt(median(lags), 1)} / ${fmt(Math.max(...lags), 1)} ms`],
    ];
    return { ok, md: table(`Change feed: ${fmt(STREAMS)} open event streams on one instance (SQLite)`, ['measure', 'value'], rows) };
  } finally {
    for (const r of requests) r.destroy();
    await server.stop();
  }
}
