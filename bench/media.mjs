// `npm run bench -- media` (issue 36):
// - thumbnail sources per second for each kind, made by the server's own
//   generators (dist/server/src/media) with their caps, one at a time as the
//   job makes them; baseline in the same run: the raster path as before (sharp
//   from a JPEG of the same picture);
// - p95 of the first page of GET /file/photos (200 items) for a person with
//   PHOTOS pictures (seeded rows: blobs, files, media_items with dates and 10 %
//   geotagged), target < 300 ms; baseline in the same run: the first page of
//   GET /file for a folder of the same number of files.
// - hostile: the slowest and p95 GET /site/ping of another client (one every
//   50 ms) while the server looks at hostile files (a PNG claiming
//   100,000 × 100,000 pixels, a truncated MP4, a PDF claiming a million pages,
//   a compression bomb named .heic), target < 100 ms (issue 36; this timing
//   was a bound in test/media/media.test.ts, where a loaded CI machine made it
//   flaky).
// Settings: CIRRUS_BENCH_MEDIA_FILES (8 per kind), CIRRUS_BENCH_MEDIA_PHOTOS
// (20000), CIRRUS_BENCH_MEDIA_REQUESTS (100), CIRRUS_BENCH_MEDIA_PARTS
// (generators,photos,hostile: any alone to time one); CIRRUS_BENCH_DATABASES=sqlite,postgres.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { ROOT, api, envInt, fmt, signIn, startCirrus, table } from './lib.mjs';
import { seedFolder } from './files-seed.mjs';

