// The file list in the browser shows names in the server's natural,
// case-insensitive order (issue 23, item 7): file2 before file10.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshot, signInThroughForm } from './support.js';

describe('web app: natural order of names', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists file2 before file10, and Beta between alpha and gamma', async () => {
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const email = `natural-${process.pid}@example.com`;
    const { token } = await createUser(api, admin, email, 'natural-password-1');
    for (const name of ['file10', 'gamma', 'file2', 'Beta', 'file1', 'alpha']) {
      const res = await api.post('/api/v4/file/create', { path: `/list/${name}`, type: 'file' }, { token: token.access_token });
      assert.equal(res.status, 200, res.text);
    }
    const { page, context, problems } = await openAppPage(browser);
    await signInThroughForm(page, server.url + '/files/list', email, 'natural-password-1');
    const rows = page.locator('[role="row"][data-path]');
    await rows.first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[role="row"][data-path]').length >= 6);
    const paths = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));
    assert.deepEqual(paths, ['/list/alpha', '/list/Beta', '/list/file1', '/list/file2', '/list/file10', '/list/gamma']);
    await screenshot(page, 'natural-order');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
