// The API docs page (/api/docs) in a real browser: it renders the routes of
// GET /api/v4/openapi.json and loads nothing from anywhere but this server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/harness.js';
import { browserSkip, launchBrowser, openPage, screenshot } from './support.js';

describe('API docs page', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the operations of the OpenAPI document, with only same-origin requests and no CSP violation', async () => {
    const { page, context, problems, requests } = await openPage(browser);
    try {
      await page.goto(`${server.url}/api/docs`);
      await page.locator('.opblock').first().waitFor();
      const operations = await page.locator('.opblock').count();
      assert.ok(operations >= 40, `the page lists the operations (${operations})`);
      await page.getByText('/api/v4/user/me', { exact: true }).first().waitFor();
      await screenshot(page, 'api-docs');
      const foreign = requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'));
      assert.deepEqual(foreign, [], 'no third-party request');
      assert.deepEqual(problems, [], 'no console error or CSP violation');
    } finally {
      await context.close();
    }
  });
});
