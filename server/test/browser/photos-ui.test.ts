// The Photos page (issue 36, api-contract §16): pictures and videos newest
// taken first, grouped by the day taken, thumbnails loaded, a lightbox that
// opens, steps with the keys and buttons, plays a video, closes with Escape
// (focus back on the tile) and with Back, deep links by ?item=; at 1280×800
// and 390×844, in English and Chinese, with axe. The map is off by default
// and then every request stays on the site's own host; with a tile URL set
// (a local tile server here) it shows markers over tiles the CSP lets in, and
// credits the tiles in its corner (the map_attribution setting, else the host).
// A library of 2,048 items keeps far fewer <img> in the DOM than items, and
// its scroll height spans all of them before more than the first page is loaded.
// SQLite only: what the page shows does not depend on the database (the
// listing's SQL is tested on both in media/media.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { mediaToolsSkip } from '../media/fixtures.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'photos-ui-password-1';
const LANGS = [
  { locale: 'en-US', tag: 'en', title: 'Photos', next: 'Next', previous: 'Previous', close: 'Close', map: 'Map', empty: 'No photos or videos yet' },
  { locale: 'zh-CN', tag: 'zh-CN', title: '照片', next: '下一个', previous: '上一个', close: '关闭', map: '地图', empty: '还没有照片或视频' },
] as const;

/** A JPEG of one colour with a stripe (not flat), `w`×`h`. */
const jpeg = (w: number, h: number, hue: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: hue % 256, g: (hue * 7) % 256, b: (hue * 13) % 256 } } })
    .composite([{ input: Buffer.from(`<svg width="${w}" height="${h}"><rect x="0" y="${h / 3}" width="${w}" height="${h / 6}" fill="white"/></svg>`), top: 0, left: 0 }])
    .jpeg({ quality: 70 })
    .toBuffer();

