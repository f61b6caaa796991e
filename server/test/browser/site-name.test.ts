// Issue 20: the site name set in the dashboard is what people see, not
// "Cirrus": the sign-in page's brand and title, the header and the page
// titles of the signed-in app.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openPage, screenshot, signInThroughForm } from './support.js';

const SITE = 'Acme Files';

describe('web app: the site name', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await api.patch('/api/v4/admin/settings', { site_name: SITE }, { token: admin });
    assert.equal(res.status, 200, res.text);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the sign-in page, the header and the page titles show the name the administrator chose', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/`);
    await page.getByText(SITE, { exact: true }).first().waitFor();
    await page.waitForFunction((site) => document.title.endsWith(` · ${site}`), SITE);
    assert.doesNotMatch(await page.title(), /Cirrus/);

    await signInThroughForm(page, `${server.url}/files`, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('banner').getByText(SITE, { exact: true }).waitFor();
    await page.waitForFunction((site) => document.title.endsWith(` · ${site}`), SITE);
    await page.goto(`${server.url}/trash`);
    await page.waitForFunction((site) => document.title.endsWith(` · ${site}`), SITE);
    assert.doesNotMatch(await page.title(), /Cirrus/);
    await screenshot(page, 'site-name-header');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
