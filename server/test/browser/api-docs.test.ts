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
      // Swagger UI parses the whole document (about 400 KB) before drawing anything: seconds on a
      // loaded 2-core machine. What is checked here is what it draws, not how fast.
      await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
      // Swagger UI draws a long list (150 tags and operations or more) virtualised: only what is on
      // screen is in the page. Scroll through it and collect every operation drawn on the way.
      const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
      const expected = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).filter((m) => m !== 'parameters').length, 0);
      const seen = new Set<string>();
      for (let step = 0; step < 400; step++) {
        for (const id of await page.locator('.opblock').evaluateAll((els) => els.map((e) => e.id))) seen.add(id);
        const atEnd = await page.evaluate(() => {
          window.scrollBy(0, window.innerHeight / 2);
          return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
        });
        await page.waitForTimeout(30);
        if (atEnd && step > 2) {
          for (const id of await page.locator('.opblock').evaluateAll((els) => els.map((e) => e.id))) seen.add(id);
          break;
        }
      }
      assert.ok(expected >= 40, `the document has the operations (${expected})`);
      assert.equal(seen.size, expected, 'the page draws every operation of the document');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByText('/api/v4/site/ping', { exact: true }).first().waitFor();
      await screenshot(page, 'api-docs');
      const foreign = requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'));
      assert.deepEqual(foreign, [], 'no third-party request');
      assert.deepEqual(problems, [], 'no console error or CSP violation');
    } finally {
      await context.close();
    }
  });
});
