// The web app (issues 8 and 23), in Debian's Chromium through playwright-core:
// 1. Bytes transferred (Chrome DevTools Protocol, Network.loadingFinished
//    encodedDataLength: compressed bodies and headers, as sent) for a first
//    visit with an empty cache of the sign-in page (≤ 150 KB), the OAuth
//    consent page of an app with a named icon (≤ 150 KB), and the file
//    manager (/files, signed in, ≤ 300 KB). Every response of the server
//    counts: the page, scripts, styles, API answers.
// 2. A folder of 100,000 files: time from navigation to the first rows,
//    p50 of 10 loads (< 1 s), and the most rows in the DOM while scrolling
//    it from top to bottom (< 200).
// 3. Upload of one file through the page (tus) against the same upload by
//    tus-js-client in Node, same server, same chunk size: ratio ≥ 0.8.
//    CIRRUS_BENCH_WEB_UPLOAD_MIB sets the size (default 1024 = 1 GiB; 0 skips it).
// CIRRUS_BENCH_WEB_FILES sets the big folder's size (default 100,000);
// CIRRUS_BENCH_WEB_REQUESTS=1 lists every response of the three first loads
// (bytes, type, path) on stderr, largest first.
import { createWriteStream, mkdtempSync, rmSync, statSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/**
 * Bytes the page's first load transfers from the server, counted by the
 * browser (CDP encodedDataLength), until `ready` resolves and the network is idle.
 */
async function transferred(browser, url, target, { pair, ready }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  if (pair) {
    await page.goto(url + '/assets-none-' + Date.now()).catch(() => undefined);
    await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const requests = new Map();
  cdp.on('Network.responseReceived', (e) => requests.set(e.requestId, { url: e.response.url, type: e.type, encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] }));
  const done = [];
  cdp.on('Network.loadingFinished', (e) => done.push(e));
  await page.goto(url + target);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  const result = { total: 0, scripts: 0, styles: 0, other: 0, files: 0, plain: [] };
  for (const e of done) {
    const r = requests.get(e.requestId);
    if (!r || !r.url.startsWith(url)) continue;
    result.total += e.encodedDataLength;
    result.files++;
    result.list = result.list ?? [];
    result.list.push([e.encodedDataLength, r.type, r.url.slice(url.length)]);
    if (r.type === 'Script') result.scripts += e.encodedDataLength;
    else if (r.type === 'Stylesheet') result.styles += e.encodedDataLength;
    else result.other += e.encodedDataLength;
    if ((r.type === 'Script' || r.type === 'Stylesheet' || r.type === 'Document') && !r.encoding) result.plain.push(r.url);
  }
  await context.close();
  if (process.env.CIRRUS_BENCH_WEB_REQUESTS === '1') {
    console.error(`  web: ${target.split('?')[0]}: ${(result.total / 1024).toFixed(1)} KB in ${result.files} responses`);
    for (const [bytes, type, p] of (result.list ?? []).sort((a, b) => b[0] - a[0])) console.error(`    ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${String(type).padEnd(10)} ${p.slice(0, 100)}`);
  }
  return result;
}

async function consentTarget(url, token) {
  const app = await data(
    await api(url, 'PUT', '/api/v4/admin/oauthClient', {
      token,
      json: { client: { name: 'Bench Sync', icon: 'cloud-upload', description: 'A benchmark app.', redirect_uris: ['http://127.0.0.1:9/callback'], scopes: ['openid', 'profile', 'Files.Read'] } },
    }),
    'create app',
  );
  const params = new URLSearchParams({
    response_type: 'code', client_id: app.id, redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid profile Files.Read', state: 'bench-state',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  });
  return `/session/authorize?${params}`;
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
        await page.locator('.cirrus-grid').evaluate((el) => el.scrollBy(0, el.clientHeight * 3));
        await page.waitForTimeout(50);
        maxRows = Math.max(maxRows, await page.locator('[role="row"][data-path]').count());
      }
      await page.locator('.cirrus-grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
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
  const server = await startCirrus({ env: process.env.CIRRUS_BENCH_WEB_DIR ? { CIRRUS_WEB_DIR: process.env.CIRRUS_BENCH_WEB_DIR } : {} });
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

    const kb = (n) => `${fmt(n / 1024, 1)} KB`;
    const describe = (t) => `${kb(t.total)} (${t.files} responses: JS ${kb(t.scripts)}, CSS ${kb(t.styles)}, page + API ${kb(t.other)})${t.plain.length ? `; uncompressed: ${t.plain.length}` : ''}`;
    const signInPage = await transferred(browser, server.url, '/', { ready: (page) => page.getByRole('button', { name: 'Sign in' }).waitFor() });
    const consent = await transferred(browser, server.url, await consentTarget(server.url, token), {
      pair,
      ready: (page) => page.getByRole('img', { name: 'Bench Sync icon' }).waitFor(),
    });
    const filesPage = await transferred(browser, server.url, '/files', { pair, ready: (page) => page.getByRole('heading', { name: 'My files' }).waitFor() });
    const big = await bigFolder(browser, server.url, pair);
    const rows = [
      ['sign-in page (/), transferred', describe(signInPage), '≤ 150 KB', signInPage.total <= 150 * 1024],
      ['consent page (/session/authorize, app icon by name), transferred', describe(consent), '≤ 150 KB', consent.total <= 150 * 1024],
      ['file manager first load (/files, signed in), transferred', describe(filesPage), '≤ 300 KB', filesPage.total <= 300 * 1024],
      [`navigation → first rows, folder of ${fmt(FILES)} files (10 loads)`, `p50 ${fmt(big.p50)} ms (min ${fmt(big.min)}, max ${fmt(big.max)})`, '< 1000 ms', big.p50 < 1000],
      ['most rows in the DOM while scrolling it', String(big.maxRows), '< 200', big.maxRows < 200],
    ];
    if (UPLOAD_MIB > 0) {
      console.error(`  web: upload ${UPLOAD_MIB} MiB through the page and through tus-js-client in Node`);
      const file = await makeFile(tmp, UPLOAD_MIB);
      const nodeSeconds = await uploadNode(server.url, token, file, '/node-upload.bin');
      const pageSeconds = await uploadPage(browser, server.url, pair, file);
      const ratio = nodeSeconds / pageSeconds;
      const MiBs = (s) => fmt(UPLOAD_MIB / s, 1);
      rows.push([`upload ${UPLOAD_MIB} MiB: page (tus) vs tus-js-client in Node`, `page ${fmt(pageSeconds, 1)} s (${MiBs(pageSeconds)} MiB/s), Node ${fmt(nodeSeconds, 1)} s (${MiBs(nodeSeconds)} MiB/s): ratio ${fmt(ratio, 2)}`, '≥ 0.8', ratio >= 0.8]);
    }
    const md = table(
      `Web app (SQLite, Chromium ${browser.version()})`,
      ['measure', 'result', 'target', 'met'],
      rows.map(([m, r, t, ok]) => [m, r, t, ok ? 'yes' : 'no']),
    );
    return { md, ok: rows.every((r) => r[3]) };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
