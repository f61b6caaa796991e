// Layout defects of issue 23 item 11, at 1280×800 and on a 390×844 touch
// phone: Shares and Trash keep their actions and dates on a phone screen;
// admin Users shows whole column headers at 1280 px; the uploads panel's
// scrollbar leaves the percentages readable and the panel covers no row; a
// long folder name leaves its icon whole; a refused OAuth app form brings its
// error into view; "never expires" in Chinese is 永不过期. axe-core on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, seriousA11yViolations, signInThroughForm } from './support.js';
import { VIEWPORTS, openIn, shot, type Viewport } from './viewports.js';

const PASSWORD = 'layout-password-1';
const LONG_FOLDER = 'A folder with a very long name that goes on and on and on, well past the width of any column or phone screen, and then some more';

/** The element's box lies inside the viewport, horizontally and vertically. */
async function onScreen(page: Page, locator: ReturnType<Page['locator']>, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  assert.ok(box, `${what} is shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= size.width + 0.5, `${what} is on screen horizontally (${box.x}+${box.width} of ${size.width})`);
  assert.ok(box.y >= 0 && box.y + box.height <= size.height + 0.5, `${what} is on screen vertically (${box.y}+${box.height} of ${size.height})`);
}

describe('web app layout (issue 23, item 11)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let token: string;
  let adminToken: string;
  let dir: string;
  const email = `layout-${process.pid}@example.com`;

  const call = async (method: string, p: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.status < 300, `${method} ${p}: ${res.status} ${await res.clone().text()}`);
    return res;
  };
  const put = (p: string, body: string) =>
    fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });

  const signedIn = async (v: Viewport, url: string, locale = 'en-US') => {
    const opened = await openIn(browser, v, locale);
    await signInThroughForm(opened.page, url, email, PASSWORD);
    return opened;
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, adminToken, email, PASSWORD)).token.access_token;
    for (const f of ['report-2026.pdf', 'notes.txt', 'photo.png', 'old.txt']) assert.equal((await put(`/docs/${f}`, `content of ${f}`)).status, 200);
    assert.equal((await put(`/${LONG_FOLDER}/inside.txt`, 'x')).status, 200);
    for (const v of VIEWPORTS) assert.equal((await put(`/up-${v.name}/seed.txt`, 'seed')).status, 200);
    await call('PUT', '/api/v4/share', { path: '/docs/report-2026.pdf' });
    await call('PUT', '/api/v4/share', { path: '/docs/notes.txt', expires_in: 7 * 86400, download_limit: 5, password: 'secret-pass' });
    await call('DELETE', '/api/v4/file', { paths: ['/docs/old.txt'] });
    dir = mkdtempSync(path.join(tmpdir(), 'cirrus-layout-'));
    for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `upload-${i}.txt`), `file ${i}\n`.repeat(200));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: Shares keeps every link's actions, status and dates on screen`, async () => {
      const { context, page, problems } = await signedIn(v, `${server.url}/shares`);
      await page.getByRole('button', { name: 'Copy the link to notes.txt' }).waitFor();
      for (const name of ['report-2026.pdf', 'notes.txt']) {
        for (const action of ['Copy the link to', 'Edit the link to', 'Delete the link to']) {
          await onScreen(page, page.getByRole('button', { name: `${action} ${name}` }), `${action} ${name}`);
        }
      }
      await onScreen(page, page.getByText('Never expires', { exact: false }).first(), 'the expiry of a link that never expires');
      await onScreen(page, page.getByText('Active', { exact: true }).first(), 'the status');
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= v.viewport.width, `no sideways scrolling (${scrollWidth})`);
      await shot(page, `shares-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on /shares');
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: in Chinese a link without expiry reads 永不过期, never 从未`, async () => {
      const { context, page } = await openIn(browser, v, 'zh-CN');
      const pair = (await signIn(new Api(server.url), email, PASSWORD)).token;
      await page.goto(`${server.url}/`);
      await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
      await page.goto(`${server.url}/shares`);
      await page.getByRole('button', { name: '复制 notes.txt 的链接' }).waitFor();
      assert.ok((await page.getByText('永不过期', { exact: false }).count()) > 0);
      assert.equal(await page.getByText('从未').count(), 0);
      await shot(page, `shares-zh-${v.name}`);
      await context.close();
    });

    it(`${v.name}: Trash shows when each item was deleted, on screen`, async () => {
      const { context, page, problems } = await signedIn(v, `${server.url}/trash`);
      const row = page.locator('tr[data-path="/docs/old.txt"]');
      await row.waitFor();
      await onScreen(page, page.getByRole('columnheader', { name: 'Deleted' }), 'the Deleted header');
      await onScreen(page, row.locator('td').last(), 'the date old.txt was deleted');
      assert.match((await row.locator('td').last().textContent()) ?? '', /\d/);
      await onScreen(page, row.getByRole('checkbox'), 'the row checkbox');
      await shot(page, `trash-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on /trash');
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: a long folder name leaves its icon whole`, async () => {
      const { context, page } = await signedIn(v, `${server.url}/files`);
      const row = page.locator(`[data-path="/${LONG_FOLDER}"]`);
      await row.waitFor();
      const icon = await row.locator('svg.cirrus-file-icon').first().boundingBox();
      assert.ok(icon && icon.width >= 18 && icon.height >= 18, `the folder icon is ${icon?.width}×${icon?.height}`);
      await shot(page, `long-folder-${v.name}`);
      await context.close();
    });

    it(`${v.name}: the uploads panel covers no row, and its scrollbar leaves the percentages readable`, async () => {
      const { context, page, problems } = await signedIn(v, `${server.url}/files/up-${v.name}`);
      await page.locator(`[data-path="/up-${v.name}/seed.txt"]`).waitFor();
      await page.getByTestId('upload-files-input').setInputFiles(Array.from({ length: 10 }, (_, i) => path.join(dir, `upload-${i}.txt`)));
      const panel = page.locator('section[aria-label="Uploads"]');
      await page.locator(`[data-path="/up-${v.name}/upload-9.txt"]`).waitFor();
      await panel.getByText('Uploads', { exact: true }).waitFor();
      await page.waitForTimeout(300);
      const panelBox = (await panel.boundingBox())!;
      const gridBox = (await page.locator('.cirrus-grid').boundingBox())!;
      assert.ok(gridBox.y + gridBox.height <= panelBox.y + 0.5, `the file list ends (${gridBox.y + gridBox.height}) above the panel (${panelBox.y})`);
      // Each percentage is the element at its own right edge (no scrollbar over it). The list is
      // virtualised: look at the rows in view at its top, middle and bottom.
      const percents = panel.getByTestId('upload-percent');
      const list = panel.getByRole('group', { name: 'Uploads' });
      let checked = 0;
      for (const at of [0, 0.5, 1]) {
        await list.evaluate((el, f) => (el.scrollTop = (el.scrollHeight - el.clientHeight) * f), at);
        await page.waitForTimeout(150);
        const seen = await list.evaluate((box) => {
          const view = box.getBoundingClientRect();
          return [...box.querySelectorAll('[data-testid="upload-percent"]')].flatMap((el) => {
            const r = el.getBoundingClientRect();
            const y = r.top + r.height / 2;
            if (y < view.top || y > view.bottom) return [];
            const top = document.elementFromPoint(r.right - 2, y);
            return [{ text: el.textContent, covered: !(top === el || el.contains(top)) }];
          });
        });
        assert.ok(seen.length >= 2, `rows in view at ${at}`);
        for (const p of seen) assert.ok(!p.covered, `percentage ${p.text} at ${at} is not covered`);
        checked += seen.length;
      }
      assert.ok(checked >= 6);
      await shot(page, `uploads-${v.name}`);
      // The folder is longer than the screen: the file list's scroll box is
      // the focusable grid itself (axe scrollable-region-focusable).
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the uploads panel');
      // Collapsed, the panel keeps only its summary.
      await panel.getByRole('button', { name: 'Hide the list of uploads' }).click();
      await percents.first().waitFor({ state: 'hidden' });
      const small = (await panel.boundingBox())!;
      assert.ok(small.height < panelBox.height, 'collapsing makes the panel smaller');
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: a refused OAuth app form brings its error into view`, async () => {
      const opened = await openIn(browser, v);
      const { context, page } = opened;
      await signInThroughForm(page, `${server.url}/admin/apps/new`, ADMIN_EMAIL, ADMIN_PASSWORD);
      await page.getByLabel('App Name').fill('Layout App');
      await page.getByLabel('App Icon').fill('photo');
      await page.getByLabel('Redirect URIs').fill('https://ok.example/cb\nnot a url');
      await page.getByRole('checkbox', { name: /^openid / }).check();
      await page.getByRole('button', { name: 'Create app' }).click();
      const error = page.getByText(/^Line 2: /);
      await error.waitFor();
      await page.waitForTimeout(200);
      await onScreen(page, error, 'the redirect URI error');
      await shot(page, `oauth-error-${v.name}`);
      await context.close();
    });
  }

  it('desktop: admin Users shows every column header whole at 1280 px', async () => {
    const { context, page } = await openIn(browser, VIEWPORTS[0]);
    await signInThroughForm(page, `${server.url}/admin/users`, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByText(email).first().waitFor();
    // Nothing in the table is cut short (headers, group and status badges), and each header is one line.
    const cut = await page.locator('table').first().evaluate((table) =>
      Array.from(table.querySelectorAll<HTMLElement>('th *, td *'))
        .filter((n) => n.children.length === 0 && n.textContent?.trim() && n.offsetParent !== null && n.scrollWidth > n.clientWidth + 1)
        .map((n) => n.textContent!.trim()),
    );
    assert.deepEqual(cut, [], 'no text is truncated');
    const wrapped = await page.locator('thead th').evaluateAll((ths) =>
      ths
        .filter((th) => (th as HTMLElement).offsetParent !== null)
        .filter((th) => {
          // A text that wraps has more than one client rect.
          const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.textContent?.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            if (Array.from(range.getClientRects()).filter((r) => r.width > 0).length > 1) return true;
          }
          return false;
        })
        .map((th) => th.textContent?.trim()),
    );
    assert.deepEqual(wrapped, [], 'every header is on one line');
    const overflow = await page.locator('table').first().evaluate((t) => {
      const box = t.getBoundingClientRect();
      return box.right - document.documentElement.clientWidth;
    });
    assert.ok(overflow <= 0.5, `the table fits the page (${overflow} px over)`);
    await shot(page, 'admin-users-desktop');
    assert.deepEqual(await seriousA11yViolations(page), [], 'axe on admin Users');
    await context.close();
  });
});