const FILES = envInt('CIRRUS_BENCH_MEDIA_FILES', 8);
const PHOTOS = envInt('CIRRUS_BENCH_MEDIA_PHOTOS', 20_000);
const REQUESTS = envInt('CIRRUS_BENCH_MEDIA_REQUESTS', 100);
const PARTS = (process.env.CIRRUS_BENCH_MEDIA_PARTS ?? 'generators,photos,hostile').split(',').filter(Boolean);
const DATABASES = (process.env.CIRRUS_BENCH_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
const TARGET_P95_MS = 300;
const TARGET_PING_MS = 100;

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist/server/src', p)).href);
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** FILES distinct fixtures of each kind, made with ffmpeg and heif-enc (different frames of a test card). */
function fixtures(dir) {
  const out = { jpeg: [], heif: [], video: [], audio: [], pdf: [] };
  for (let i = 0; i < FILES; i++) {
    const card = path.join(dir, `card-${i}.png`);
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=1920x1080:rate=1:duration=${i + 1}`, '-vf', `select=eq(n\\,${i})`, '-frames:v', '1', card]);
    run('ffmpeg', ['-v', 'error', '-y', '-i', card, '-q:v', '3', path.join(dir, `p-${i}.jpg`)]);
    out.jpeg.push([path.join(dir, `p-${i}.jpg`), 'image/jpeg']);
    run('heif-enc', ['-q', '60', card, '-o', path.join(dir, `p-${i}.heic`)]);
    out.heif.push([path.join(dir, `p-${i}.heic`), 'image/heic']);
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=20:size=1280x720:rate=25,hue=h=${i * 40}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', path.join(dir, `v-${i}.mp4`)]);
    out.video.push([path.join(dir, `v-${i}.mp4`), 'video/mp4']);
    run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${300 + i * 50}:duration=180`, '-i', card, '-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-b:a', '128k', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic', '-id3v2_version', '3', '-metadata', `title=Tone ${i}`, path.join(dir, `s-${i}.mp3`)]);
    out.audio.push([path.join(dir, `s-${i}.mp3`), 'audio/mpeg']);
  }
  return out;
}

/** An A4 page of coloured rectangles (different for each `seed`), written by hand. */
function makePdf(seed) {
  let content = '';
  for (let r = 0; r < 40; r++) content += `${((r * 37 + seed * 11) % 100) / 100} ${((r * 53) % 100) / 100} ${((r * 71 + seed) % 100) / 100} rg ${(r * 13) % 500} ${(r * 29) % 780} ${60 + (r % 5) * 20} ${40 + (r % 7) * 10} re f\n`;
  const objects = ['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[3 0 R]/Count 1>>', '<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R>>', `<</Length ${content.length}>>stream\n${content}endstream`];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function generatorRates(dir) {
  const [{ generate, mediaKindOf, toSource }, { findTool, runTool }] = await Promise.all([dist('media/generators.js'), dist('media/tools.js')]);
  const { DEFAULT_MEDIA } = await dist('media/service.js');
  const files = fixtures(dir);
  const pdfs = [];
  for (let i = 0; i < FILES; i++) {
    const file = path.join(dir, `d-${i}.pdf`);
    writeFileSync(file, makePdf(i));
    pdfs.push([file, 'application/pdf']);
  }
  files.pdf = pdfs;
  const env = (tmp) => ({ tmpDir: tmp, run: (tool, args) => runTool(findTool(tool), args, DEFAULT_MEDIA.caps) });
  const rows = [];
  // Baseline: the raster path (sharp from the JPEG's bytes, as GET /file/thumb always did).
  {
    const t = performance.now();
    for (const [file] of files.jpeg) await toSource(readFileSync(file));
    const s = (performance.now() - t) / 1000;
    rows.push(['JPEG 1920×1080, sharp (baseline: the raster path)', String(files.jpeg.length), fmt(files.jpeg.length / s, 1), fmt((s * 1000) / files.jpeg.length, 0)]);
  }
  const labels = { heif: 'HEIC 1920×1080, heif-convert + sharp', video: 'MP4 720p 20 s, ffprobe + ffmpeg frame at 10 %', audio: 'MP3 3 min with a cover, music-metadata + sharp', pdf: 'PDF one page, pdftoppm + sharp', jpeg: 'JPEG metadata (sharp header + exifr)' };
  for (const kind of ['heif', 'video', 'audio', 'pdf', 'jpeg']) {
    const t = performance.now();
    let made = 0;
    for (const [file, mime] of files[kind]) {
      const tmp = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-look-'));
      try {
        const g = await generate(mediaKindOf(mime), mime, file, env(tmp));
        if (g.thumb || kind === 'jpeg') made++;
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    const s = (performance.now() - t) / 1000;
    if (made !== files[kind].length) throw new Error(`${kind}: ${made} of ${files[kind].length} made`);
    rows.push([labels[kind], String(made), fmt(made / s, 1), fmt((s * 1000) / made, 0)]);
  }
  return table(`Media: thumbnail sources per second, one at a time (the job's pace), ${FILES} files per kind`, ['kind', 'files', 'per second', 'ms each'], rows);
}

/** PHOTOS pictures for `ownerId` in `folderId`: blobs, files and media rows as the job leaves them. */
export async function seedPhotos(database, ownerId, folderId) {
  const [{ createDb }, { newFileRow, FILE }] = await Promise.all([dist('db/database.js'), dist('files/repository.js')]);
  const db = createDb(database);
  try {
    const now = Date.now();
    const start = Date.parse('2015-01-01T00:00:00Z');
    for (let from = 0; from < PHOTOS; from += 1000) {
      const blobs = [];
      const files = [];
      const media = [];
      for (let i = from; i < Math.min(PHOTOS, from + 1000); i++) {
        const blob = `benchmedia${String(i).padStart(8, '0')}`;
        blobs.push({ id: blob, size: 1, crc32: 0, ref_count: 1, created_at: now });
        files.push(newFileRow({ owner_id: ownerId, parent_id: folderId, name: `IMG_${String(i).padStart(6, '0')}.jpg`, kind: FILE, mime_type: 'image/jpeg', created_at: now, size: 1, blob_id: blob }));
        // Every tenth without a date (sorts by when it was added), every tenth geotagged.
        const takenAt = i % 10 === 3 ? null : start + Math.floor(((i * 7919) % PHOTOS) * (3e11 / PHOTOS));
        const gps = i % 10 === 5 ? { lat: 48 + (i % 100) / 1000, lon: 2 + (i % 77) / 1000 } : null;
        const meta = { width: 4032, height: 3024, camera_make: 'Bench', camera_model: 'Cam', ...(takenAt ? { taken_at: new Date(takenAt).toISOString() } : {}), ...(gps ? { gps } : {}) };
        media.push({ blob_id: blob, state: 'done', kind: 'image', has_thumb: 0, taken_at: takenAt, sort_at: takenAt ?? now, lat: gps?.lat ?? null, lon: gps?.lon ?? null, meta: JSON.stringify(meta), updated_at: now });
      }
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('blobs').values(blobs).execute();
        await tx.insertInto('files').values(files).execute();
        await tx.insertInto('media_items').values(media).execute();
      });
    }
    if (database.kind === 'postgres') await sql`analyze`.execute(db);
  } finally {
    await db.destroy();
  }
}

async function p95(url, token, n) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length * 0.5)], p95: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)] };
}