/** A 256×256 PNG map tile (a grid), served by a stand-in tile server that records what it is asked. */
async function startTileServer() {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 220, g: 235, b: 220 } } })
    .composite([{ input: Buffer.from('<svg width="256" height="256"><path d="M0 0H256V256" stroke="#889" fill="none"/></svg>'), top: 0, left: 0 }])
    .png()
    .toBuffer();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(tile);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('web app: Photos', { skip: browserSkip || mediaToolsSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;
  let email: string;
  let token: string;
  let dir: string;
  /** name → id */
  const ids = new Map<string, string>();
  /** name → the day it must be grouped under */
  const days = new Map<string, string>();

  const upload = async (who: string, p: string, body: Buffer) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${who}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return (JSON.parse(text) as { data: { id: string } }).data.id;
  };

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
    email = 'photos-ui@example.com';
    token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-photos-ui-'));
    const exif = async (name: string, taken: string, extra: string[] = []) => {
      const file = path.join(dir, name);
      await sharp(await jpeg(800, 600, name.length * 31)).toFile(file);
      execFileSync('exiftool', ['-q', '-overwrite_original', `-DateTimeOriginal=${taken}`, '-OffsetTimeOriginal=+02:00', ...extra, file]);
      return readFileSync(file);
    };
    // Two on 14 July 2023 (one geotagged), one on 13 July, a video of 1 May 2024, one with no date (today, by upload).
    const files: [string, Buffer, string][] = [
      ['harbour.jpg', await exif('harbour.jpg', '2023:07:14 18:30:00', ['-GPSLatitude=48.85837', '-GPSLatitudeRef=N', '-GPSLongitude=2.294481', '-GPSLongitudeRef=E']), '2023-07-14'],
      ['breakfast.jpg', await exif('breakfast.jpg', '2023:07:14 08:05:00'), '2023-07-14'],
      ['train.jpg', await exif('train.jpg', '2023:07:13 12:00:00'), '2023-07-13'],
    ];
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=5:size=320x240:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast',
      '-movflags', '+faststart', '-metadata', 'creation_time=2024-05-01T10:20:30Z', path.join(dir, 'clip.mp4')]);
    files.push(['clip.mp4', readFileSync(path.join(dir, 'clip.mp4')), '2024-05-01']);
    files.push(['scan.jpg', await jpeg(600, 800, 99), '']);
    for (const [name, body, day] of files) {
      ids.set(name, await upload(token, `/Camera/${name}`, body));
      days.set(name, day);
    }
    // The dates come from the background look at each file: wait until the listing has them all.
    const until = Date.now() + 30_000;
    for (;;) {
      const res = await api.get<{ items: { name: string; taken_at: string | null; media: { duration?: number } | null }[] }>('/api/v4/file/photos', { token });
      const items = res.body.data.items;
      const dated = items.filter((i) => i.taken_at !== null).length;
      if (items.length === 5 && dated === 4 && items.some((i) => i.name === 'clip.mp4' && i.media?.duration)) break;
      assert.ok(Date.now() < until, `photos not looked at within 30 s: ${JSON.stringify(items.map((i) => [i.name, i.taken_at]))}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => {
    await closeSuite(browser, server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const origin = () => new URL(server.url).host;
  const tiles = (page: Page) => page.getByTestId('photo-tile');
  const tile = (page: Page, name: string) => page.locator(`[data-testid="photo-tile"][data-id="${ids.get(name)}"]`);

  /** Every thumbnail in view decoded (naturalWidth > 0); on a timeout, says which are missing and what the server answered. */
  const thumbsLoaded = async (page: Page, answers: string[] = []) => {
    try {
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="photo-tile"] img')];
        return imgs.length === document.querySelectorAll('[data-testid="photo-tile"]').length && imgs.every((i) => i.complete && i.naturalWidth > 0);
      });
    } catch (err) {
      const state = await page.evaluate(() => {
        const tilesNow = [...document.querySelectorAll('[data-testid="photo-tile"]')];
        return { tiles: tilesNow.length, without: tilesNow.filter((t) => !t.querySelector('img')).map((t) => t.getAttribute('aria-label')).slice(0, 5), broken: [...document.querySelectorAll<HTMLImageElement>('[data-testid="photo-tile"] img')].filter((i) => !i.complete || i.naturalWidth === 0).length };
      });
      throw new Error(`thumbnails not all loaded: ${JSON.stringify(state)} ${JSON.stringify(answers.slice(0, 5))} (${String(err)})`);
    }
  };

  for (const v of VIEWPORTS) {
    for (const L of LANGS) {
      // The lightbox is driven in English on the desktop and in Chinese on the phone; every pairing shows the grid.
      const full = (v.name === 'desktop') === (L.tag === 'en');
      it(`${L.tag} ${v.name}: grouped by day, newest first, thumbnails loaded${full ? ', lightbox opens, steps, closes; deep link; video plays' : ''}; no map and no other host`, async () => {
        const { context, page, problems } = await openIn(browser, v, L.locale);
        const requests: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        await startSignedIn(page, server.url, (await signIn(api, email, PASSWORD)).token, L.tag);
        await page.goto(`${server.url}/photos`);
        await page.getByRole('heading', { name: L.title, level: 1 }).waitFor();
        await tiles(page).first().waitFor();
        await thumbsLoaded(page);
        assert.equal(await tiles(page).count(), 5);

        // Newest taken first: the undated scan (uploaded now), the video (2024), then 14 July (evening, morning), 13 July.
        const order = await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
        assert.deepEqual(order, ['scan.jpg', 'clip.mp4', 'harbour.jpg', 'breakfast.jpg', 'train.jpg'].map((n) => ids.get(n)));
        // Each under the heading of its day; the scan under today's date in the reader's time zone.
        const today = await page.evaluate(() => {
          const d = new Date();
          return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
        });
        for (const [name, day] of days) assert.equal(await tile(page, name).getAttribute('data-day'), day || today, name);
        const headings = await page.getByTestId('photo-day').evaluateAll((els) => els.map((e) => [e.getAttribute('data-day'), e.textContent]));
        assert.deepEqual(headings.map((h) => h[0]), [today, '2024-05-01', '2023-07-14', '2023-07-13']);
        const july14 = headings[2]![1]!;
        assert.match(july14, /2023/);
        assert.match(july14, /14/);
        assert.match(july14, L.tag === 'en' ? /July/ : /7月/, 'the day in the reader\'s language');
        // The video has its play badge and length; its name says so.
        assert.match(await tile(page, 'clip.mp4').innerText(), /0:05/);
        assert.match((await tile(page, 'clip.mp4').getAttribute('aria-label')) ?? '', /clip\.mp4/);
        await shot(page, `photos-${v.name}-${L.tag}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe: the grid');

        // No map button without a tile URL, and nothing was asked of another host.
        assert.equal(await page.getByRole('button', { name: L.map }).count(), 0);
        assert.deepEqual(requests.filter((u) => !/^(blob|data):/.test(u) && new URL(u).host !== origin()), []);
        if (!full) {
          assert.deepEqual(problems, []);
          await context.close();
          return;
        }

        // The lightbox: open, the picture at full size, next by the key and the button, previous, Escape closes with the focus on the tile.
        await tile(page, 'harbour.jpg').click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="lightbox-image"]');
          return !!img && img.complete && img.naturalWidth === 800;
        });
        assert.equal(await page.getByTestId('lightbox-name').innerText(), 'harbour.jpg');
        assert.equal(new URL(page.url()).searchParams.get('item'), ids.get('harbour.jpg'));
        await shot(page, `photos-lightbox-${v.name}-${L.tag}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe: the lightbox');
        await page.keyboard.press('ArrowRight');
        await page.getByTestId('lightbox-name').filter({ hasText: 'breakfast.jpg' }).waitFor();
        await dialog.getByRole('button', { name: L.next }).click();
        await page.getByTestId('lightbox-name').filter({ hasText: 'train.jpg' }).waitFor();
        assert.equal(await dialog.getByRole('button', { name: L.next }).isDisabled(), true, 'the last has no next');
        await dialog.getByRole('button', { name: L.previous }).click();
        await page.getByTestId('lightbox-name').filter({ hasText: 'breakfast.jpg' }).waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(new URL(page.url()).search, '');
        await page.waitForFunction((id) => document.activeElement?.getAttribute('data-id') === id, ids.get('breakfast.jpg'));

        // Back closes it.
        await tile(page, 'train.jpg').click();
        await page.getByTestId('lightbox-name').filter({ hasText: 'train.jpg' }).waitFor();
        await page.goBack();
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(new URL(page.url()).pathname, '/photos');

        // The video plays in the lightbox.
        await tile(page, 'clip.mp4').click();
        await page.getByTestId('lightbox-video').waitFor();
        await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid="lightbox-video"]')?.readyState ?? 0) >= 2);
        await dialog.getByRole('button', { name: L.close }).click();
        await dialog.waitFor({ state: 'hidden' });

        // A deep link opens that item; closing leaves /photos.
        await page.goto(`${server.url}/photos?item=${ids.get('train.jpg')}`);
        await page.getByTestId('lightbox-name').filter({ hasText: 'train.jpg' }).waitFor();
        await dialog.getByRole('button', { name: L.close }).click();
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(new URL(page.url()).search, '');

        assert.deepEqual(requests.filter((u) => !/^(blob|data):/.test(u) && new URL(u).host !== origin()), [], 'only the site itself was asked');
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }

  it('en phone: a person with no photos is told to upload some', async () => {
    const other = 'photos-ui-empty@example.com';
    await createUser(api, admin, other, PASSWORD);
    const { context, page, problems } = await openIn(browser, VIEWPORTS[1]);
    await startSignedIn(page, server.url, (await signIn(api, other, PASSWORD)).token, 'en');
    await page.goto(`${server.url}/photos`);
    await page.getByTestId('photos-empty').getByText(LANGS[0].empty).waitFor();
    await page.getByRole('link', { name: 'Go to My files' }).waitFor();
    await shot(page, 'photos-empty-phone');
    assert.deepEqual(await seriousA11yViolations(page), [], 'axe: empty');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('en desktop: with a map tile URL set, the map shows the geotagged photo over tiles from that host', async () => {
    const tilesServer = await startTileServer();
    try {
      const set = await api.patch('/api/v4/admin/settings', { map_tile_url: `${tilesServer.origin}/tiles/{z}/{x}/{y}.png` }, { token: admin });
      assert.equal(set.status, 200, set.text);
      const { context, page, problems } = await openIn(browser, VIEWPORTS[0]);
      await startSignedIn(page, server.url, (await signIn(api, email, PASSWORD)).token, 'en');
      await page.goto(`${server.url}/photos`);
      await page.getByRole('button', { name: 'Map' }).click();
      const map = page.getByTestId('photo-map');
      // Markers are placed once the map has measured its size (the first frame has width 0).
      await map.getByTestId('map-marker').first().waitFor();
      assert.equal(await map.getByTestId('map-marker').count(), 1, 'one geotagged photo, one marker');
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>('.photo-map-tile')];
        return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth === 256);
      });
      assert.ok(tilesServer.hits.length > 0 && tilesServer.hits.every((h) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(h)), JSON.stringify(tilesServer.hits));
      // No attribution set: the corner names the host the tiles come from.
      const credit = map.getByTestId('map-attribution');
      assert.equal((await credit.textContent())?.trim(), `Map tiles: ${new URL(tilesServer.origin).host}`);
      await shot(page, 'photos-map-desktop');
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe: the map');
      // The administrator's attribution, as plain text (markup is not interpreted).
      const text = '© <b>Test Tiles</b> contributors';
      assert.equal((await api.patch('/api/v4/admin/settings', { map_attribution: text }, { token: admin })).status, 200);
      await page.goto(`${server.url}/photos`);
      await page.getByRole('button', { name: 'Map' }).click();
      await credit.waitFor();
      assert.equal((await credit.textContent())?.trim(), text);
      assert.equal(await credit.locator('b').count(), 0);
      const inCorner = await credit.evaluate((el) => {
        const m = el.closest('[data-testid="photo-map"]')!.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return Math.abs(r.right - m.right) <= 2 && Math.abs(r.bottom - m.bottom) <= 2;
      });
      assert.ok(inCorner, 'the attribution sits in the bottom right corner of the map');
      await shot(page, 'photos-map-attribution-desktop');
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe: the map with an attribution');
      // The marker opens the photo.
      await map.getByRole('button', { name: 'Open the photo taken here' }).click();
      await page.getByTestId('lightbox-name').filter({ hasText: 'harbour.jpg' }).waitFor();
      assert.deepEqual(problems, [], 'no CSP violation, no error');
      await context.close();
    } finally {
      await api.patch('/api/v4/admin/settings', { map_tile_url: '', map_attribution: '' }, { token: admin });
      await tilesServer.close();
    }
  });

  it('en desktop: 2,048 items keep far fewer <img> in the DOM than items, and pages load as the grid scrolls', async () => {
    const many = 'photos-ui-many@example.com';
    const manyToken = (await createUser(api, admin, many, PASSWORD)).token.access_token;
    // Eight small pictures, then the folders copied into a new one, doubling each time: 8 × 2^8 files.
    for (let round = 1; round <= 8; round++) assert.equal((await api.post('/api/v4/file/create', { path: `/d${round}`, type: 'folder' }, { token: manyToken })).status, 200);
    for (let i = 0; i < 8; i++) await upload(manyToken, `/d0/p${i}.jpg`, await jpeg(64, 48, i * 40));
    const tops = ['/d0'];
    for (let round = 1; round <= 8; round++) {
      const res = await api.post('/api/v4/file/move', { paths: tops, dst: `/d${round}`, copy: true }, { token: manyToken });
      assert.equal(res.status, 200, res.text);
      tops.push(`/d${round}`);
    }
    // The last item of the whole listing, by the API.
    let lastId = '';
    let count = 0;
    for (let cursor: string | null = null; ; ) {
      const res: { body: { data: { items: { id: string }[]; next_cursor: string | null } } } = await api.get(`/api/v4/file/photos?page_size=500${cursor ? `&cursor=${cursor}` : ''}`, { token: manyToken });
      count += res.body.data.items.length;
      lastId = res.body.data.items.at(-1)?.id ?? lastId;
      cursor = res.body.data.next_cursor;
      if (!cursor) break;
    }
    assert.equal(count, 2048);

    const { context, page, problems } = await openIn(browser, VIEWPORTS[0]);
    const thumbAnswers: string[] = [];
    const photoPages: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/file/thumb') && r.status() !== 200) thumbAnswers.push(`${r.status()} ${decodeURIComponent(r.url())}`);
      if (new URL(r.url()).pathname === '/api/v4/file/photos') photoPages.push(r.url());
    });
    await startSignedIn(page, server.url, (await signIn(api, many, PASSWORD)).token, 'en');
    // A link to an item no loaded page holds yet opens it (asked for by id).
    await page.goto(`${server.url}/photos?item=${lastId}`);
    await page.getByTestId('lightbox-name').filter({ hasText: /^p\d\.jpg$/ }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await tiles(page).first().waitFor();
    await thumbsLoaded(page, thumbAnswers);
    const imgsAtTop = await page.locator('[data-testid="photo-tile"] img').count();
    assert.ok(imgsAtTop > 0 && imgsAtTop < 150, `${imgsAtTop} <img> in the DOM`);
    const grid = page.getByTestId('photos-grid');
    // With one page of 200 loaded, the scroll height already spans all 2,048 items: placeholder rows
    // for the rest, counted by the first page's total (without it, one page of placeholders: ~400 items).
    assert.equal(photoPages.length, 1, `pages asked for: ${photoPages.join(', ')}`);
    const cols = await page.locator('.photo-row').filter({ has: page.getByTestId('photo-tile') }).first().getByTestId('photo-tile').count();
    const spanAtTop = await grid.evaluate((el) => el.scrollHeight / (el.querySelector<HTMLElement>('[data-testid="photo-tile"]')?.offsetHeight ?? 1));
    assert.ok(cols >= 3 && spanAtTop >= Math.ceil(2048 / cols), `before loading more, the scroll height is ${Math.round(spanAtTop)} tile heights; 2,048 items in ${cols} columns need ${Math.ceil(2048 / cols)}`);
    // Scroll to the end, again and again: pages arrive until the last item is shown, and the DOM stays small.

    const until = Date.now() + 60_000;
    for (;;) {
      await grid.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(150);
      if ((await page.locator(`[data-id="${lastId}"]`).count()) > 0 && (await page.locator('.photo-placeholder').count()) === 0) break;
      assert.ok(Date.now() < until, 'all pages loaded within 60 s of scrolling');
    }
    const imgs = await page.locator('img').count();
    assert.ok(imgs < 200, `${imgs} <img> in the DOM for 2,048 items`);
    const rows = await grid.evaluate((el) => el.scrollHeight / (el.querySelector<HTMLElement>('[data-testid="photo-tile"]')?.offsetHeight ?? 1));
    assert.ok(rows > 2048 / 6, `the scroll height covers every row (${Math.round(rows)} tile heights)`);
    await thumbsLoaded(page, thumbAnswers);
    assert.deepEqual(thumbAnswers, [], 'every thumbnail answered 200');
    await shot(page, 'photos-many-desktop');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
