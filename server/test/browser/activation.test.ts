// Sign-up with activation in the browser: signing in before activation
// explains why and sends the link again; the link activates and signs in;
// Settings → Profile shows the address as verified.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { browserSkip, expectSignedIn, launchBrowser, openPage } from './support.js';

const PASSWORD = 'violet-harbor-lantern-42';

describe('web app: sign-up with activation', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let smtp: MailCatcher;

  before(async () => {
    browser = await launchBrowser();
    smtp = await MailCatcher.start();
    server = await startServer({ ...smtp.env, CIRRUS_SIGNUP_EMAIL_VERIFICATION: 'true' });
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: admin });
    assert.equal((await api.post('/api/v4/user', { email: 'fresh@example.com', password: PASSWORD })).status, 200);
    await smtp.waitFor('fresh@example.com');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  it('40018 at sign-in with "send again"; the new link activates and signs in; the address shows as verified', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill('fresh@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Your account is not activated yet').waitFor();
    await page.getByRole('button', { name: 'Send the activation link again' }).click();
    await page.getByText(/a new link is on its way/).waitFor();
    const second = await smtp.waitFor('fresh@example.com', 2);
    await page.goto(linkIn(second, '/activate').toString());
    await page.getByText('Your account is active').waitFor();
    await page.screenshot({ path: '/tmp/cirrus-a20-activated.png' });
    await page.getByRole('button', { name: 'Open my files' }).click();
    await expectSignedIn(page, 'fresh@example.com');
    await page.goto(server.url + '/settings/profile');
    await page.getByText('Verified', { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/cirrus-a20-profile.png' });
    // The one 403 is the sign-in's 40018 answer itself, which the browser logs.
    assert.deepEqual(problems.filter((p) => !/status of 403/.test(p)), []);
    await context.close();
  });

  it('the sign-in page links to sign-up while it is open; sign-up shows the strength and asks to open the mailed link', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('E-mail').fill('browser-signup@example.com');
    await page.getByLabel('Password', { exact: true }).fill('qwertyuiop');
    await page.getByText(/too easy to guess/).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByText(/Strength: (strong|very strong)/).waitFor();
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByText(/We sent a link to browser-signup@example\.com/).waitFor();
    linkIn(await smtp.waitFor('browser-signup@example.com'), '/activate');
    await context.close();
  });
});
