// Uploads through the page (tus): a 50 MB file with its progress bar visible
// until it reaches 100 %, and a reload in the middle of an upload that
// resumes where the server stopped when the file is chosen again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView } from './support.js';

const MB = 1_000_000;

async function throttle(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** Samples a progress bar's value every 50 ms until `done` resolves. */
async function sampleProgress(page: Page, label: string, done: Promise<unknown>): Promise<number[]> {
  const values: number[] = [];
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const v = await page.getByRole('progressbar', { name: label }).getAttribute('aria-valuenow').catch(() => null);
    if (v !== null) values.push(Number(v));
    await page.waitForTimeout(50);
  }
  return values;
}

describe('web app: uploads', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let token: string;
  const dir = `/tmp/cirrus-upload-test-${process.pid}`;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const user = await createUser(api, admin, `upload-${process.pid}@example.com`);
    token = user.token.access_token;
    mkdirSync(dir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedInPage() {
    const opened = await openAppPage(browser);
    const pair = (await signIn(api, `upload-${process.pid}@example.com`, 'user-password-123')).token;
    await opened.page.goto(server.url + '/');
    await opened.page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
    return opened;
  }

  async function serverBytes(path: string): Promise<Buffer> {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(path)}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  }

  it('a 50 MB file: the progress bar is visible and climbs until it reaches 100 %; the bytes arrive intact', async () => {
    const content = randomBytes(50 * MB);
    writeFileSync(`${dir}/big.bin`, content);
    const { page, context, problems } = await signedInPage();
    await page.goto(server.url + '/files');
    await page.getByText('This folder is empty').waitFor();
    await throttle(page, 20 * MB);
    await page.getByTestId('upload-files-input').setInputFiles(`${dir}/big.bin`);
    const bar = page.getByRole('progressbar', { name: 'Upload progress of big.bin' });
    await bar.waitFor();
    const done = page.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    const values = await sampleProgress(page, 'Upload progress of big.bin', done);
    await screenshotView(page, 'app-upload-done-1280');
    assert.ok(values.some((v) => v > 0 && v < 100), `intermediate progress seen: ${values.join(',')}`);
    for (let i = 1; i < values.length; i++) assert.ok(values[i]! >= values[i - 1]!, 'progress never goes back');
    assert.equal(await bar.getAttribute('aria-valuenow'), '100');
    await page.locator('[role="row"][data-path="/big.bin"]').waitFor();
    const got = await serverBytes('/big.bin');
    assert.equal(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(content).digest('hex'));
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('reload in the middle of an upload: choosing the file again resumes from where the server stopped', async () => {
    const content = randomBytes(30 * MB);
    writeFileSync(`${dir}/resume.bin`, content);
    const { page, context, problems } = await signedInPage();
    await page.goto(server.url + '/files');
    await throttle(page, 6 * MB);
    await page.getByTestId('upload-files-input').setInputFiles(`${dir}/resume.bin`);
    const bar = page.getByRole('progressbar', { name: 'Upload progress of resume.bin' });
    // Past the first 8 MiB chunk (28 % of 30 MB), so the server holds bytes.
    for (;;) {
      const v = Number((await bar.getAttribute('aria-valuenow')) ?? 0);
      if (v >= 40) break;
      await page.waitForTimeout(100);
    }
    await page.reload();
    // Nothing half-uploaded is shown as a file.
    await page.locator('[role="row"][data-path="/big.bin"]').waitFor();
    assert.equal(await page.locator('[role="row"][data-path="/resume.bin"]').count(), 0);
    const list = await api.get<{ files: unknown[] }>('/api/v4/file?path=/', { token });
    assert.ok(!JSON.stringify(list.body.data.files).includes('resume.bin'), 'no half-uploaded file in the listing');
    await page.getByText('This upload was interrupted', { exact: false }).waitFor();
    await screenshotView(page, 'app-upload-interrupted-1280');
    await page.locator('section[aria-label="Uploads"] input[type="file"]').setInputFiles(`${dir}/resume.bin`);
    const resumed = page.getByTestId('upload-resumed');
    await resumed.waitFor();
    const pct = Number(/(\d+)/.exec(await resumed.innerText())?.[1]);
    assert.ok(pct >= 20, `resumed at ${pct} %, not from the start`);
    await page.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    const got = await serverBytes('/resume.bin');
    assert.ok(got.equals(content), 'the resumed upload has the same bytes');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
