// Two-step recovery codes in the browser: the code field has the focus on
// the second step; "Use a recovery code" signs in with one; Settings →
// Security makes a new set (password asked) and shows it once, with copy and
// download.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, currentStep, expectSignedIn, launchBrowser, openPage, totp } from './support.js';

const PASSWORD = 'violet-harbor-lantern-42';

describe('web app: two-step recovery codes', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let codes: string[];

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const u = await createUser(api, admin, 'lost-phone@example.com', PASSWORD);
    const secret = (await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: u.token.access_token })).body.data.secret;
    const on = await api.put<{ recovery_codes: string[] }>('/api/v4/user/setting/2fa', { otp: totp(secret, currentStep() - 1) }, { token: u.token.access_token });
    codes = on.body.data.recovery_codes;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in with a recovery code, then makes a new set in Settings → Security', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url + '/files');
    await page.getByLabel('E-mail').fill('lost-phone@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Verification code');
    await codeField.waitFor();
    assert.equal(await codeField.evaluate((el) => el === document.activeElement), true, 'the code field has the focus');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    const recovery = page.getByLabel('Recovery code');
    await recovery.waitFor();
    assert.equal(await recovery.evaluate((el) => el === document.activeElement), true);
    await recovery.fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page, 'lost-phone@example.com');

    await page.goto(server.url + '/settings/security');
    await page.getByText('9 recovery codes left.').waitFor();
    await page.getByRole('button', { name: 'New recovery codes' }).click();
    await page.getByRole('form', { name: 'New recovery codes' }).getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('form', { name: 'New recovery codes' }).getByRole('button', { name: 'New recovery codes' }).click();
    const shown = page.getByTestId('recovery-codes');
    await shown.waitFor();
    const fresh = (await shown.innerText()).split(/\s+/).filter(Boolean);
    assert.equal(fresh.length, 10);
    await page.getByRole('button', { name: 'Copy codes' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    assert.equal((await download).suggestedFilename(), 'cirrus-recovery-codes.txt');
    await page.screenshot({ path: '/tmp/cirrus-a20-recovery.png', fullPage: true });
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 recovery codes left.').waitFor();
    // The old set is void, the new one works.
    const old = await api.post('/api/v4/session/token', { email: 'lost-phone@example.com', password: PASSWORD });
    assert.equal((await api.post('/api/v4/session/token/2fa', { otp: codes[1], session_id: old.body.data })).body.code, 40022);
    const next = await api.post('/api/v4/session/token', { email: 'lost-phone@example.com', password: PASSWORD });
    assert.equal((await api.post('/api/v4/session/token/2fa', { otp: fresh[0], session_id: next.body.data })).body.code, 0);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
