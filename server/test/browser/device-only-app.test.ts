// Dashboard → OAuth Apps → New OAuth App for an app that uses only the device
// grant (RFC 8628): the form asks for no redirect URI, the app is created
// without one and can start the device flow; an app with the authorization
// code grant still needs one. Checked with axe-core and screenshots at desktop
// and phone sizes, in English and Chinese.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, PHONE, screenshotView, seriousA11yViolations } from './support.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';

describe('a device-grant-only OAuth app in the dashboard form (browser)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminPair: TokenPair;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    adminPair = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const asAdmin = async (page: Page, lang = 'en') => {
    await page.goto(server.url + '/');
    await page.evaluate(
      ([p, l]) => {
        localStorage.setItem('cirrus.session', p);
        localStorage.setItem('cirrus.lang', l);
      },
      [JSON.stringify(adminPair), lang] as const,
    );
  };

  it('RFC 8628 §3.1: with only the device grant ticked, the app is created without a redirect URI and starts the device flow', async () => {
    const { page, context, problems } = await openAppPage(browser);
    await asAdmin(page);
    await page.goto(server.url + '/admin/apps/new');
    await page.getByRole('heading', { name: 'New OAuth App' }).waitFor();
    await page.getByLabel('App Name').fill('Living-room TV');
    await page.getByLabel('App Icon').fill('device-tv');
    await page.getByRole('checkbox', { name: /^openid / }).check();
    await page.getByRole('checkbox', { name: /^Public client/ }).check();
    await page.getByRole('checkbox', { name: /^Authorization code/ }).uncheck();
    await page.getByRole('checkbox', { name: /^Refresh tokens/ }).uncheck();
    await page.getByRole('checkbox', { name: /^Device code/ }).check();
    // The field is no longer required, and says why.
    const redirects = page.getByLabel('Redirect URIs');
    assert.equal(await redirects.getAttribute('required'), null);
    await page.getByText(/^Not needed: without the authorization code grant/).waitFor();
    await screenshotView(page, 'device-only-app-form-desktop');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.waitForURL(/\/admin\/apps\/[0-9a-f-]{36}/);
    const id = /\/admin\/apps\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const saved = await api.get<{ redirect_uris: string[]; grant_types: string[] }>(`/api/v4/admin/oauthClient/${id}`, { token: adminPair.access_token });
    assert.deepEqual(saved.body.data.redirect_uris, []);
    assert.deepEqual(saved.body.data.grant_types, [DEVICE]);
    const started = await api.raw('POST', '/api/v4/session/oauth/device_authorization', { form: { client_id: id, scope: 'openid' } });
    assert.equal(started.status, 200, started.text);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('RFC 6749 §3.1.2: with the authorization code grant, an empty redirect URI list is still refused beside the field', async () => {
    const { page, context } = await openAppPage(browser);
    await asAdmin(page);
    await page.goto(server.url + '/admin/apps/new');
    await page.getByLabel('App Name').fill('Web App');
    await page.getByLabel('App Icon').fill('world');
    await page.getByRole('checkbox', { name: /^openid / }).check();
    assert.equal(await page.getByLabel('Redirect URIs').getAttribute('required'), '');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText('Enter at least one redirect URI.').waitFor();
    assert.match(page.url(), /\/admin\/apps\/new$/);
    await context.close();
  });

  it('the form for a device-only app has no serious axe-core violation at 1280×800 and 390×844, in English and Chinese', async () => {
    for (const [device, size] of [[{ viewport: { width: 1280, height: 800 } }, 'desktop'], [PHONE, 'phone']] as const) {
      for (const lang of ['en', 'zh-CN']) {
        const context = await browser.newContext({ ...device, colorScheme: 'light' });
        const page = await context.newPage();
        await asAdmin(page, lang);
        await page.goto(server.url + '/admin/apps/new');
        await page.locator('main h1').first().waitFor();
        const grant = lang === 'en' ? /^Authorization code/ : /授权码/;
        await page.getByRole('checkbox', { name: grant }).uncheck();
        await page.getByLabel('Redirect URIs').scrollIntoViewIfNeeded();
        assert.deepEqual(await seriousA11yViolations(page), [], `${lang} at ${size}`);
        await screenshotView(page, `device-only-app-form-${lang}-${size}`);
        await context.close();
      }
    }
  });
});
