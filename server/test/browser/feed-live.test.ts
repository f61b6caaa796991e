// The open folder follows the change feed (issue 21): two browser contexts
// (two devices) on the same folder; a file uploaded in one appears in the
// other within 2 s without a reload, and so do another client's upload,
// rename and delete made through the API.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, type WatchedPage } from './support.js';

describe('web app: live folder listing', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let token: string;
  const email = `live-${process.pid}@example.com`;
  const dir = `/tmp/cirrus-feed-test-${process.pid}`;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, email)).token.access_token;
    await api.post('/api/v4/file/create', { path: '/Shared work', type: 'folder' }, { token });
    mkdirSync(dir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A context of its own (another device), signed in with its own session, on the folder. */
  async function device(): Promise<WatchedPage> {
    const opened = await openAppPage(browser);
    const pair = (await signIn(api, email, 'user-password-123')).token;
    await opened.page.goto(server.url + '/');
    await opened.page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
    await opened.page.goto(`${server.url}/files/Shared%20work`);
    await opened.page.getByText('This folder is empty').waitFor();
    return opened;
  }

  /** Milliseconds until `name` is listed on `page` (or gone, with `gone`), at most 2 s. */
  async function within2s(page: Page, name: string, gone = false): Promise<number> {
    const started = Date.now();
    const row = page.getByText(name, { exact: true });
    await (gone ? row.waitFor({ state: 'detached', timeout: 2000 }) : row.first().waitFor({ timeout: 2000 }));
    return Date.now() - started;
  }

  it('an upload in one context appears in the other within 2 s, without a reload; so do API changes', async () => {
    const one = await device();
    const two = await device();
    let navigations = 0;
    two.page.on('framenavigated', (frame) => {
      if (frame === two.page.mainFrame()) navigations++;
    });
    // Give both streams a moment to open.
    await one.page.waitForTimeout(300);
    writeFileSync(`${dir}/notes.txt`, 'from device one');
    await one.page.getByTestId('upload-files-input').setInputFiles(`${dir}/notes.txt`);
    await one.page.getByText('notes.txt', { exact: true }).first().waitFor({ timeout: 15_000 });
    const upload = await within2s(two.page, 'notes.txt');
    // Another client (a sync tool, an app) changes the folder.
    await api.call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/Shared work/from-api.txt')}`, { token, body: 'x', headers: { 'content-type': 'application/octet-stream' } });
    const put = Math.max(await within2s(two.page, 'from-api.txt'), await within2s(one.page, 'from-api.txt'));
    await api.post('/api/v4/file/rename', { path: '/Shared work/from-api.txt', new_name: 'renamed.txt' }, { token });
    const rename = await within2s(two.page, 'renamed.txt');
    await within2s(two.page, 'from-api.txt', true);
    await api.delete('/api/v4/file', { paths: ['/Shared work/renamed.txt'] }, { token });
    const removed = await within2s(two.page, 'renamed.txt', true);
    console.log(`# shown in the other context after: upload ${upload} ms, API upload ${put} ms, rename ${rename} ms, delete ${removed} ms`);
    assert.equal(navigations, 0, 'no reload');
    await screenshotView(two.page, 'feed-live-other-device');
    assert.deepEqual([...one.problems, ...two.problems], []);
    await one.context.close();
    await two.context.close();
  });
});
