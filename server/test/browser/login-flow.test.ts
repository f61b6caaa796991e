// Login Flow v2 (api-contract §14) end to end in Chromium: a sync client
// (plain HTTP, as the Nextcloud desktop client sends it) starts the flow, a
// person opens the login URL, signs in, sees "Grant access to <client>?" and
// grants; the client's poll then gets credentials that work on /remote.php/dav/.
// Desktop in English; phone in Simplified Chinese with Cancel; an unknown
// flow is a page in the person's language.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { basicHeader, dav } from '../webdav/helpers.js';
import { browserSkip, fillSignInForm, launchBrowser, openAppPage, screenshotView, seriousA11yViolations } from './support.js';

const DESKTOP_UA = 'Mozilla/5.0 (Linux) mirall/3.13.0 (Nextcloud, debian ClientArchitecture: x86_64 OsArchitecture: x86_64)';

describe('web app: Login Flow v2 grant page', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminToken: string;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const start = async () => {
    const res = await api.raw('POST', '/index.php/login/v2', { headers: { 'user-agent': DESKTOP_UA } });
    assert.equal(res.status, 200, res.text);
    return res.body as { poll: { token: string; endpoint: string }; login: string };
  };
  const poll = (token: string) => api.raw('POST', '/index.php/login/v2/poll', { form: { token } });

  it('desktop, English: the login URL → sign in → "Grant access to Nextcloud desktop (Linux)?" → granted; the client polls once and syncs', async () => {
    const user = await createUser(api, adminToken, 'laptop-owner@example.com', 'laptop-owner-password-1');
    const flow = await start();
    const { page, context, problems } = await openAppPage(browser, { width: 1280, height: 800 });
    await page.goto(flow.login);
    await page.getByRole('heading', { name: 'Sign in to connect your sync client' }).waitFor();
    await fillSignInForm(page, user.user.email, 'laptop-owner-password-1');

    await page.getByRole('heading', { name: 'Grant access to Nextcloud desktop (Linux)?' }).waitFor();
    assert.equal((await poll(flow.poll.token)).status, 404, 'nothing for the client before the grant');
    await screenshotView(page, 'login-flow-grant-1280-en');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.getByRole('heading', { name: 'Access granted' }).waitFor();
    await screenshotView(page, 'login-flow-granted-1280-en');

    const got = await poll(flow.poll.token);
    assert.equal(got.status, 200, got.text);
    const creds = got.body as { server: string; loginName: string; appPassword: string };
    assert.equal(creds.loginName, user.user.email);
    assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${user.user.id}/`, basicHeader(creds.loginName, creds.appPassword), { headers: { depth: '0' } })).status, 207);
    assert.equal((await poll(flow.poll.token)).status, 404);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('phone (390×844), 简体中文: the grant page, then Cancel; an unknown flow says so in Chinese', async () => {
    const user = await createUser(api, adminToken, 'phone-owner@example.com', 'phone-owner-password-1');
    const flow = await start();
    const { page, context, problems } = await openAppPage(browser, { width: 390, height: 844 });
    await context.addInitScript(() => localStorage.setItem('cirrus.lang', 'zh-CN'));
    await page.goto(flow.login);
    await page.getByRole('heading', { name: '登录以连接您的同步客户端' }).waitFor();
    await page.getByLabel('邮箱').fill(user.user.email);
    await page.getByLabel('密码', { exact: true }).fill('phone-owner-password-1');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('heading', { name: '允许 Nextcloud desktop (Linux) 访问？' }).waitFor();
    await screenshotView(page, 'login-flow-grant-390-zh');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no horizontal scrolling on a phone');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByRole('heading', { name: '已取消登录' }).waitFor();
    assert.equal((await poll(flow.poll.token)).status, 404);

    await page.goto(`${server.url}/index.php/login/v2/flow/nosuchflow`);
    await page.getByRole('heading', { name: '此登录请求不存在或已过期' }).waitFor();
    await screenshotView(page, 'login-flow-gone-390-zh');
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
    await context.close();
  });
});
