// The web app's second round, in Debian's Chromium: several items downloaded
// as one ZIP (unpacked and compared byte for byte), the list sorted by the
// server from the column headers, highlighted code previews, an avatar
// uploaded through the crop dialog, the admin Shares list searched on the
// server, and the sign-in and consent pages in Simplified Chinese. axe-core on
// each; screenshots at 1280×800 and 390×844 in test-artifacts/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, seriousA11yViolations, signInThroughForm } from './support.js';

const PASSWORD = 'extras-password-1';
const PHONE = { width: 390, height: 844 };

async function noA11yProblems(page: Page, where: string): Promise<void> {
  assert.deepEqual(await seriousA11yViolations(page), [], `axe on ${where}`);
}

const rowPaths = (page: Page) => page.locator('.cirrus-scroll [role="row"][data-path]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-path')));

describe('web app: ZIP of a selection, sorting, code, avatar, admin shares, Chinese sign-in and consent', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminToken: string;
  let userToken: string;
  let page: Page;
  let problems: string[];
  let requests: string[];
  const email = `extras-${process.pid}@example.com`;
  const big = randomBytes(5000);

  const put = async (p: string, body: string | Buffer) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/octet-stream' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    assert.equal(res.status, 200, await res.text());
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    userToken = (await createUser(api, adminToken, email, PASSWORD)).token.access_token;
    await put('/sortme/a-small.txt', 'x');
    await put('/sortme/b-big.bin', big);
    await put('/sortme/c-mid.txt', 'm'.repeat(100));
    await put('/sortme/zfolder/inner.txt', 'inside the folder');
    await put('/sortme/main.ts', 'export function greet(name: string): string {\n  // say hello\n  return `Hello, ${name}`;\n}\nconst answer = 42;\n');
    const opened = await openAppPage(browser);
    ({ page, problems, requests } = opened);
    await signInThroughForm(page, server.url + '/files/sortme', email, PASSWORD);
    await page.locator('[data-path="/sortme/a-small.txt"]').waitFor();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('two files and a folder selected download as one ZIP through a signed link, with the same bytes', async () => {
    await page.locator('[data-path="/sortme/a-small.txt"]').click();
    await page.locator('[data-path="/sortme/b-big.bin"]').click({ modifiers: ['Control'] });
    await page.locator('[data-path="/sortme/zfolder"]').click({ modifiers: ['Control'] });
    await page.getByText('3 selected').waitFor();
    await screenshotView(page, 'extras-files-selection-1280');
    await noA11yProblems(page, '/files with a selection');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('toolbar').getByRole('button', { name: 'Download as ZIP' }).click()]);
    assert.equal(download.suggestedFilename(), 'sortme.zip');
    assert.match(download.url(), /\/api\/v4\/file\/archive\/signed\/sortme\.zip\?/, 'the browser downloads the signed archive link itself (its own progress)');
    const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-extras-'));
    try {
      execFileSync('unzip', ['-q', (await download.path())!, '-d', dir]);
      assert.equal(readFileSync(path.join(dir, 'a-small.txt'), 'utf8'), 'x');
      assert.ok(readFileSync(path.join(dir, 'b-big.bin')).equals(big));
      assert.equal(readFileSync(path.join(dir, 'zfolder/inner.txt'), 'utf8'), 'inside the folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The right-click menu offers the same for one folder.
    await page.keyboard.press('Escape');
    await page.locator('[data-path="/sortme/zfolder"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Download as ZIP' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('search results from two folders with the same name download as one ZIP, the names told apart', async () => {
    await put('/x/notes-report.txt', 'from x');
    await put('/y/notes-report.txt', 'from y');
    await page.goto(server.url + '/search?q=notes-report');
    await page.locator('[data-path="/x/notes-report.txt"]').click();
    await page.locator('[data-path="/y/notes-report.txt"]').click({ modifiers: ['Control'] });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('toolbar').getByRole('button', { name: 'Download as ZIP' }).click()]);
    assert.equal(download.suggestedFilename(), 'files.zip');
    const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-extras-'));
    try {
      execFileSync('unzip', ['-q', (await download.path())!, '-d', dir]);
      const got = ['notes-report.txt', 'notes-report (2).txt'].map((n) => readFileSync(path.join(dir, n), 'utf8')).sort();
      assert.deepEqual(got, ['from x', 'from y']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.goto(server.url + '/files/sortme');
    await page.locator('[data-path="/sortme/a-small.txt"]').waitFor();
  });

  it('the column headers sort on the server (folders first), either way, and the choice survives a reload', async () => {
    await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
    await page.waitForFunction(() => document.querySelector('[role="columnheader"][aria-sort="ascending"]')?.textContent?.includes('Size'));
    // The third row tells the orders apart (by name, a-small.txt is second too).
    await page.waitForFunction(() => document.querySelectorAll('.cirrus-scroll [role="row"][data-path]')[2]?.getAttribute('data-path') === '/sortme/c-mid.txt');
    assert.deepEqual(await rowPaths(page), ['/sortme/zfolder', '/sortme/a-small.txt', '/sortme/c-mid.txt', '/sortme/main.ts', '/sortme/b-big.bin']);
    assert.ok(requests.some((u) => /\/api\/v4\/file\?.*order_by=size.*order=asc/.test(u)), 'the server was asked for that order');

    await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
    await page.waitForFunction(() => document.querySelectorAll('.cirrus-scroll [role="row"][data-path]')[1]?.getAttribute('data-path') === '/sortme/b-big.bin');
    assert.deepEqual(await rowPaths(page), ['/sortme/zfolder', '/sortme/b-big.bin', '/sortme/main.ts', '/sortme/c-mid.txt', '/sortme/a-small.txt']);
    await screenshotView(page, 'extras-files-sorted-1280');

    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('.cirrus-scroll [role="row"][data-path]')[1]?.getAttribute('data-path') === '/sortme/b-big.bin');
    assert.equal(await page.getByRole('columnheader', { name: 'Size' }).getAttribute('aria-sort'), 'descending');
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await page.waitForFunction(() => document.querySelectorAll('.cirrus-scroll [role="row"][data-path]')[1]?.getAttribute('data-path') === '/sortme/a-small.txt');
  });

  it('a code file opens highlighted (the highlighter loads only then)', async () => {
    const before = requests.length;
    await page.locator('[data-path="/sortme/main.ts"]').dblclick();
    const code = page.getByRole('dialog').locator('pre[data-highlighted="true"]');
    await code.waitFor();
    assert.equal(await code.locator('.hljs-keyword').first().textContent(), 'export');
    assert.ok((await code.locator('.hljs-comment').textContent())?.includes('say hello'));
    assert.ok(requests.slice(before).some((u) => /\/assets\/highlight-[^/]+\.js$/.test(u)), 'the highlight chunk was fetched for the preview');
    await screenshotView(page, 'extras-code-preview-1280');
    await noA11yProblems(page, 'code preview');
    // The theme follows the system by default: the dark colours must pass too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark');
    await screenshotView(page, 'extras-code-preview-dark-1280');
    await noA11yProblems(page, 'code preview (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
  });

  it('an avatar uploaded through the crop dialog shows in the profile and the header; Remove goes back to initials', async () => {
    await page.goto(server.url + '/settings/profile');
    await page.getByRole('button', { name: 'Upload picture' }).waitFor();
    await screenshotView(page, 'extras-profile-initials-1280');
    const red = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#d00' } }).png().toBuffer();
    const blue = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#00d' } }).png().toBuffer();
    const wide = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#000' } })
      .composite([{ input: red, left: 0, top: 0 }, { input: blue, left: 200, top: 0 }])
      .png()
      .toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: wide });
    const dialog = page.getByRole('dialog', { name: 'Choose the square to show' });
    await dialog.waitFor();
    await dialog.getByTestId('avatar-frame').locator('img').waitFor();
    // Move the picture all the way left (arrow keys), so the square shows the blue half.
    await dialog.getByTestId('avatar-frame').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowRight');
    await screenshotView(page, 'extras-avatar-crop-1280');
    await noA11yProblems(page, 'avatar crop dialog');
    await dialog.getByRole('button', { name: 'Save picture' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="header-avatar"] img').waitFor();
    const me = (await api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token: userToken })).body.data;
    assert.ok(me.avatar_url);
    assert.equal(await page.locator('[data-testid="header-avatar"] img').getAttribute('src'), me.avatar_url);
    const pic = Buffer.from(await (await fetch(server.url + me.avatar_url)).arrayBuffer());
    const { data, info } = await sharp(pic).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [256, 256]);
    const mid = (128 * 256 + 128) * 3;
    assert.ok(data[mid + 2]! > 150 && data[mid]! < 80, `the chosen square is the blue half (got ${data[mid]},${data[mid + 1]},${data[mid + 2]})`);
    await screenshotView(page, 'extras-profile-avatar-1280');
    await noA11yProblems(page, 'profile with avatar');

    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Upload picture' }).waitFor();
    assert.equal((await api.get<{ avatar_url: string | null }>('/api/v4/user/me', { token: userToken })).body.data.avatar_url, null);
    assert.equal(await page.locator('[data-testid="header-avatar"] img').count(), 0, 'initials, no picture');
  });

  it('on a phone: the file list sorted, the profile', async () => {
    const phone = await openAppPage(browser, PHONE);
    await signInThroughForm(phone.page, server.url + '/files/sortme', email, PASSWORD);
    await phone.page.locator('[data-path="/sortme/a-small.txt"]').waitFor();
    await screenshotView(phone.page, 'extras-files-390');
    await noA11yProblems(phone.page, '/files on a phone');
    await phone.page.goto(server.url + '/settings/profile');
    await phone.page.getByRole('button', { name: 'Upload picture' }).waitFor();
    await screenshotView(phone.page, 'extras-profile-390');
    await phone.context.close();
  });

  it('the admin Shares list searches on the server', async () => {
    for (const name of ['alpha-report.pdf', 'beta-photo.jpg', '季度报告.pdf']) {
      await put(`/${name}`, name);
      const res = await api.put('/api/v4/share', { path: `/${name}` }, { token: userToken });
      assert.equal(res.status, 200, res.text);
    }
    const admin = await openAppPage(browser);
    await signInThroughForm(admin.page, server.url + '/admin/shares', ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.page.getByText('/alpha-report.pdf').waitFor();
    await admin.page.getByLabel('Search by item, owner or link id').fill('报告');
    await admin.page.getByText('/alpha-report.pdf').waitFor({ state: 'hidden' });
    await admin.page.getByText('/季度报告.pdf').waitFor();
    assert.ok(admin.requests.length > 0);
    await screenshotView(admin.page, 'extras-admin-shares-1280');
    await noA11yProblems(admin.page, '/admin/shares');
    await admin.page.setViewportSize(PHONE);
    await screenshotView(admin.page, 'extras-admin-shares-390');
    await admin.context.close();
  });

  it('sign-in and consent in Simplified Chinese for a browser that asks for it', async () => {
    const appRes = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: '照片同步', icon: 'photo', redirect_uris: ['http://127.0.0.1:9/callback'], scopes: ['openid', 'offline_access', 'Files.Read', 'Files.Write'] } },
      { token: adminToken },
    );
    assert.equal(appRes.status, 200, appRes.text);
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const context = await browser.newContext({ viewport, locale: 'zh-CN' });
      const zh = await context.newPage();
      await zh.goto(server.url + '/files');
      await zh.getByRole('heading', { name: '登录' }).waitFor();
      assert.equal(await zh.evaluate(() => document.documentElement.lang), 'zh-CN');
      await zh.getByLabel('邮箱').waitFor();
      await zh.getByLabel('密码', { exact: true }).waitFor();
      await screenshotView(zh, `extras-signin-zh-${viewport.width}`);
      await noA11yProblems(zh, 'sign-in (zh-CN)');
      const params = new URLSearchParams({
        response_type: 'code', client_id: appRes.body.data.id, redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid Files.Read Files.Write', state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
      });
      await zh.goto(`${server.url}/session/authorize?${params}`);
      await zh.getByRole('heading', { name: '登录以继续使用 照片同步' }).waitFor();
      await zh.getByLabel('邮箱').fill(email);
      await zh.getByLabel('密码', { exact: true }).fill(PASSWORD);
      await zh.getByRole('button', { name: '登录' }).click();
      await zh.getByRole('heading', { name: '照片同步 请求访问你的 Cirrus 账号' }).waitFor();
      await zh.getByText('查看你的文件').waitFor();
      await zh.getByText('修改你的文件').waitFor();
      await zh.getByRole('button', { name: '同意' }).waitFor();
      await zh.getByRole('button', { name: '拒绝' }).waitFor();
      await screenshotView(zh, `extras-consent-zh-${viewport.width}`);
      await noA11yProblems(zh, 'consent (zh-CN)');
      await context.close();
    }
  });

  it('switching to Simplified Chinese in Preferences fetches its texts; a reload starts in Chinese', async () => {
    await page.goto(server.url + '/settings/preferences');
    await page.getByLabel('Language', { exact: true }).first().click();
    await page.getByRole('option', { name: '简体中文' }).click();
    await page.getByRole('link', { name: '我的文件' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: '我的文件' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await page.getByLabel('语言', { exact: true }).first().waitFor();
    await screenshotView(page, 'extras-preferences-zh-1280');
    await page.getByLabel('语言', { exact: true }).first().click();
    await page.getByRole('option', { name: 'English' }).click();
    await page.getByRole('link', { name: 'My files' }).waitFor();
  });

  it('no console errors on the way', () => {
    assert.deepEqual(problems, []);
  });
});
