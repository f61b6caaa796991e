// The notifications bell (issue 37): its unread count changes live when a
// notification is raised (a folder shared through the API while the page is
// open), the panel lists it and opens its subject, "mark all read" clears
// the count, and Settings → Notifications saves a per-kind choice. In English
// at 1280×800 and in Chinese at 390×844, axe clean; screenshots in
// test-artifacts/. SQLite only: the stream's cross-instance path is the
// HTTP tests' subject (notifications-instances), nothing here depends on
// the database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, seriousA11yViolations } from './support.js';

const WORDS = {
  en: { bell: 'Notifications', unread: (n: number) => `Notifications, ${n} unread`, markAll: 'Mark all read', shared: /shared “Plans-en” with you/, prefs: 'E-mail for “Shared with me”', daily: 'Daily summary', tab: 'Notifications' },
  'zh-CN': { bell: '通知', unread: (n: number) => `通知，${n} 条未读`, markAll: '全部标为已读', shared: /与你共享了“Plans-zh-CN”/, prefs: '“与我共享”的电子邮件', daily: '每日摘要', tab: '通知' },
} as const;

describe('web app: notifications', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const signInAs = async (page: Page, pair: TokenPair, lang: string, path: string) => {
    await page.goto(server.url + '/assets-none');
    await page.evaluate(([session, code]) => {
      localStorage.setItem('cirrus.session', session);
      localStorage.setItem('cirrus.lang', code);
    }, [JSON.stringify(pair), lang] as const);
    await page.goto(server.url + path);
  };

  for (const [lang, viewport, label] of [['en', { width: 1280, height: 800 }, '1280-en'], ['zh-CN', { width: 390, height: 844 }, '390-zh']] as const) {
    it(`${label}: the bell counts live, lists, opens the subject, marks all read; preferences save`, async () => {
      const w = WORDS[lang];
      const tag = `${label}-${process.pid}-${Date.now()}`;
      const alice = await createUser(api, admin, `nb-alice-${tag}@example.com`);
      const bob = await createUser(api, admin, `nb-bob-${tag}@example.com`);
      const share = async (name: string) => {
        assert.equal((await api.post('/api/v4/file/create', { path: `/${name}`, type: 'folder' }, { token: alice.token.access_token })).status, 200);
        const res = await api.put('/api/v4/file/access', { path: `/${name}`, user: bob.user.email, permission: 'read' }, { token: alice.token.access_token });
        assert.equal(res.status, 200, res.text);
      };
      const { page, context, problems } = await openAppPage(browser, viewport);
      await signInAs(page, bob.token, lang, '/files');
      await page.getByRole('button', { name: w.bell, exact: true }).waitFor();
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      // The stream opens a moment after the page (useNotificationStream.ts).
      await page.waitForTimeout(2000);
      const started = Date.now();
      await share(`Plans-${lang}`);
      await page.getByRole('button', { name: w.unread(1), exact: true }).waitFor({ timeout: 3000 });
      console.log(`# ${label}: the bell showed the share after ${Date.now() - started} ms`);
      assert.equal(navigations, 0, 'no reload');
      await screenshotView(page, `notifications-bell-${label}`);

      await page.getByRole('button', { name: w.unread(1), exact: true }).click();
      const item = page.getByRole('list', { name: w.bell, exact: true }).getByRole('button', { name: w.shared });
      await item.waitFor();
      // The panel fades in: the screenshot shows it settled.
      await page.waitForTimeout(400);
      await screenshotView(page, `notifications-panel-${label}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the panel open');
      await page.getByRole('button', { name: w.markAll }).click();
      await page.getByRole('button', { name: w.bell, exact: true }).waitFor();
      assert.equal((await api.get<{ unread: number }>('/api/v4/notifications', { token: bob.token.access_token })).body.data.unread, 0);
      // Closed by the bell, as it was opened.
      await page.getByRole('button', { name: w.bell, exact: true }).click();
      await page.getByRole('list', { name: w.bell, exact: true }).waitFor({ state: 'detached' });

      // Another one, opened from the panel: it leads to its subject and is read.
      await share(`More-${lang}`);
      await page.getByRole('button', { name: w.unread(1), exact: true }).waitFor();
      // Let the refresh the event started settle before opening the panel.
      await page.waitForTimeout(500);
      await page.getByRole('button', { name: w.unread(1), exact: true }).click();
      const more = page.getByRole('list', { name: w.bell, exact: true }).getByRole('button', { name: new RegExp(`More-${lang}`) });
      await more.waitFor();
      await page.waitForTimeout(400);
      await more.click();
      await page.waitForURL(/\/shared$/);
      await page.getByRole('button', { name: w.bell, exact: true }).waitFor();

      // The preferences.
      await page.goto(`${server.url}/settings/notifications`);
      const select = page.getByRole('combobox', { name: w.prefs, exact: true });
      await select.waitFor();
      await select.click();
      await page.getByRole('option', { name: w.daily }).click();
      for (let i = 0; i < 50; i++) {
        const prefs = await api.get<Record<string, { email: string }>>('/api/v4/user/setting/notifications', { token: bob.token.access_token });
        if (prefs.body.data.shared_with_me!.email === 'daily') break;
        await page.waitForTimeout(100);
      }
      assert.equal((await api.get<Record<string, { email: string }>>('/api/v4/user/setting/notifications', { token: bob.token.access_token })).body.data.shared_with_me!.email, 'daily');
      await page.keyboard.press('Escape');
      await screenshotView(page, `notifications-settings-${label}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on Settings → Notifications');

      await page.goto(`${server.url}/notifications`);
      await page.getByRole('list', { name: w.bell, exact: true }).getByRole('button', { name: w.shared }).waitFor();
      await screenshotView(page, `notifications-page-${label}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on /notifications');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
