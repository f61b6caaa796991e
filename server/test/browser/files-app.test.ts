// The web app as a person uses it, in Debian's Chromium: the file manager
// (new folder, drag-and-drop upload, folder upload, rename, move, download,
// trash and restore, search), sharing with a password and opening the link in
// a fresh browser, settings (UID, two-step verification, sessions, connected
// apps), axe-core on every page, screenshots at 1280x800 and 390x844.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn, type TokenPair } from '../helpers/client.js';
import { approve, createApp, eventually, exchange, type OAuthTestContext } from '../oauth/helpers.js';
import { browserSkip, currentStep, expectSignedIn, launchBrowser, networkQuiet, openAppPage, screenshotView, seriousA11yViolations, signInThroughForm, totp } from './support.js';

const PASSWORD = 'web-app-password-1';

async function noA11yProblems(page: Page, where: string): Promise<void> {
  const v = await seriousA11yViolations(page);
  assert.deepEqual(v, [], `axe on ${where}`);
}

const row = (page: Page, path: string) => page.locator(`[role="row"][data-path="${path}"], [role="gridcell"][data-path="${path}"]`);

/** Drops files on the file list the way a browser does (a DataTransfer with File objects). */
async function dropFiles(page: Page, files: { name: string; content: string; type: string }[]): Promise<void> {
  const dt = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.content], f.name, { type: f.type }));
    return transfer;
  }, files);
  const target = page.locator('.cirrus-page');
  await target.dispatchEvent('dragover', { dataTransfer: dt });
  await target.dispatchEvent('drop', { dataTransfer: dt });
}

