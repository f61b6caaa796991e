// The /device page (RFC 8628 §3.3) in a real browser: a device client
// (oauth4webapi) starts the grant, a person opens verification_uri_complete,
// signs in, confirms the code, sees the consent screen and decides; the
// device's next poll gets the tokens (or access_denied). Desktop in English,
// phone in Simplified Chinese.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { ManualClock } from '../../src/core/clock.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, seriousA11yViolations } from './support.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('web app: the /device page (RFC 8628)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminToken: string;
  let app: { id: string };
  let as: oauth.AuthorizationServer;
  // The device keeps the 5 s interval between its polls: the test moves the clock instead of waiting.
  const clock = new ManualClock();
  const options = { [oauth.allowInsecureRequests]: true };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer({}, { clock });
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Living Room TV', icon: 'device-tv', redirect_uris: ['https://tv.example/cb'], scopes: ['openid', 'offline_access', 'Files.Read'], is_public: true, grant_types: [DEVICE_GRANT, 'refresh_token'] } },
      { token: adminToken },
    );
    assert.equal(res.body.code, 0, res.text);
    app = res.body.data;
    as = await oauth.processDiscoveryResponse(new URL(server.url), await oauth.discoveryRequest(new URL(server.url), { ...options, algorithm: 'oauth2' }));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const start = async () =>
    oauth.processDeviceAuthorizationResponse(as, { client_id: app.id }, await oauth.deviceAuthorizationRequest(as, { client_id: app.id }, oauth.None(), { scope: 'openid offline_access Files.Read' }, options));
  const poll = async (deviceCode: string) => {
    const response = await oauth.deviceCodeGrantRequest(as, { client_id: app.id }, oauth.None(), deviceCode, options);
    try {
      return await oauth.processDeviceCodeResponse(as, { client_id: app.id }, response);
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) return err.error;
      throw err;
    }
  };

  it('desktop, English: verification_uri_complete → sign in → the code filled in → consent naming the app → approved; the device gets tokens', async () => {
    const user = await createUser(api, adminToken, 'tv-owner@example.com', 'tv-owner-password-1');
    const started = await start();
    const { page, context, problems } = await openAppPage(browser, { width: 1280, height: 800 });
    await page.goto(started.verification_uri_complete!);
    await page.getByRole('heading', { name: 'Sign in to connect a device' }).waitFor();
    await page.screenshot({ path: '/tmp/o24-device-1-signin.png' });
    await page.getByLabel('E-mail').fill(user.user.email);
    await page.getByLabel('Password', { exact: true }).fill('tv-owner-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const code = page.getByLabel('Code from your device');
    await code.waitFor();
    assert.equal(await code.inputValue(), started.user_code, 'filled in from verification_uri_complete, not submitted');
    assert.equal(await poll(started.device_code), 'authorization_pending');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Living Room TV wants to access your Cirrus account' }).waitFor();
    await page.getByText(`it shows the code ${started.user_code}`).waitFor();
    await page.screenshot({ path: '/tmp/o24-device-2-consent.png' });
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device connected' }).waitFor();
    await page.screenshot({ path: '/tmp/o24-device-3-done.png' });

    clock.advance(5_000);
    const tokens = await poll(started.device_code);
    assert.ok(typeof tokens !== 'string', `tokens expected, got ${String(tokens)}`);
    assert.equal(tokens.scope, 'openid offline_access Files.Read');
    const me = await api.get<{ id: string }>('/api/v4/user/me', { token: tokens.access_token });
    assert.equal(me.status, 403, 'the token is limited to its scopes (no UserInfo.Read)');
    const info = await api.raw('GET', '/api/v4/session/oauth/userinfo', { token: tokens.access_token });
    assert.equal((info.body as { sub?: string }).sub, user.user.id);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('phone (390×844), 简体中文: a typed code in lower case without the dash, a wrong code first, then deny; the device gets access_denied', async () => {
    const user = await createUser(api, adminToken, 'phone-owner@example.com', 'phone-owner-password-1');
    const started = await start();
    const { page, context, problems } = await openAppPage(browser, { width: 390, height: 844 });
    await context.addInitScript(() => localStorage.setItem('cirrus.lang', 'zh-CN'));
    await page.goto(`${server.url}/device`);
    await page.getByRole('heading', { name: '登录以连接设备' }).waitFor();
    await page.getByLabel('邮箱').fill(user.user.email);
    await page.getByLabel('密码', { exact: true }).fill('phone-owner-password-1');
    await page.locator('button[type="submit"]').click();

    const code = page.getByLabel('设备上的代码');
    await code.waitFor();
    await code.fill('bcdfbcdf');
    assert.equal(await code.inputValue(), 'BCDF-BCDF', 'shown as XXXX-XXXX while typing');
    await page.getByRole('button', { name: '继续' }).click();
    await page.getByText('没有设备在等待此代码').waitFor();

    await code.fill(started.user_code.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: '继续' }).click();
    await page.getByRole('button', { name: '拒绝' }).waitFor();
    await page.screenshot({ path: '/tmp/o24-device-4-phone-consent.png', fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no horizontal scrolling on a phone');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: '拒绝' }).click();
    await page.getByRole('heading', { name: '已拒绝请求' }).waitFor();
    await page.screenshot({ path: '/tmp/o24-device-5-phone-denied.png' });
    assert.equal(await poll(started.device_code), 'access_denied');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
