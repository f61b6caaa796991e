// An LDAP directory added in the Dashboard, then signing in with a directory
// login in the browser (api-contract §15), against a real slapd
// (identity/slapd.ts). The administrator adds the directory through
// Settings → Sign-in providers with a wrong bind password: Test shows the
// directory's own error at the bind step; the password corrected (the field is
// write-only, the stored one is never sent to the page), Test shows the bind and
// the user search that worked. Once enabled, GET /site/config says so
// (directory_sign_in) and the sign-in form's first field takes "E-mail or user
// name" without the browser's e-mail format check, so a person types their uid.
// English on a 1280×800 desktop, Chinese on a 390×844 phone; axe-core on the
// dialog, the results and the sign-in form; screenshots under /tmp.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { slapdSkip, startSlapd, type Slapd } from '../identity/slapd.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const PEOPLE = [
  { uid: 'ana', mail: 'ana@example.org', cn: 'Ana Directory', password: 'ana-directory-pw' },
  { uid: 'zhou', mail: 'zhou@example.org', cn: 'Zhou Directory', password: 'zhou-directory-pw' },
];

describe('web app: signing in with a directory login (LDAP)', { skip: browserSkip || slapdSkip }, () => {
  let server: TestServer;
  let dir: Slapd;
  let browser: Browser;
  let api: Api;

  const directorySignIn = async () => (await api.get<{ directory_sign_in: boolean }>('/api/v4/site/config')).body.data.directory_sign_in;

  before(async () => {
    [server, dir, browser] = await Promise.all([startServer(), startSlapd({ people: PEOPLE, groups: [] }), launchBrowser()]);
    api = new Api(server.url);
    assert.equal(await directorySignIn(), false, 'no directory yet');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await dir?.close();
  });

  const LANGS = [
    {
      locale: 'en-US',
      screen: VIEWPORTS[0],
      field: 'E-mail or user name',
      adminField: 'E-mail',
      password: 'Password',
      submit: 'Sign in',
      menu: 'Account menu',
      bindPassword: 'Bind password',
      edit: 'Edit Directory',
      test: 'Test Directory',
      failed: 'The test failed',
      worked: 'The provider answered',
      kept: 'A secret is stored and never shown. Leave empty to keep it.',
      save: 'Save',
    },
    {
      locale: 'zh-CN',
      screen: VIEWPORTS[1],
      field: '邮箱或用户名',
      adminField: '邮箱或用户名',
      password: '密码',
      submit: '登录',
      menu: '账户菜单',
      bindPassword: '绑定密码',
      edit: '编辑 Directory',
      test: '测试 Directory',
      failed: '测试失败',
      worked: '提供方已响应',
      kept: '已保存密钥，不会显示。留空则保持不变。',
      save: '保存',
    },
  ] as const;

  const signInAdmin = async (page: Page, lang: (typeof LANGS)[number]) => {
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel(lang.adminField, { exact: true }).fill(ADMIN_EMAIL);
    await page.getByLabel(lang.password, { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: lang.submit, exact: true }).click();
  };

  /** Test on the directory's card: the result box, once it shows `title`. */
  const runTest = async (page: Page, lang: (typeof LANGS)[number], title: string) => {
    const card = page.getByRole('article', { name: 'Directory' });
    await card.getByRole('button', { name: lang.test }).click();
    const result = card.getByRole('status');
    await result.getByText(title).waitFor();
    return result;
  };

  /** The edit dialog: a wrong bind password is refused at the bind step; the right one binds and searches. */
  const fixBindPassword = async (page: Page, lang: (typeof LANGS)[number], tag: string) => {
    const card = page.getByRole('article', { name: 'Directory' });
    await card.getByRole('button', { name: lang.edit }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(lang.kept).first().waitFor();
    assert.equal(await dialog.getByLabel(lang.bindPassword).inputValue(), '', 'the stored bind password is never sent to the page');
    assert.deepEqual(await seriousA11yViolations(page), [], 'the LDAP edit dialog');
    await shot(page, `ldap-dialog-edit-${tag}`);
    await dialog.getByLabel(lang.bindPassword).fill(dir.rootPassword);
    await dialog.getByRole('button', { name: lang.save, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const worked = await runTest(page, lang, lang.worked);
    const text = await worked.innerText();
    assert.match(text, new RegExp(`bound as ${dir.rootDn}`));
    assert.match(text, /2 entries under ou=people/);
    assert.deepEqual(await seriousA11yViolations(page), [], 'a test that worked');
    await worked.scrollIntoViewIfNeeded();
    await shot(page, `ldap-test-ok-${tag}`);
  };

  const breakBindPassword = async () => {
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const listed = await api.get<{ id: string; name: string }[]>('/api/v4/admin/identity-providers', { token: admin });
    const id = listed.body.data.find((p) => p.name === 'Directory')!.id;
    const patched = await api.patch(`/api/v4/admin/identity-providers/${id}`, { bind_password: 'wrong-bind-secret-7' }, { token: admin });
    assert.equal(patched.status, 200, patched.text);
  };

  for (const [i, lang] of LANGS.entries()) {
    const person = PEOPLE[i]!;
    const tag = `${lang.screen.name}-${lang.locale}`;
    it(`${lang.locale}, ${lang.screen.name}: the directory ${i === 0 ? 'added' : 'mended'} in the Dashboard, then the uid "${person.uid}" signs in`, async () => {
      const admin = await openIn(browser, lang.screen, lang.locale);
      try {
        await signInAdmin(admin.page, lang);
        if (i === 0) {
          // Added through the dialog, with a wrong bind password.
          await admin.page.getByRole('button', { name: 'Add a provider' }).click();
          const dialog = admin.page.getByRole('dialog');
          await dialog.getByText('LDAP', { exact: true }).click();
          await dialog.getByLabel('Name', { exact: true }).fill('Directory');
          await dialog.getByLabel('Server URL').fill(dir.url);
          await dialog.getByLabel('Bind DN').fill(dir.rootDn);
          await dialog.getByLabel('Bind password').fill('wrong-bind-secret-7');
          await dialog.getByLabel('User search base').fill(dir.peopleDn);
          await dialog.getByRole('switch', { name: 'Create accounts on first sign-in' }).check();
          assert.deepEqual(await seriousA11yViolations(admin.page), [], 'the LDAP add dialog');
          await shot(admin.page, `ldap-dialog-add-${tag}`);
          await dialog.getByRole('button', { name: 'Add provider' }).click();
          await dialog.waitFor({ state: 'hidden' });
          assert.equal(await directorySignIn(), true, 'an enabled directory is announced');
        } else {
          await breakBindPassword();
        }
        // The directory's own refusal, at the bind step, and never the password.
        const failed = await runTest(admin.page, lang, lang.failed);
        const text = await failed.innerText();
        assert.match(text, /invalid credentials/i);
        assert.ok(!text.includes('wrong-bind-secret-7'));
        assert.deepEqual(await seriousA11yViolations(admin.page), [], 'a failed test');
        await failed.scrollIntoViewIfNeeded();
        await shot(admin.page, `ldap-test-failed-${tag}`);
        await fixBindPassword(admin.page, lang, tag);
        assert.deepEqual(admin.problems, []);
      } finally {
        await admin.context.close();
      }

      const { context, page, problems } = await openIn(browser, lang.screen, lang.locale);
      try {
        await page.goto(`${server.url}/files`);
        const field = page.getByLabel(lang.field);
        await field.waitFor();
        assert.equal(await field.getAttribute('type'), 'text', 'no e-mail format check on a uid');
        await field.fill(person.uid);
        await page.getByLabel(lang.password, { exact: true }).fill(person.password);
        assert.deepEqual(await seriousA11yViolations(page), [], 'sign-in form with a directory');
        await shot(page, `ldap-sign-in-${tag}`);
        await page.getByRole('button', { name: lang.submit, exact: true }).click();
        await page.getByRole('button', { name: lang.menu }).click();
        await page.getByRole('menu').getByText(person.mail).waitFor();
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
