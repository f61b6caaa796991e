// The settings' WebDAV section in a real browser: create an account (name,
// folder, read-only), see its password once and use it over WebDAV, then
// delete it and see the device cut off.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { basicHeader, dav } from '../webdav/helpers.js';
import { browserSkip, expectSignedIn, launchBrowser, openPage, screenshot } from './support.js';

describe('web app: WebDAV accounts in the settings', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a read-only account for a folder, shows the password once, and deletes it', async () => {
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const email = 'dav-ui@example.com';
    const { token } = await createUser(api, admin, email, 'dav-ui-password-1');
    await api.post('/api/v4/file/create', { path: '/Photos', type: 'folder' }, { token: token.access_token });
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('dav-ui-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectSignedIn(page, email);
    await page.goto(server.url + '/settings/webdav');
    await page.getByText('No WebDAV accounts yet.').waitFor();
    await page.getByLabel('Device name').fill('Camera');
    await page.getByLabel('Folder').fill('/Photos');
    await page.getByRole('switch', { name: 'Read-only' }).check({ force: true });
    await page.getByRole('button', { name: 'Create account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('it is shown only once').waitFor();
    const password = (await dialog.locator('[data-field="Password"]').innerText()).trim();
    assert.match(password, /^[A-Za-z0-9_-]{32,}$/);
    assert.equal((await dialog.locator('[data-field="User name"]').innerText()).trim(), email);
    await screenshot(page, 'settings-dav-password');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const card = page.locator('[data-dav-account]');
    await card.getByText('Camera').waitFor();
    await card.getByText('read-only').waitFor();
    await card.getByText('Folder /Photos').waitFor();
    await screenshot(page, 'settings-dav-list');
    // The password works on /dav/, sees only the folder, and cannot write.
    const auth = basicHeader(email, password);
    assert.equal((await dav(server, 'PROPFIND', '/dav/', auth, { headers: { depth: '0' } })).status, 207);
    assert.equal((await dav(server, 'PUT', '/dav/x.txt', auth, { body: 'x' })).status, 403);
    // It is not shown again.
    await page.reload();
    await card.getByText('Camera').waitFor();
    assert.equal(await page.getByText(password).count(), 0);
    await page.getByRole('button', { name: 'Delete the WebDAV account Camera' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No WebDAV accounts yet.').waitFor();
    assert.equal((await dav(server, 'PROPFIND', '/dav/', auth, { headers: { depth: '0' } })).status, 401);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
