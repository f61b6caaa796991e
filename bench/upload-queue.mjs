// A queue of many small files through the web app (issue 38): 1,000 files of
// a few bytes chosen at once in the file manager (Debian's Chromium through
// playwright-core), against the same 1,000 uploads made directly through the
// API by this process with the same concurrency (3, the page's) and the same
// requests (tus 1.0: a POST that creates each upload, a PATCH with its bytes):
// the server's own time. The page's time runs from its first request (the
// batch /file/exists check) to the moment its total reaches 100 % with no
// upload running. Rounds alternate (API, page, API, page…) on one server with
// a fresh folder each. Target: page ÷ API ≤ 2, i.e. the queue adds at most the
// server's own time, however long it is.
// CIRRUS_BENCH_QUEUE_FILES (default 1000), CIRRUS_BENCH_QUEUE_ROUNDS (default 2).
import { chromium } from 'playwright-core';
import { ADMIN, api, envInt, fmt, median, signIn, startCirrus, table } from './lib.mjs';

const FILES = envInt('CIRRUS_BENCH_QUEUE_FILES', 1000);
const ROUNDS = envInt('CIRRUS_BENCH_QUEUE_ROUNDS', 2);
const CONCURRENCY = 3; // web/src/features/files/uploads/store.ts
const CHROMIUM = process.env.CIRRUS_CHROMIUM_PATH ?? '/usr/bin/chromium';
const name = (i) => `f-${String(i).padStart(4, '0')}.txt`;
const body = (i) => `file ${i}\n`;
const b64 = (s) => Buffer.from(s).toString('base64');

/** The server's own time: the same uploads (tus POST + PATCH), CONCURRENCY at a time. */
async function throughApi(url, token, folder) {
  let next = 0;
  const one = async (i) => {
    const bytes = Buffer.from(body(i));
    const created = await fetch(`${url}/api/v4/file/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length),
        'upload-metadata': `path ${b64(`${folder}/${name(i)}`)},filetype ${b64('text/plain')}`,
      },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const location = new URL(created.headers.get('location'), url).href;
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: bytes,
    });
    if (patched.status !== 204) throw new Error(`patch: ${patched.status} ${await patched.text()}`);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < FILES) await one(next++);
  }));
  return (performance.now() - t0) / 1000;
}

/** The same files chosen at once in the file manager. */
async function throughPage(browser, url, pair, folder) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url + '/');
  await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
  await page.goto(`${url}/files${folder}`);
  await page.getByText('This folder is empty').waitFor({ timeout: 60_000 });
  let started = 0;
  page.on('request', (r) => {
    if (!started && r.method() === 'POST' && r.url().endsWith('/api/v4/file/exists')) started = performance.now();
  });
  await page.getByTestId('upload-files-input').setInputFiles(Array.from({ length: FILES }, (_, i) => ({ name: name(i), mimeType: 'text/plain', buffer: Buffer.from(body(i)) })));
  await page.waitForFunction(
    () => {
      const bar = document.querySelector('section[aria-label="Uploads"] [role="progressbar"][aria-label="All uploads"]');
      const title = document.querySelector('section[aria-label="Uploads"] p');
      return bar?.getAttribute('aria-valuenow') === '100' && title?.textContent === 'Uploads';
    },
    undefined,
    { polling: 'raf', timeout: 30 * 60_000 },
  );
  const seconds = (performance.now() - started) / 1000;
  await context.close();
  return seconds;
}

async function arrived(url, token, folder) {
  const res = await api(url, 'POST', '/api/v4/file/exists', { token, json: { paths: Array.from({ length: FILES }, (_, i) => `${folder}/${name(i)}`) } });
  return res.body.data.results.filter((r) => r.exists).length;
}

/** startCirrus waits 20 s for the server; a loaded machine can need longer. */
async function up(url) {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/api/v4/site/ping`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

export async function run() {
  const server = await startCirrus({ database: 'sqlite' });
  await up(server.url);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const admin = (await signIn(server.url)).access_token;
    const email = 'queue-bench@example.com';
    await api(server.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email, password: ADMIN.password } });
    const pair = await signIn(server.url, email, ADMIN.password);
    const token = pair.access_token;
    const runs = { api: [], page: [] };
    let missing = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['api', 'page']) {
        const folder = `/${mode}-${round}`;
        await api(server.url, 'POST', '/api/v4/file/create', { token, json: { path: folder, type: 'folder' } });
        console.error(`  upload-queue: round ${round + 1}/${ROUNDS}, ${FILES} files through the ${mode === 'api' ? 'API' : 'page'} …`);
        const seconds = mode === 'api' ? await throughApi(server.url, token, folder) : await throughPage(browser, server.url, pair, folder);
        missing += FILES - (await arrived(server.url, token, folder));
        runs[mode].push(seconds);
        console.error(`    ${fmt(seconds, 2)} s`);
      }
    }
    const ratios = runs.page.map((p, i) => p / runs.api[i]);
    const ratio = median(ratios);
    const ok = ratio <= 2 && missing === 0;
    const md =
      table(
        `A queue of ${fmt(FILES)} small files: the web app (Chromium) vs the same uploads through the API, ${CONCURRENCY} at a time, SQLite, ${ROUNDS} alternating rounds`,
        ['round', 'API (server\'s own time), s', 'web app, s', 'ratio', 'per file, web app'],
        runs.api.map((a, i) => [String(i + 1), fmt(a, 2), fmt(runs.page[i], 2), fmt(ratios[i], 2), `${fmt((runs.page[i] / FILES) * 1000, 1)} ms`]),
      ) + `\n\nRatio (median): **${fmt(ratio, 2)}** (target ≤ 2). Files missing after the runs: ${missing}.`;
    return { md, ok };
  } finally {
    await browser.close();
    await server.stop();
  }
}
