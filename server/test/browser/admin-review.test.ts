// Dashboard details a new administrator meets (issue 38): a new group starts
// from the default group's storage quota (finding 8), and an account waiting
// for activation reads as such in Users and stays waiting when its other
// fields are saved (finding 9). Desktop and phone, English and Chinese, axe.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot } from './viewports.js';

const PASSWORD = 'quiet-lantern-harbor-58';

interface AdminUser {
  id: string;
  email: string;
  status: string;
  nickname: string;
}

describe('web app: dashboard groups and users for a new administrator', { skip: browserSkip }, () => {
  let server: TestServer;
  let smtp: MailCatcher;
  let browser: Browser;
  let api: Api;
  let adminPair: TokenPair;

  const asAdmin = async (page: Page, lang: string) => {
    await page.goto(server.url + '/assets-none');
    await page.evaluate(([session, code]) => {
      localStorage.setItem('cirrus.session', session);
      localStorage.setItem('cirrus.lang', code);
    }, [JSON.stringify(adminPair), lang] as const);
  };

  before(async () => {
    browser = await launchBrowser();
    smtp = await MailCatcher.start();
    server = await startServer({ ...smtp.env, CIRRUS_SIGNUP_EMAIL_VERIFICATION: 'true' });
    api = new Api(server.url);
    adminPair = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    await api.patch('/api/v4/admin/settings', { signup_enabled: true }, { token: adminPair.access_token });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: "Create group" starts from the default group's quota, so its members can upload`, async () => {
      const token = adminPair.access_token;
      const settings = (await api.get<{ default_group_id: number }>('/api/v4/admin/settings', { token })).body.data;
      const groups = (await api.get<{ id: number; storage_quota: number }[]>('/api/v4/admin/group', { token })).body.data;
      const base = groups.find((g) => g.id === settings.default_group_id)!;
      assert.ok(base.storage_quota > 0);
      const { context, page, problems } = await openIn(browser, v);
      await asAdmin(page, 'en');
      await page.goto(server.url + '/admin/groups');
      await press(v, page.getByRole('button', { name: 'Create group' }).first());
      const dialog = page.getByRole('dialog');
      const name = `Editors ${v.name}`;
      await dialog.getByLabel('Name').fill(name);
      await page.waitForTimeout(300);
      await shot(page, `admin-new-group-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await press(v, dialog.getByRole('button', { name: 'Create group' }));
      await dialog.waitFor({ state: 'detached' });
      const made = (await api.get<{ name: string; storage_quota: number }[]>('/api/v4/admin/group', { token })).body.data.find((g) => g.name === name);
      assert.equal(made?.storage_quota, base.storage_quota, 'the new group has the default group\'s quota');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  for (const [v, lang, waiting] of [[VIEWPORTS[0], 'en', 'Waiting for activation'], [VIEWPORTS[1], 'zh-CN', '等待激活']] as const) {
    it(`${v.name}, ${lang}: an account waiting for activation says so, and saving a nickname keeps it waiting`, async () => {
      const email = `waiting-${v.name}@example.com`;
      const up = await api.post('/api/v4/user', { email, password: PASSWORD });
      assert.equal(up.status, 200, up.text);
      const { context, page, problems } = await openIn(browser, v, lang === 'en' ? 'en-US' : 'zh-CN');
      await asAdmin(page, lang);
      await page.goto(server.url + '/admin/users');
      await page.getByText(waiting).first().waitFor();
      assert.equal(await page.getByText('admin.users.inactive').count(), 0, 'no raw key');
      await press(v, page.getByRole('button', { name: new RegExp(email.replace('.', '\\.')) }).first());
      const edit = page.getByRole('menuitem').first();
      await press(v, edit);
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel(lang === 'en' ? 'Status' : '状态', { exact: true }).first().inputValue(), waiting);
      await dialog.getByLabel(lang === 'en' ? 'Nickname' : '昵称', { exact: true }).fill('Newcomer');
      await shot(page, `admin-user-waiting-${v.name}-${lang}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await press(v, dialog.getByRole('button', { name: lang === 'en' ? 'Save' : '保存' }));
      await dialog.waitFor({ state: 'detached' });
      const users = (await api.post<{ users: AdminUser[] }>('/api/v4/admin/user', { page_size: 100 }, { token: adminPair.access_token })).body.data.users;
      const saved = users.find((u) => u.email === email)!;
      assert.equal(saved.nickname, 'Newcomer');
      assert.equal(saved.status, 'inactive', 'still waiting for the mail to be confirmed');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
