// The whole forgotten-password flow in a real browser, with a real SMTP
// server: "Forgot password?" on the sign-in page, the mail, the link, a new
// password (its strength shown), signed in; the same link again says it no
// longer works and offers a new one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher, linkIn } from '../helpers/mail.js';
import { browserSkip, expectSignedIn, launchBrowser, openPage } from './support.js';

const SHOTS = '/tmp/cirrus-a20';

describe('web app: forgotten password', { skip: browserSkip }, () => {
  let server: TestServer;
  let bare: TestServer;
  let api: Api;
  let browser: Browser;
  let smtp: MailCatcher;

  before(async () => {
    browser = await launchBrowser();
    smtp = await MailCatcher.start();
    server = await startServer(smtp.env);
    bare = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await createUser(api, admin, 'grace@example.com', 'violet-harbor-lantern-42');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await bare?.close();
    await smtp?.stop();
  });

  it('from "Forgot password?" to signed in with the new password; the used link then says so and offers a new one', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    assert.equal(await page.getByLabel('E-mail').inputValue(), 'grace@example.com', 'the address typed on the sign-in page is kept');
    await page.screenshot({ path: `${SHOTS}-forgot.png` });
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('Check your mail').waitFor();

    const mail = await smtp.waitFor('grace@example.com');
    const link = linkIn(mail, '/reset');
    await page.goto(link.toString());
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('password1');
    await page.getByText(/too easy to guess/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save the new password' }).isDisabled(), true, 'a weak password cannot be sent');
    await page.getByLabel('New password', { exact: true }).fill('copper-meadow-whistle-97');
    await page.getByLabel('Repeat the new password').fill('copper-meadow-whistle-97');
    await page.getByText(/Strength: (strong|very strong)/).waitFor();
    await page.screenshot({ path: `${SHOTS}-reset.png` });
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Password changed').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel('Password', { exact: true }).fill('copper-meadow-whistle-97');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectSignedIn(page, 'grace@example.com');

    // The link is single-use: opened again it says so and offers a new one.
    await page.goto(link.toString());
    await page.getByText('This link no longer works').waitFor();
    await page.screenshot({ path: `${SHOTS}-dead-link.png` });
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a site without mail offers no "Forgot password?"', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(bare.url + '/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The site config has arrived (no request left in flight) before looking for the link.
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('link', { name: 'Forgot password?' }).count(), 0);
    await context.close();
  });

  it('on a phone-sized screen (390×844) the reset page fits', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(server.url + '/forgot');
    await page.getByRole('button', { name: 'Send me a link' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false);
    await page.screenshot({ path: `${SHOTS}-forgot-phone.png` });
    await context.close();
  });
});
