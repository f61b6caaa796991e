// The file manager finished (issue 23), in Debian's Chromium with the page's
// own Content-Security-Policy in force (no bypassCSP): thumbnails and the
// avatar picture are blob: images; the upload's name check answers 200;
// taps on a phone open folders; nothing moves under the pointer after a
// click; one bad name does not stop an upload; copy, move and undo.
// axe-core runs through page.evaluate (which the CSP does not govern).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, screenshot, signInThroughForm } from './support.js';
import { ROOT_DIR } from '../../src/paths.js';

const PASSWORD = 'finish-password-1';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const AXE_SOURCE = readFileSync(path.join(ROOT_DIR, 'node_modules/axe-core/axe.min.js'), 'utf8');

interface Session {
  context: BrowserContext;
  page: Page;
  /** Every console error (CSP reports included) and page error. */
  errors: string[];
}

/** A context that keeps the page's CSP; a phone has touch and a mobile viewport. */
async function openSession(browser: Browser, phone = false): Promise<Session> {
  const context = await browser.newContext({
    viewport: phone ? PHONE : DESKTOP,
    colorScheme: 'light',
    acceptDownloads: true,
    ...(phone ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}),
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  return { context, page, errors };
}

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `files-${name}`);
}

/** axe-core (WCAG 2.x A/AA): serious and critical violations, one line each. */
async function a11y(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  await page.waitForTimeout(300);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
  });
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join('; ')})`);
  assert.deepEqual(bad, [], `axe on ${where}`);
}

const item = (page: Page, p: string) => page.locator(`[role="row"][data-path="${p}"], [role="gridcell"][data-path="${p}"]`);
/** Drops files on the file list the way a browser does (a DataTransfer with File objects). */
async function dropFiles(page: Page, files: { name: string; content: string }[]): Promise<void> {
  const dt = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.content], f.name, { type: 'text/plain' }));
    return transfer;
  }, files);
  const target = page.locator('.cirrus-page');
  await target.dispatchEvent('dragover', { dataTransfer: dt });
  await target.dispatchEvent('drop', { dataTransfer: dt });
}

const cspErrors = (errors: string[]) => errors.filter((e) => /Content Security Policy/i.test(e));

describe('web app: the file manager finished (issue 23)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let token: string;
  const email = `finish-${process.pid}@example.com`;
  let png: Buffer;

  const put = async (p: string, body: string | Buffer) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const info = async (p: string) => api.get<{ path: string; updated_at: string }>(`/api/v4/file/info?path=${encodeURIComponent(p)}`, { token });
  const signedIn = async (phone = false, url = '/files'): Promise<Session> => {
    const s = await openSession(browser, phone);
    await signInThroughForm(s.page, server.url + url, email, PASSWORD);
    await s.page.getByRole('button', { name: 'Account menu' }).waitFor();
    return s;
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#2a7' } }).png().toBuffer();
    await put('/pics/green.png', png);
    await put('/pics/notes.txt', 'notes');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('item 1: the page CSP allows images from exactly self, data:, blob: and https: (app icons); nothing else widened', async () => {
    const csp = (await fetch(server.url + '/files')).headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v.join(' ')]));
    assert.equal(directives.get('img-src'), "'self' data: blob: https:");
    assert.equal(directives.get('script-src'), "'self'");
    assert.equal(directives.get('connect-src'), "'self'");
    assert.equal(directives.get('default-src'), "'self'");
  });

  it('item 1: grid thumbnails are blob: images the CSP allows (naturalWidth > 0), no CSP errors', async () => {
    const { page, errors, context } = await signedIn(false, '/files/pics');
    await item(page, '/pics/green.png').waitFor();
    await page.getByLabel('Grid', { exact: true }).click();
    const img = page.locator('[data-path="/pics/green.png"] img');
    await img.waitFor();
    assert.match((await img.getAttribute('src')) ?? '', /^blob:/);
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle());
    assert.ok((await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)) > 0, 'the thumbnail decoded');
    await shot(page, 'grid-1280');
    assert.deepEqual(cspErrors(errors), []);
    await a11y(page, '/files/pics (grid)');
    await page.getByLabel('List', { exact: true }).click();
    await context.close();
  });

  it('item 1: Settings → Upload picture reads a PNG and a JPEG, and the avatar changes; no CSP errors', async () => {
    const { page, errors, context } = await signedIn(false, '/settings/profile');
    for (const [name, mimeType, buffer] of [
      ['me.png', 'image/png', png],
      ['me.jpg', 'image/jpeg', await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c33' } }).jpeg().toBuffer()],
    ] as const) {
      const before = (await api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token })).body.data.avatar_url;
      await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
      const dialog = page.getByRole('dialog', { name: 'Choose the square to show' });
      await dialog.getByTestId('avatar-frame').locator('img').waitFor();
      assert.equal(await dialog.getByText('This file cannot be read as a picture.').count(), 0);
      await shot(page, `avatar-crop-${name}`);
      await dialog.getByRole('button', { name: 'Save picture' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const after = (await api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token })).body.data.avatar_url;
      assert.ok(after && after !== before, `${name}: the avatar changed`);
      await page.locator(`[data-testid="header-avatar"] img[src="${after}"]`).waitFor();
    }
    assert.deepEqual(cspErrors(errors), []);
    await context.close();
  });
  it('item 12: uploading new files checks their names with answers of 200: no console error in a clean session', async () => {
    await put('/up12/existing.txt', 'old');
    const { page, errors, context } = await signedIn(false, '/files/up12');
    const statuses: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/v4/file/')) statuses.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await item(page, '/up12/existing.txt').waitFor();
    await page.getByTestId('upload-files-input').setInputFiles([
      { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('1') },
      { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('2') },
    ]);
    await item(page, '/up12/one.txt').waitFor();
    await item(page, '/up12/two.txt').waitFor();
    await page.waitForTimeout(300);
    assert.deepEqual(statuses.filter((s) => s.startsWith('404')), [], 'no 404 for a free name');
    assert.deepEqual(errors, [], 'no console errors');
    await shot(page, 'upload-clean-1280');
    await context.close();
  });

  it('item 5: one bad name in a 4-file drop: the other three upload, the bad one is named with the reason', async () => {
    await put('/up5/keep.txt', 'k');
    const { page, context } = await signedIn(false, '/files/up5');
    await item(page, '/up5/keep.txt').waitFor();
    await dropFiles(page, [
      { name: 'a.txt', content: 'a' },
      { name: 'back\\slash.txt', content: 'bad' },
      { name: 'b.txt', content: 'b' },
      { name: 'c.txt', content: 'c' },
    ]);
    for (const n of ['a.txt', 'b.txt', 'c.txt']) await item(page, `/up5/${n}`).waitFor();
    const bad = page.locator('[data-upload="/up5/back\\\\slash.txt"]');
    await bad.waitFor();
    assert.match(await bad.innerText(), /back\\slash\.txt/);
    // The rule in the reader's words, checked in the browser before sending (shared/portable-names.ts, api/rules.ts).
    assert.match(await bad.getByRole('alert').innerText(), /Not uploaded: A name cannot contain “\/”, “\\”/);
    assert.equal(await bad.getByRole('button', { name: /^Resume/ }).count(), 0, 'a refused name is not retried');
    assert.equal(await page.getByRole('alert').filter({ hasText: 'cannot contain' }).count(), 1, 'no banner besides the panel row');
    const listing = await api.get<{ files: { name: string }[] }>(`/api/v4/file?path=${encodeURIComponent('/up5')}`, { token });
    assert.deepEqual(listing.body.data.files.map((f) => f.name).sort(), ['a.txt', 'b.txt', 'c.txt', 'keep.txt']);
    await shot(page, 'upload-bad-name-1280');
    await a11y(page, '/files/up5 with a refused name');
    await context.close();
  });
  it('item 2 (phone, touch): a tap opens a folder; check boxes and a long press select; the list does not move', async () => {
    await put('/phone/Docs/inside.txt', 'in');
    await put('/phone/a.txt', 'a');
    await put('/phone/b.txt', 'b');
    const { page, errors, context } = await signedIn(true, '/files/phone');
    await item(page, '/phone/Docs').waitFor();
    assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), true, 'the phone context has a coarse pointer');
    await shot(page, 'phone-list-390');
    await a11y(page, '/files/phone on a phone');

    await item(page, '/phone/Docs').tap();
    await page.waitForURL(/\/files\/phone\/Docs$/);
    await item(page, '/phone/Docs/inside.txt').waitFor();
    await page.goBack();
    await item(page, '/phone/a.txt').waitFor();

    // The check box selects; the bar takes the toolbar's place, so nothing below moves.
    const docsBefore = await item(page, '/phone/Docs').boundingBox();
    const headBefore = await page.getByRole('columnheader', { name: /Name/ }).boundingBox();
    await page.getByRole('checkbox', { name: 'Select a.txt' }).tap();
    await page.getByRole('toolbar').getByText('1 selected').waitFor();
    assert.deepEqual(await item(page, '/phone/Docs').boundingBox(), docsBefore, 'the rows stay where they were');
    assert.deepEqual(await page.getByRole('columnheader', { name: /Name/ }).boundingBox(), headBefore);
    await shot(page, 'phone-selected-390');
    await a11y(page, '/files/phone with a selection on a phone');
    // While selecting, a tap adds to the selection instead of opening.
    await item(page, '/phone/Docs').tap();
    await page.getByRole('toolbar').getByText('2 selected').waitFor();
    assert.match(page.url(), /\/files\/phone$/);
    // The overflow menu holds what does not fit.
    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Copy to…' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear selection' }).tap();
    await page.getByRole('toolbar').waitFor({ state: 'detached' });

    // A long press (a touch held 700 ms) selects, and does not sort or open.
    const box = (await item(page, '/phone/b.txt').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(700);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.getByRole('toolbar').getByText('1 selected').waitFor();
    assert.equal(await item(page, '/phone/b.txt').getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByRole('dialog').count(), 0, 'no preview opened');
    assert.equal(await page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(errors, []);
    // The grid has a check box on each card too.
    await page.getByRole('button', { name: 'Clear selection' }).tap();
    await page.getByLabel('Grid', { exact: true }).tap();
    await page.locator('[role="gridcell"][data-path="/phone/a.txt"]').getByRole('checkbox', { name: 'Select a.txt' }).tap();
    await page.getByRole('toolbar').getByText('1 selected').waitFor();
    await shot(page, 'phone-grid-390');
    await a11y(page, '/files/phone grid on a phone');
    await page.getByRole('button', { name: 'Clear selection' }).tap();
    await page.getByLabel('List', { exact: true }).tap();
    await context.close();
  });

  it('item 3: a click on a search result does not move it; a double click opens; the menu has "Show in folder"', async () => {
    await put('/s3/report-alpha.txt', 'alpha');
    await put('/s3/sub/report-beta.txt', 'beta');
    await put('/s3/report-dir/x.txt', 'x');
    const { page, errors, context } = await signedIn(false, '/search?q=report');
    const beta = item(page, '/s3/sub/report-beta.txt');
    await beta.waitFor();
    const before = await beta.boundingBox();
    await beta.click();
    await page.getByRole('toolbar').getByText('1 selected').waitFor();
    assert.deepEqual(await beta.boundingBox(), before, 'the row stays under the pointer');
    await shot(page, 'search-selected-1280');
    await a11y(page, '/search with a selection');
    await beta.dblclick();
    await page.getByRole('dialog', { name: /report-beta\.txt/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await item(page, '/s3/report-alpha.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Show in folder' }).waitFor();
    await shot(page, 'search-menu-1280');
    await page.getByRole('menuitem', { name: 'Show in folder' }).click();
    await page.waitForURL(/\/files\/s3$/);
    await page.locator('[data-path="/s3/report-alpha.txt"][aria-selected="true"]').waitFor();

    // The file list behaves the same: the first click does not move the row, a double click opens.
    const dir = item(page, '/s3/report-dir');
    const dirBefore = await dir.boundingBox();
    await item(page, '/s3/sub').click();
    assert.deepEqual(await dir.boundingBox(), dirBefore);
    await dir.dblclick();
    await page.waitForURL(/\/files\/s3\/report-dir$/);

    await page.goto(server.url + '/search?q=report');
    await item(page, '/s3/report-dir').dblclick();
    await page.waitForURL(/\/files\/s3\/report-dir$/);
    assert.deepEqual(errors, []);
    await context.close();
  });
  it('item 8: copy into the same folder makes "(copy)"; a move there is refused as a no-op; move keeps the time; Undo for move and delete', async () => {
    await put('/c8/a.txt', 'a');
    await put('/c8/b.txt', 'b');
    await put('/c8/Sub/keep.txt', 'k');
    const { page, errors, context } = await signedIn(false, '/files/c8');
    await item(page, '/c8/a.txt').waitFor();

    await item(page, '/c8/a.txt').click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy here' }).click();
    await item(page, '/c8/a (copy).txt').waitFor();
    // The menu's "Make a copy" does the same in one step.
    await item(page, '/c8/a.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Make a copy' }).click();
    await item(page, '/c8/a (copy 2).txt').waitFor();

    // "Move here" in the folder the item is already in cannot be chosen.
    await item(page, '/c8/b.txt').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    const picker = page.getByRole('dialog');
    assert.equal(await picker.getByRole('button', { name: 'Move here' }).isDisabled(), true);
    await picker.getByText('The items are already in this folder.').waitFor();
    await a11y(page, 'move dialog');
    const before = (await info('/c8/b.txt')).body.data.updated_at;
    await page.waitForTimeout(50);
    await picker.getByText('Sub', { exact: true }).click();
    await picker.getByRole('button', { name: 'Move here' }).click();
    await item(page, '/c8/b.txt').waitFor({ state: 'detached' });
    assert.equal((await info('/c8/Sub/b.txt')).body.data.updated_at, before, 'the move kept the modified time');
    const moved = page.locator('.mantine-Notification-root').filter({ hasText: 'Moved 1 item to /c8/Sub' });
    await moved.waitFor();
    await shot(page, 'move-undo-toast-1280');
    await a11y(page, 'the Moved toast with Undo');
    await moved.getByRole('button', { name: 'Undo' }).click();
    await item(page, '/c8/b.txt').waitFor();
    assert.equal((await info('/c8/Sub/b.txt')).status, 404);

    // Delete, then Undo: back from the trash.
    await item(page, '/c8/a.txt').click();
    await page.keyboard.press('Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Move to trash' }).click();
    await item(page, '/c8/a.txt').waitFor({ state: 'detached' });
    const trashed = page.locator('.mantine-Notification-root').filter({ hasText: '1 item moved to the trash' });
    await trashed.getByRole('button', { name: 'Undo' }).click();
    await item(page, '/c8/a.txt').waitFor();
    const trash = await api.get<{ files: unknown[] }>('/api/v4/file/trash', { token });
    assert.equal(trash.body.data.files.length, 0, 'the trash is empty again');
    assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), []);
    await context.close();
  });

  it('item 8: Trash rows select like the file list; a clashing restore asks: cancel, keep both, replace', async () => {
    await put('/r8/doc.txt', 'old doc');
    await put('/r8/memo.txt', 'old memo');
    const del = await fetch(`${server.url}/api/v4/file`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/r8/doc.txt', '/r8/memo.txt'] }),
    });
    assert.equal(del.status, 200);
    await put('/r8/doc.txt', 'new doc');
    await put('/r8/memo.txt', 'new memo');
    const { page, errors, context } = await signedIn(false, '/trash');
    const docRow = page.locator('tr[data-path="/r8/doc.txt"]');
    const memoRow = page.locator('tr[data-path="/r8/memo.txt"]');
    await docRow.waitFor();
    // A click selects one row, Ctrl-click adds, a plain click selects only that one.
    await docRow.getByText('doc.txt').click();
    assert.equal(await docRow.getAttribute('aria-selected'), 'true');
    await memoRow.getByText('memo.txt').click({ modifiers: ['Control'] });
    assert.equal(await memoRow.getAttribute('aria-selected'), 'true');
    await memoRow.getByText('memo.txt').click();
    assert.equal(await docRow.getAttribute('aria-selected'), 'false');

    await docRow.getByText('doc.txt').click();
    await page.getByRole('button', { name: 'Restore' }).click();
    const ask = page.getByRole('dialog', { name: 'The name is taken' });
    await ask.getByText(/doc\.txt/).waitFor();
    await shot(page, 'restore-clash-1280');
    await a11y(page, 'restore clash dialog');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await docRow.waitFor();
    await docRow.getByText('doc.txt').click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await ask.getByRole('button', { name: 'Keep both' }).click();
    await docRow.waitFor({ state: 'detached' });
    const r8 = await api.get<{ files: { name: string }[] }>(`/api/v4/file?path=${encodeURIComponent('/r8')}`, { token });
    assert.deepEqual(r8.body.data.files.map((f) => f.name).sort(), ['doc (1).txt', 'doc.txt', 'memo.txt']);

    await memoRow.getByText('memo.txt').click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await ask.getByRole('button', { name: 'Replace' }).click();
    // The row of the replaced file takes the restored one's place, so wait for the restore itself.
    const memoNow = async () => (await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent('/r8/memo.txt')}`, { headers: { authorization: `Bearer ${token}` } })).text();
    let memo = await memoNow();
    for (let i = 0; i < 50 && memo !== 'old memo'; i++) {
      await page.waitForTimeout(200);
      memo = await memoNow();
    }
    await memoRow.getByText('memo.txt').waitFor();
    assert.equal(memo, 'old memo', 'the restored file replaced the new one');
    assert.equal(await memoRow.count(), 1, 'the replaced file is in the trash now');
    assert.deepEqual(errors.filter((e) => !/status of 409/.test(e)), []);
    await context.close();
  });

  it('item 8 (phone, touch): Trash rows are selected with a tap or their check box, as in the file list', async () => {
    await put('/t8/x.txt', 'x');
    await fetch(`${server.url}/api/v4/file`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/t8/x.txt'] }),
    });
    const { page, context } = await signedIn(true, '/trash');
    const row = page.locator('tr[data-path="/t8/x.txt"]');
    await row.waitFor();
    await row.getByText('x.txt').tap();
    assert.equal(await row.getAttribute('aria-selected'), 'true');
    await page.getByRole('checkbox', { name: /x\.txt/ }).tap();
    assert.equal(await row.getAttribute('aria-selected'), 'false');
    await shot(page, 'trash-phone-390');
    await a11y(page, '/trash on a phone');
    await context.close();
  });
});