async function photosPage(database) {
  const server = await startCirrus({ database });
  try {
    const token = (await signIn(server.url)).access_token;
    const me = (await api(server.url, 'GET', '/api/v4/user/me', { token })).body.data;
    const mk = async (p) => (await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: p, type: 'folder' } })).body.data;
    const photos = await mk('/Camera');
    const list = await mk('/list');
    const dbConfig = server.databaseUrl ? { kind: 'postgres', url: server.databaseUrl } : { kind: 'sqlite', file: path.join(server.dataDir, 'cirrus.db') };
    console.error(`  ${database}: seeding ${fmt(PHOTOS)} photos and ${fmt(PHOTOS)} plain files`);
    await seedPhotos(dbConfig, me.id, photos.id);
    await seedFolder({ database: dbConfig, ownerId: me.id, folderId: list.id, count: PHOTOS });
    const first = (await api(server.url, 'GET', '/api/v4/file/photos?page_size=200', { token })).body.data;
    if (first.items.length !== 200) throw new Error(`the first photos page holds ${first.items.length}`);
    const photosUrl = `${server.url}/api/v4/file/photos?page_size=200`;
    const listUrl = `${server.url}/api/v4/file?path=${encodeURIComponent('/list')}&page_size=200`;
    await p95(photosUrl, token, 10);
    await p95(listUrl, token, 10);
    const a = await p95(photosUrl, token, REQUESTS);
    const b = await p95(listUrl, token, REQUESTS);
    const places = await p95(`${server.url}/api/v4/file/photos/places`, token, Math.max(10, REQUESTS / 5));
    return {
      ok: a.p95 < TARGET_P95_MS,
      rows: [
        [database, `GET /file/photos, first page of 200 (${fmt(PHOTOS)} photos)`, fmt(a.p50, 1), fmt(a.p95, 1), `< ${TARGET_P95_MS}: ${a.p95 < TARGET_P95_MS ? 'met' : 'MISSED'}`],
        [database, `GET /file, first page of 200 (${fmt(PHOTOS)} files; baseline)`, fmt(b.p50, 1), fmt(b.p95, 1), ''],
        [database, `GET /file/photos/places (${fmt(PHOTOS / 10)} geotagged)`, fmt(places.p50, 1), fmt(places.p95, 1), ''],
      ],
    };
  } finally {
    await server.stop();
  }
}

/** Hostile files as test/media/fixtures.ts makes them (its PNG that claims 100,000 × 100,000 pixels, from the build). */
async function hostileFiles(dir) {
  const { claimingPng } = await import(pathToFileURL(path.join(ROOT, 'dist/server/test/media/fixtures.js')).href);
  const png = claimingPng(100_000, 100_000);
  const mp4 = path.join(dir, 'hostile.mp4');
  run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=5:size=640x360:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', mp4]);
  const whole = readFileSync(mp4);
  const pdf = makePdf(0).toString('latin1').replace('/Count 1', '/Count 1000000');
  return [
    ['/bad/huge.png', png],
    ['/bad/cut.mp4', whole.subarray(0, Math.floor(whole.length / 2))],
    ['/bad/pages.pdf', Buffer.from(pdf, 'latin1')],
    ['/bad/bomb.heic', gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 })],
  ];
}

/** Another client's pings while the server looks at hostile files, ROUNDS times over fresh copies. */
async function hostilePings(dir, database) {
  const ROUNDS = 5;
  const server = await startCirrus({ database });
  try {
    const token = (await signIn(server.url)).access_token;
    const files = await hostileFiles(dir);
    const ms = [];
    let stop = false;
    const pinging = (async () => {
      while (!stop) {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/v4/site/ping`);
        await res.arrayBuffer();
        ms.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [p, body] of files) {
        const at = p.replace('/bad/', `/bad-${round}/`);
        const put = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(at)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });
        if (put.status !== 200) throw new Error(`upload ${at}: ${put.status}`);
        for (let i = 0; i < 150; i++) {
          const res = await fetch(`${server.url}/api/v4/file/thumb?path=${encodeURIComponent(at)}&size=256`, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          if (res.status !== 202) break;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }
    stop = true;
    await pinging;
    ms.sort((a, b) => a - b);
    const slowest = ms[ms.length - 1];
    const p95 = ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)];
    return { ok: slowest < TARGET_PING_MS, row: [database, String(ms.length), fmt(p95, 1), fmt(slowest, 1), `< ${TARGET_PING_MS}: ${slowest < TARGET_PING_MS ? 'met' : 'MISSED'}`] };
  } finally {
    await server.stop();
  }
}

export async function runAll() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-bench-media-'));
  try {
    const out = [];
    if (PARTS.includes('generators')) {
      console.error('  making fixtures and timing the generators');
      out.push({ md: await generatorRates(dir), ok: true });
    }
    if (PARTS.includes('photos')) {
      const rows = [];
      let ok = true;
      for (const database of DATABASES) {
        const r = await photosPage(database);
        rows.push(...r.rows);
        ok &&= r.ok;
      }
      out.push({ md: table(`Media: the photo listing, ${REQUESTS} sequential requests`, ['database', 'request', 'p50 ms', 'p95 ms', 'target'], rows), ok });
    }
    if (PARTS.includes('hostile')) {
      const rows = [];
      let ok = true;
      for (const database of DATABASES) {
        console.error(`  ${database}: pinging while hostile files are looked at`);
        const r = await hostilePings(dir, database);
        rows.push(r.row);
        ok &&= r.ok;
      }
      out.push({ md: table("Media: another client's GET /site/ping (every 50 ms) while hostile files are looked at, 5 rounds", ['database', 'pings', 'p95 ms', 'slowest ms', 'target'], rows), ok });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