describe('web app: files, shares and settings', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;
  let page: Page;
  let problems: string[];
  const email = `web-${process.pid}@example.com`;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await createUser(api, admin, email, PASSWORD);
    const opened = await openAppPage(browser);
    page = opened.page;
    problems = opened.problems;
    await signInThroughForm(page, server.url + '/files', email, PASSWORD);
    await page.getByRole('heading', { name: 'My files' }).or(page.getByText('This folder is empty')).first().waitFor();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('new folder, three files dropped, a folder uploaded, rename, move with the dialog, download with the same bytes', async () => {
    await screenshotView(page, 'app-files-empty-1280');
    await noA11yProblems(page, '/files (empty)');

    await page.getByRole('button', { name: 'New folder' }).click();
    const nameBox = page.getByRole('dialog').getByLabel('Folder name');
    await nameBox.fill('Projects');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await row(page, '/Projects').waitFor();

    await dropFiles(page, [
      { name: 'alpha.txt', content: 'alpha content', type: 'text/plain' },
      { name: 'beta.md', content: '# beta', type: 'text/markdown' },
      { name: '报告.txt', content: '中文内容', type: 'text/plain' },
    ]);
    for (const p of ['/alpha.txt', '/beta.md', '/报告.txt']) await row(page, p).waitFor();

    // Upload a folder (webkitdirectory input): its structure is kept.
    const dir = `/tmp/wa/photos-${process.pid}`;
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${dir}/2024`, { recursive: true });
    writeFileSync(`${dir}/cover.txt`, 'cover');
    writeFileSync(`${dir}/2024/trip.txt`, 'trip');
    await page.getByTestId('upload-folder-input').setInputFiles(dir);
    await row(page, `/photos-${process.pid}`).waitFor();
    // The folder's row can show before its last file is in (the live listing follows the upload): wait for both files.
    let listed = await api.get<{ files: { path: string }[] } | null>(`/api/v4/file?path=${encodeURIComponent(`/photos-${process.pid}/2024`)}`, { token: await token() });
    for (let i = 0; i < 50 && !listed.body.data?.files.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await api.get<{ files: { path: string }[] } | null>(`/api/v4/file?path=${encodeURIComponent(`/photos-${process.pid}/2024`)}`, { token: await token() });
    }
    assert.deepEqual(listed.body.data?.files.map((f) => f.path), [`/photos-${process.pid}/2024/trip.txt`]);
    await screenshotView(page, 'app-files-1280');
    await noA11yProblems(page, '/files (with uploads panel)');

    // Rename with F2.
    await row(page, '/alpha.txt').click();
    await page.keyboard.press('F2');
    const renameBox = page.getByRole('dialog').getByLabel('New name');
    await renameBox.fill('alpha-renamed.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    await row(page, '/alpha-renamed.txt').waitFor();

    // Move with the folder picker.
    await row(page, '/alpha-renamed.txt').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    const picker = page.getByRole('dialog');
    await picker.getByText('Projects', { exact: true }).click();
    await picker.getByRole('button', { name: 'Move here' }).click();
    await row(page, '/alpha-renamed.txt').waitFor({ state: 'detached' });
    await row(page, '/Projects').dblclick();
    await page.waitForURL(/\/files\/Projects$/);
    await row(page, '/Projects/alpha-renamed.txt').waitFor();

    // Download through a signed URL: the same bytes.
    await row(page, '/Projects/alpha-renamed.txt').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    assert.equal(download.suggestedFilename(), 'alpha-renamed.txt');
    assert.equal(readFileSync((await download.path())!, 'utf8'), 'alpha content');

    // Back and forward follow the folders.
    await page.goBack();
    await row(page, '/beta.md').waitFor();
    await page.goForward();
    await row(page, '/Projects/alpha-renamed.txt').waitFor();
    assert.deepEqual(problems, []);
  });

  it('delete to the trash, find it there, restore it; search finds names in any script', async () => {
    await page.goto(server.url + '/files');
    await row(page, '/beta.md').click();
    await page.keyboard.press('Delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Move to trash' }).click();
    await row(page, '/beta.md').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL(/\/trash$/);
    await page.getByRole('checkbox', { name: 'Select beta.md' }).check();
    await screenshotView(page, 'app-trash-1280');
    await noA11yProblems(page, '/trash');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('The trash is empty').waitFor();
    await page.getByRole('link', { name: 'My files' }).click();
    await row(page, '/beta.md').waitFor();

    const box = page.getByRole('searchbox', { name: 'Search files' });
    await box.fill('报告');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=/);
    await row(page, '/报告.txt').waitFor();
    await box.fill('RENAMED');
    await box.press('Enter');
    await row(page, '/Projects/alpha-renamed.txt').waitFor();
    await screenshotView(page, 'app-search-1280');
    await noA11yProblems(page, '/search');
    assert.deepEqual(problems, []);
  });

  it('share a folder with a password; a fresh browser unlocks it, browses and downloads', async () => {
    await page.goto(server.url + '/files');
    await row(page, '/Projects').click();
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('switch', { name: 'Protect with a password' }).check();
    await dialog.getByLabel('Password', { exact: true }).fill('open-sesame');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = await dialog.getByLabel('Link', { exact: true }).inputValue();
    assert.match(link, /\/s\/[A-Za-z0-9]+$/);
    await noA11yProblems(page, 'share dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: 'Shared by me' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Projects', exact: true }).waitFor();
    await screenshotView(page, 'app-shares-1280');
    await noA11yProblems(page, '/shares');

    const fresh = await openAppPage(browser);
    const res = await fresh.page.goto(link);
    assert.match(res?.headers()['content-type'] ?? '', /text\/html/);
    await fresh.page.getByLabel('Password', { exact: true }).fill('wrong-one');
    await fresh.page.getByRole('button', { name: 'Open' }).click();
    await fresh.page.getByText('That password is not right.').waitFor();
    await fresh.page.getByLabel('Password', { exact: true }).fill('open-sesame');
    await fresh.page.getByRole('button', { name: 'Open' }).click();
    await fresh.page.getByRole('heading', { name: 'Projects' }).waitFor();
    await fresh.page.getByText('alpha-renamed.txt').waitFor();
    await screenshotView(fresh.page, 'app-public-share-1280');
    await noA11yProblems(fresh.page, '/s/:id (unlocked)');
    const [download] = await Promise.all([
      fresh.page.waitForEvent('download'),
      fresh.page.getByRole('link', { name: 'Download alpha-renamed.txt' }).click(),
    ]);
    assert.equal(readFileSync((await download.path())!, 'utf8'), 'alpha content');
    // curl gets the bytes (a ZIP of the folder) from the same URL, with the unlock token.
    const token = await fresh.page.evaluate(() => Object.entries(sessionStorage).find(([k]) => k.startsWith('cirrus.share.'))?.[1] ?? '');
    const zip = await fetch(`${link}?token=${encodeURIComponent(token)}`, { headers: { 'user-agent': 'curl/8.5.0', accept: '*/*' } });
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.deepEqual(fresh.problems, []);
    await fresh.context.close();
  });

  it('sessions: sign out another session from the list; its refresh token then fails', async () => {
    const other = await api.post<{ token: TokenPair }>('/api/v4/session/token', { email, password: PASSWORD }, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' } });
    assert.equal(other.status, 200, other.text);
    await page.goto(server.url + '/settings/security');
    const button = page.getByRole('button', { name: 'Sign out Firefox 128 · Linux' });
    await button.click();
    await button.waitFor({ state: 'detached' });
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: other.body.data.token.refresh_token });
    assert.equal(refresh.status, 401);
    assert.equal(refresh.body.code, 40020);
    await noA11yProblems(page, '/settings/security (sessions)');
  });

  it('connected apps: revoke one; its tokens stop', async () => {
    const ctx: OAuthTestContext = { server, api, adminToken: admin };
    const app = await createApp(ctx, { name: 'Photo Printer', scopes: ['openid', 'offline_access', 'UserInfo.Read', 'Files.Read'] });
    const tokens = await exchange(ctx, app, await approve(ctx, await token(), app, { scope: 'openid offline_access Files.Read' }));
    assert.equal(tokens.status, 200, tokens.text);
    await page.goto(server.url + '/settings/apps');
    await page.getByText('Photo Printer').waitFor();
    await page.getByText('See your files').waitFor();
    await screenshotView(page, 'app-settings-apps-1280');
    await noA11yProblems(page, '/settings/apps');
    await page.getByRole('button', { name: 'Revoke access of Photo Printer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No app is connected to your account.').waitFor();
    assert.ok(await eventually(async () => (await api.get('/api/v4/file?path=/', { token: tokens.body.access_token })).status === 401), 'the app\'s access token stops');
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: tokens.body.refresh_token });
    assert.equal(refresh.status, 401);
    for (const tab of ['webdav', 'preferences']) {
      await page.goto(`${server.url}/settings/${tab}`);
      await page.getByRole('tabpanel').waitFor();
      await noA11yProblems(page, `/settings/${tab}`);
    }
    assert.deepEqual(problems, []);
  });

  it('settings: the UID with a copy button; enrol in two-step verification from the page, sign out, sign in with a code', async () => {
    await page.goto(server.url + '/settings/profile');
    const me = (await api.get<{ id: string }>('/api/v4/user/me', { token: await token() })).body.data;
    assert.equal((await page.getByTestId('uid').innerText()).trim(), me.id);
    await page.getByRole('button', { name: 'Copy UID' }).waitFor();
    await screenshotView(page, 'app-settings-profile-1280');
    await noA11yProblems(page, '/settings/profile');

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.waitForURL(/\/settings\/security$/);
    await page.getByRole('button', { name: 'Turn on' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    assert.match(secret, /^[A-Z2-7]+=*$/);
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await noA11yProblems(page, '/settings/security (enrolling)');
    const step = currentStep();
    await page.locator('.mantine-PinInput-input').first().click();
    await page.keyboard.type(totp(secret, step));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('On', { exact: true }).waitFor();
    await screenshotView(page, 'app-settings-security-1280');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await signInThroughForm(page, server.url + '/settings/security', email, PASSWORD);
    await page.getByLabel('Verification code').fill(totp(secret, step + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page, email);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    assert.deepEqual(problems, []);
  });

  it('on a phone (390x844): the pages fit, the menu folds away, no serious accessibility problem', async () => {
    const phone = await openAppPage(browser, { width: 390, height: 844 });
    const pair = await page.evaluate(() => localStorage.getItem('cirrus.session'));
    await phone.page.goto(server.url + '/');
    await phone.page.evaluate((p) => localStorage.setItem('cirrus.session', p!), pair);
    for (const [url, name] of [
      ['/files', 'files'],
      ['/files/Projects', 'folder'],
      ['/trash', 'trash'],
      ['/shares', 'shares'],
      ['/settings/security', 'settings'],
    ] as const) {
      await phone.page.goto(server.url + url);
      await phone.page.getByRole('button', { name: 'Account menu' }).waitFor();
      await networkQuiet(phone.page);
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${url}: no horizontal scrolling of the page (${overflow}px)`);
      await screenshotView(phone.page, `app-${name}-390`);
      await noA11yProblems(phone.page, `${url} at 390x844`);
    }
    await phone.page.getByRole('button', { name: 'Show or hide the menu' }).click();
    await phone.page.getByRole('link', { name: 'Trash' }).click();
    await phone.page.waitForURL(/\/trash$/);
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  });

  async function token(): Promise<string> {
    const pair = JSON.parse((await page.evaluate(() => localStorage.getItem('cirrus.session'))) ?? 'null') as TokenPair;
    return pair.access_token;
  }
});
