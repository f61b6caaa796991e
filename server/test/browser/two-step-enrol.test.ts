// Turning on two-step verification from Settings → Security, as a person does
// it: the 6-digit boxes take the focus, and after "Confirm" the ten recovery
// codes stay on the page (copy, download) until the person says they saved
// them; only then does the page show how many are left. Desktop and phone,
// English and Chinese, axe on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, currentStep, launchBrowser, seriousA11yViolations, signInThroughForm, totp } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const PASSWORD = 'amber-quiet-meadow-71';

describe('web app: turning on two-step verification', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    for (const v of VIEWPORTS) await createUser(api, admin, `enrol-${v.name}@example.com`, PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: the recovery codes are shown once, with copy and download, until "I have saved them"`, async () => {
      const email = `enrol-${v.name}@example.com`;
      const { context, page, problems } = await openIn(browser, v);
      await signInThroughForm(page, server.url + '/settings/security', email, PASSWORD);
      await page.getByRole('button', { name: 'Turn on' }).click();
      const secret = (await page.getByTestId('totp-secret').innerText()).trim();
      // The first box has the focus: typing the code needs no click.
      await page.getByRole('img', { name: /QR code/ }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('mantine-PinInput-input') ?? false), true, 'the first code box has the focus');
      await page.keyboard.type(totp(secret, currentStep()));
      await page.getByRole('button', { name: 'Confirm' }).click();

      const shown = page.getByTestId('recovery-codes');
      await shown.waitFor();
      // Still there after the session reload that follows the change.
      await page.waitForTimeout(1000);
      const codes = (await shown.innerText()).split(/\s+/).filter(Boolean);
      assert.equal(codes.length, 10, 'ten codes on the page');
      await page.getByRole('button', { name: 'Copy codes' }).waitFor();
      assert.equal(await page.getByText(/recovery codes left/).count(), 0, 'the count waits until the codes are saved');
      assert.equal(await page.getByRole('button', { name: 'Turn off' }).count(), 0, 'nothing else to do until the codes are saved');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download' }).click();
      assert.equal((await download).suggestedFilename(), 'cirrus-recovery-codes.txt');
      await shot(page, `two-step-codes-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the codes shown');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText('10 recovery codes left.').waitFor();
      assert.equal(await shown.count(), 0, 'shown once');

      // A code from the page signs in.
      const started = await api.post('/api/v4/session/token', { email, password: PASSWORD });
      assert.equal((await api.post('/api/v4/session/token/2fa', { otp: codes[0], session_id: started.body.data })).body.code, 0);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('in Chinese on a phone: the codes and their buttons read in Chinese', async () => {
    const v = VIEWPORTS[1];
    const email = 'enrol-zh@example.com';
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await createUser(api, admin, email, PASSWORD);
    const { context, page, problems } = await openIn(browser, v, 'zh-CN');
    await page.goto(server.url + '/settings/security');
    await page.getByLabel('邮箱').fill(email);
    await page.locator('input[type="password"]').first().fill(PASSWORD);
    await page.locator('button[type="submit"]').first().click();
    await page.getByRole('button', { name: '开启' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByRole('img').first().waitFor();
    await page.keyboard.type(totp(secret, currentStep()));
    await page.getByRole('button', { name: '确认' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.waitForTimeout(800);
    assert.equal((await page.getByTestId('recovery-codes').innerText()).split(/\s+/).filter(Boolean).length, 10);
    await shot(page, 'two-step-codes-phone-zh');
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
