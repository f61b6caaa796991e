// `npm run bench -- tree-stall`: how long a big tree operation holds up every
// other client on SQLite (issue 19 item 8). A tree of ~36,000 entries (the
// rows go in through the file service's own repository on a second
// connection, pointing at one real blob so references and quota are real) is
// copied, deleted for good, copied again, trashed and the trash emptied,
// while another user pings with a folder listing (a database read) back to
// back. The worst ping latency during each operation is the stall. Before
// the batching (one transaction per operation) the issue measured 1.0-1.4 s
// for the delete and 0.3-0.6 s for the copy.
// Settings: CIRRUS_BENCH_TREE_FOLDERS (30), CIRRUS_BENCH_TREE_SUBFOLDERS (30), CIRRUS_BENCH_TREE_FILES (39 per subfolder).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, ADMIN, api, envInt, fmt, signIn, startCirrus, table } from './lib.mjs';

const FOLDERS = envInt('CIRRUS_BENCH_TREE_FOLDERS', 30);
const SUBFOLDERS = envInt('CIRRUS_BENCH_TREE_SUBFOLDERS', 30);
const FILES = envInt('CIRRUS_BENCH_TREE_FILES', 39);
const BLOB_BYTES = 1024;

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist/server/src', p)).href);

/** Inserts /tree (folders × subfolders × files, all files sharing one blob) straight into the database; returns the entry count. */
async function seedTree(dbFile, ownerId, rootId, blobId) {
  const [{ createDb }, { FileStore, FILE, FOLDER, newFileRow }] = await Promise.all([dist('db/database.js'), dist('files/repository.js')]);
  const db = createDb({ kind: 'sqlite', file: dbFile });
  try {
    const now = Date.now();
    const rows = [];
    const top = newFileRow({ owner_id: ownerId, parent_id: rootId, name: 'tree', kind: FOLDER, created_at: now });
    rows.push(top);
    let files = 0;
    for (let a = 0; a < FOLDERS; a++) {
      const fa = newFileRow({ owner_id: ownerId, parent_id: top.id, name: `folder-${a}`, kind: FOLDER, created_at: now });
      rows.push(fa);
      for (let b = 0; b < SUBFOLDERS; b++) {
        const fb = newFileRow({ owner_id: ownerId, parent_id: fa.id, name: `sub-${b}`, kind: FOLDER, created_at: now });
        rows.push(fb);
        for (let c = 0; c < FILES; c++) {
          rows.push(newFileRow({ owner_id: ownerId, parent_id: fb.id, name: `file-${c}.bin`, kind: FILE, size: BLOB_BYTES, blob_id: blobId, mime_type: 'application/octet-stream', created_at: now }));
          files++;
        }
      }
    }
    await new FileStore(db).transaction(async (s) => {
      await s.tree.insert(rows);
      await s.blobs.addRefs(new Map([[blobId, files]]));
      await s.usage.adjust(ownerId, { used: files * BLOB_BYTES });
    });
    return rows.length;
  } finally {
    await db.destroy();
  }
}

/** Pings back to back until stopped; returns the latencies (ms) of pings that overlapped the window. */
function pinger(url, token) {
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v4/file?path=%2F`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      samples.push({ start: t0, ms: performance.now() - t0 });
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await loop;
    },
  };
}

export async function run() {
  const server = await startCirrus({ database: 'sqlite' });
  try {
    const admin = (await signIn(server.url)).access_token;
    // Alice owns the tree; Bob is the other client.
    const people = [];
    for (const who of ['alice', 'bob']) {
      const email = `${who}-${Date.now()}@example.com`;
      const made = await api(server.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email, password: ADMIN.password } });
      if (made.body.code !== 0) throw new Error(`user: ${JSON.stringify(made.body)}`);
      people.push({ id: made.body.data.id, token: (await signIn(server.url, email, ADMIN.password)).access_token });
    }
    const [alice, bob] = people;
    const call = (method, pathname, json) => api(server.url, method, pathname, { token: alice.token, json });
    const seed = await fetch(`${server.url}/api/v4/file/content?path=%2Fseed.bin`, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}` }, body: Buffer.alloc(BLOB_BYTES, 7) });
    if (!seed.ok) throw new Error(`seed upload: ${seed.status}`);
    const rootId = (await call('GET', '/api/v4/file/info?path=%2F')).body.data.id;
    const dbFile = path.join(server.dataDir, 'cirrus.db');
    const { createDb } = await dist('db/database.js');
    const peek = createDb({ kind: 'sqlite', file: dbFile });
    const blobId = (await peek.selectFrom('files').select('blob_id').where('owner_id', '=', alice.id).where('name', '=', 'seed.bin').executeTakeFirstOrThrow()).blob_id;
    await peek.destroy();
    console.error(`  seeding the tree …`);
    const entries = await seedTree(dbFile, alice.id, rootId, blobId);
    await call('POST', '/api/v4/file/create', { path: '/copies', type: 'folder' });

    const ping = pinger(server.url, bob.token);
    await new Promise((r) => setTimeout(r, 1000));
    const steps = [
      ['copy /tree (36k entries)', () => call('POST', '/api/v4/file/move', { paths: ['/tree'], dst: '/copies', copy: true })],
      ['delete the copy for good', () => call('DELETE', '/api/v4/file', { paths: ['/copies/tree'], permanent: true })],
      ['copy /tree again', () => call('POST', '/api/v4/file/move', { paths: ['/tree'], dst: '/copies', copy: true })],
      ['move the copy to the trash', () => call('DELETE', '/api/v4/file', { paths: ['/copies/tree'] })],
      ['empty the trash', () => call('DELETE', '/api/v4/file/trash')],
    ];
    const rows = [];
    const worsts = [];
    const idle = ping.samples.map((s) => s.ms).sort((a, b) => a - b);
    for (const [label, op] of steps) {
      const t0 = performance.now();
      const res = await op();
      const t1 = performance.now();
      if (res.body.code !== 0) throw new Error(`${label}: ${JSON.stringify(res.body).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 200));
      const during = ping.samples.filter((s) => s.start + s.ms >= t0 && s.start <= t1).map((s) => s.ms);
      worsts.push(Math.max(0, ...during));
      rows.push([label, fmt(t1 - t0), fmt(during.length), fmt(Math.max(0, ...during), 1)]);
    }
    await ping.stop();
    const capacity = (await call('GET', '/api/v4/user/capacity')).body.data;
    const expected = (entries - 1 - FOLDERS - FOLDERS * SUBFOLDERS + 1) * BLOB_BYTES;
    const ok = capacity.used === expected;
    const worst = Math.max(...worsts);
    const md =
      table(
        `SQLite: another client's folder listing while a ${fmt(entries)}-entry tree is copied and deleted (pings back to back; idle median ${fmt(idle[Math.floor(idle.length / 2)] ?? 0, 1)} ms)`,
        ['operation', 'took, ms', 'pings during it', 'worst ping, ms'],
        rows,
      ) + `\n\nWorst stall: **${fmt(worst, 1)} ms**. Quota after: ${capacity.used === expected ? 'exact' : `WRONG (${capacity.used}, expected ${expected})`}.`;
    return { md, ok };
  } finally {
    await server.stop();
  }
}
