// The web app (issue 8), in Debian's Chromium through playwright-core:
// 1. JavaScript + CSS the first page (/files, signed in) loads, gzipped: ≤ 300 KB.
// 2. A folder of 100,000 files: time from navigation to the first rows,
//    p50 of 10 loads (< 1 s), and the most rows in the DOM while scrolling
//    it from top to bottom (< 200).
// 3. Upload of one file through the page (tus) against the same upload by
//    tus-js-client in Node, same server, same chunk size: ratio ≥ 0.8.
//    CIRRUS_BENCH_WEB_UPLOAD_MIB sets the size (default 1024 = 1 GiB).
import { createWriteStream, mkdtempSync, rmSync, statSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { Upload } from 'tus-js-client';
import { api, fmt, signIn, startCirrus, table } from './lib.mjs';
import { seedFolder } from './files-seed.mjs';

const FILES = Number(process.env.CIRRUS_BENCH_WEB_FILES ?? 100_000);
const UPLOAD_MIB = Number(process.env.CIRRUS_BENCH_WEB_UPLOAD_MIB ?? 1024);
const CHUNK = 8 * 1024 * 1024; // the page's chunk size (web/src/features/files/uploads/store.ts)

async function data(res, what) {
  if (res.body?.code !== 0) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function signedInContext(browser, url, pair) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url + '/assets-none-' + Date.now()).catch(() => undefined);
  await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
  return { context, page };
}

async function firstLoadBytes(browser, url, pair) {
  const { context, page } = await signedInContext(browser, url, pair);
  const seen = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if ((type === 'script' || type === 'stylesheet') && res.url().startsWith(url)) seen.push(res);
  });
  await page.goto(url + '/files');
  await page.getByRole('heading', { name: 'My files' }).waitFor();
  await page.waitForLoadState('networkidle');
  let raw = 0;
  let gz = 0;
  for (const res of seen) {
    const body = await res.body();
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  await context.close();
  return { files: seen.length, raw, gz };
}

async function bigFolder(browser, url, pair) {
  const times = [];
  let maxRows = 0;
  for (let i = 0; i < 10; i++) {
    const { context, page } = await signedInContext(browser, url, pair);
    const t0 = Date.now();
    await page.goto(url + '/files/big');
    await page.locator('[role="row"][data-path]').first().waitFor();
    times.push(Date.now() - t0);
    if (i === 0) {
      // Scroll to the end of what loads and keep counting rows in the DOM.
      for (let step = 0; step < 40; step++) {
        await page.locator('.cirrus-scroll').evaluate((el) => el.scrollBy(0, el.clientHeight * 3));
        await page.waitForTimeout(50);
        maxRows = Math.max(maxRows, await page.locator('[role="row"][data-path]').count());
      }
      await page.locator('.cirrus-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.waitForTimeout(300);
      maxRows = Math.max(maxRows, await page.locator('[role="row"][data-path]').count());
    }
    await context.close();
  }
  return { p50: median(times), min: Math.min(...times), max: Math.max(...times), maxRows };
}

async function makeFile(dir, mib) {
  const file = path.join(dir, `upload-${mib}MiB.bin`);
  const out = createWriteStream(file);
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  for (let i = 0; i < mib; i++) if (!out.write(block)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
  return file;
}

async function uploadNode(url, token, file, target) {
  const size = statSync(file).size;
  const t0 = performance.now();
  await new Promise((resolve, reject) => {
    const up = new Upload(createReadStream(file), {
      endpoint: url + '/api/v4/file/upload',
      chunkSize: CHUNK,
      uploadSize: size,
      headers: { authorization: `Bearer ${token}` },
      metadata: { path: target },
      onSuccess: resolve,
      onError: reject,
    });
    up.start();
  });
  return (performance.now() - t0) / 1000;
}

async function uploadPage(browser, url, pair, file) {
  const { context, page } = await signedInContext(browser, url, pair);
  await page.goto(url + '/files/up');
  await page.getByText('This folder is empty').waitFor();
  const t0 = performance.now();
  await page.getByTestId('upload-files-input').setInputFiles(file);
  await page.getByText('Done', { exact: true }).waitFor({ timeout: 30 * 60_000 });
  const seconds = (performance.now() - t0) / 1000;
  await context.close();
  return seconds;
}

export async function run() {
  const server = await startCirrus();
  const tmp = mkdtempSync(path.join(tmpdir(), 'cirrus-web-bench-'));
  const browser = await chromium.launch({ executablePath: process.env.CIRRUS_CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const pair = await signIn(server.url);
    const token = pair.access_token;
    const me = await data(await api(server.url, 'GET', '/api/v4/user/me', { token }), 'me');
    const folder = await data(await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: '/big', type: 'folder' } }), 'create /big');
    await data(await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: '/up', type: 'folder' } }), 'create /up');
    console.error(`  web: seeding ${fmt(FILES)} files`);
    await seedFolder({ database: { kind: 'sqlite', file: path.join(server.dataDir, 'cirrus.db') }, ownerId: me.id, folderId: folder.id, count: FILES });

    const size = await firstLoadBytes(browser, server.url, pair);
    const big = await bigFolder(browser, server.url, pair);
    console.error(`  web: upload ${UPLOAD_MIB} MiB through the page and through tus-js-client in Node`);
    const file = await makeFile(tmp, UPLOAD_MIB);
    const nodeSeconds = await uploadNode(server.url, token, file, '/node-upload.bin');
    const pageSeconds = await uploadPage(browser, server.url, pair, file);
    const ratio = nodeSeconds / pageSeconds;
    const MiBs = (s) => fmt(UPLOAD_MIB / s, 1);

    const okSize = size.gz <= 300 * 1024;
    const okLoad = big.p50 < 1000;
    const okRows = big.maxRows < 200;
    const okUpload = ratio >= 0.8;
    const md = table(
      `Web app (SQLite, Chromium ${browser.version()})`,
      ['measure', 'result', 'target', 'met'],
      [
        ['first page (/files) JS + CSS, gzipped', `${fmt(size.gz / 1024, 1)} KB (${size.files} files, ${fmt(size.raw / 1024)} KB raw)`, '≤ 300 KB', okSize ? 'yes' : 'no'],
        [`navigation → first rows, folder of ${fmt(FILES)} files (10 loads)`, `p50 ${fmt(big.p50)} ms (min ${fmt(big.min)}, max ${fmt(big.max)})`, '< 1000 ms', okLoad ? 'yes' : 'no'],
        ['most rows in the DOM while scrolling it', String(big.maxRows), '< 200', okRows ? 'yes' : 'no'],
        [`upload ${UPLOAD_MIB} MiB: page (tus) vs tus-js-client in Node`, `page ${fmt(pageSeconds, 1)} s (${MiBs(pageSeconds)} MiB/s), Node ${fmt(nodeSeconds, 1)} s (${MiBs(nodeSeconds)} MiB/s): ratio ${fmt(ratio, 2)}`, '≥ 0.8', okUpload ? 'yes' : 'no'],
      ],
    );
    return { md, ok: okSize && okLoad && okRows && okUpload };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
