// What recipients' change feeds (issue 22, files/events/audience.ts) cost the
// writer. One Cirrus on PostgreSQL. Three people: A has shared a folder with
// B; C has shared nothing. Each uploads N small files: C to its own files,
// A outside its shared folder, A inside it (fanned out to B). Reported: the
// median PUT time of each, and how many times the grants table
// (file_access) was read meanwhile (pg_stat_user_tables: sequential +
// index scans), which must be 0 for C: the "is this tree followed?" answer
// comes with the tree lock's own UPDATE (storage_usage.feed_audience).
// npm run bench -- feed-audience   (CIRRUS_BENCH_AUDIENCE_N, default 200)
import pg from 'pg';
import { api, envInt, fmt, median, signIn, startCirrus, table } from './lib.mjs';

const N = envInt('CIRRUS_BENCH_AUDIENCE_N', 200);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function run() {
  const server = await startCirrus({ database: 'postgres' });
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  try {
    const admin = (await signIn(server.url)).access_token;
    const people = {};
    for (const name of ['a', 'b', 'c']) {
      const email = `aud-${name}@example.com`;
      const made = await api(server.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email, password: 'bench-password-123', nickname: name } });
      if (made.status !== 200) throw new Error(`create user: ${JSON.stringify(made.body)}`);
      people[name] = { email, token: (await signIn(server.url, email, 'bench-password-123')).access_token };
    }
    for (const p of ['/shared/warm.txt', '/own/warm.txt']) await api(server.url, 'PUT', `/api/v4/file/content?path=${encodeURIComponent(p)}`, { token: people.a.token });
    await api(server.url, 'PUT', '/api/v4/file/content?path=%2Fown%2Fwarm.txt', { token: people.c.token });
    const g = await api(server.url, 'PUT', '/api/v4/file/access', { token: people.a.token, json: { path: '/shared', user: people.b.email, permission: 'write' } });
    if (g.status !== 200) throw new Error(`grant: ${JSON.stringify(g.body)}`);

    const scans = async () => {
      await sleep(1500);
      await db.query('select pg_stat_clear_snapshot()');
      const r = await db.query("select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where relname = 'file_access'");
      return Number(r.rows[0].n);
    };
    const rows = [];
    const scanCounts = [];
    for (const [label, who, folder] of [
      ['own files, nothing shared (C)', 'c', '/own'],
      ['own files outside the shared folder (A)', 'a', '/own'],
      ['inside the shared folder, 1 recipient (A)', 'a', '/shared'],
      ['own files, nothing shared (C), again', 'c', '/own'],
    ]) {
      const before = await scans();
      const times = [];
      for (let i = 0; i < N; i++) {
        const t0 = performance.now();
        const res = await api(server.url, 'PUT', `/api/v4/file/content?path=${encodeURIComponent(`${folder}/${label.length}-${i}.txt`)}`, { token: people[who].token });
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`put: ${res.status}`);
      }
      const after = await scans();
      rows.push([label, fmt(median(times), 2), fmt((after - before) / N, 2)]);
      scanCounts.push(after - before);
    }
    const feedB = await api(server.url, 'GET', '/api/v4/file/changes?cursor=0&limit=500', { token: people.b.token });
    const events = feedB.body.data.events.length;
    const md = table(`PUT of a small file, median of ${N} (PostgreSQL); B's feed holds ${events} events`, ['writes', 'median ms', 'file_access scans per PUT'], rows);
    // The target: a person with nothing shared causes no read of the grants (rows 1 and 4).
    return { md, ok: scanCounts[0] === 0 && scanCounts[3] === 0 };
  } finally {
    await db.end();
    await server.stop();
  }
}
