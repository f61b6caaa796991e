// Dashboard → Settings → Sign-in providers, then "Sign in with <name>" on the
// sign-in page (issue 34), in Chromium against oidc-provider started
// in-process as the upstream (identity/upstreams.ts). An administrator adds a
// provider through the screens with a wrong issuer, presses Test and sees the
// provider's own error; corrects the issuer (the stored secret kept: the field
// is write-only) and sees what worked; then a person signs in through it from
// the sign-in page and lands in their files with an account made from the
// provider's claims. English on a 1280×800 desktop, Chinese on a 390×844
// phone; axe-core on the list, the dialog, the results and the sign-in page;
// screenshots under /tmp. SQLite only: the page does not depend on the database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { freePort } from '../../src/ops/free-port.js';
import { startOidcProvider, type OidcProviderHandle } from '../identity/upstreams.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const LANGS = [
  {
    locale: 'en-US',
    screen: VIEWPORTS[0],
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    menu: 'Account menu',
    add: 'Add a provider',
    name: 'Name',
    issuer: 'Issuer URL',
    clientId: 'Client ID',
    secret: 'Client secret',
    createAccounts: 'Create accounts on first sign-in',
    submit: 'Add provider',
    save: 'Save',
    redirect: 'Redirect URI',
    test: (n: string) => `Test ${n}`,
    edit: (n: string) => `Edit ${n}`,
    failed: 'The test failed',
    worked: 'The provider answered',
    passwords: 'Password sign-in for everyone',
    kept: 'A secret is stored and never shown. Leave empty to keep it.',
    withProvider: (n: string) => `Sign in with ${n}`,
  },
  {
    locale: 'zh-CN',
    screen: VIEWPORTS[1],
    email: '邮箱',
    password: '密码',
    signIn: '登录',
    menu: '账户菜单',
    add: '添加提供方',
    name: '名称',
    issuer: 'Issuer 地址',
    clientId: '客户端 ID',
    secret: '客户端密钥',
    createAccounts: '首次登录时创建账户',
    submit: '添加提供方',
    save: '保存',
    redirect: '回调地址',
    test: (n: string) => `测试 ${n}`,
    edit: (n: string) => `编辑 ${n}`,
    failed: '测试失败',
    worked: '提供方已响应',
    passwords: '所有人都可使用密码登录',
    kept: '已保存密钥，不会显示。留空则保持不变。',
    withProvider: (n: string) => `使用 ${n} 登录`,
  },
] as const;

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(await check());
}

describe('web app: sign-in providers in the dashboard, and signing in through one', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;
  const idps: OidcProviderHandle[] = [];

  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    for (const idp of idps) await idp.close();
  });

  const signInWithPassword = async (page: Page, lang: (typeof LANGS)[number], url: string) => {
    await page.goto(url);
    await page.getByLabel(lang.email).fill(ADMIN_EMAIL);
    await page.getByLabel(lang.password, { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: lang.signIn, exact: true }).click();
  };

  for (const [i, lang] of LANGS.entries()) {
    it(`${lang.locale}, ${lang.screen.name}: add, test (error, then success) and sign in through the provider`, async () => {
      const name = `Staff SSO ${i + 1}`;
      const clientId = `cirrus-web-${i}`;
      const clientSecret = `web-client-secret-${i}-5d1e`;
      const [idpPort, wrongPort] = [await freePort('127.0.0.1'), await freePort('127.0.0.1')];
      const { context, page, problems } = await openIn(browser, lang.screen, lang.locale);
      try {
        // The administrator adds the provider with a wrong issuer (nothing listens there).
        await signInWithPassword(page, lang, `${server.url}/admin/settings`);
        await page.getByRole('button', { name: lang.add }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(lang.name, { exact: true }).fill(name);
        await dialog.getByLabel(lang.issuer).fill(`http://127.0.0.1:${wrongPort}`);
        await dialog.getByLabel(lang.clientId).fill(clientId);
        await dialog.getByLabel(lang.secret).fill(clientSecret);
        await dialog.getByRole('switch', { name: lang.createAccounts }).check();
        assert.deepEqual(await seriousA11yViolations(page), [], 'the add dialog');
        await shot(page, `idp-add-${lang.screen.name}-${lang.locale}`);
        await dialog.getByRole('button', { name: lang.submit }).click();
        await dialog.waitFor({ state: 'hidden' });

        const card = page.getByRole('article', { name });
        await card.getByRole('button', { name: lang.test(name) }).click();
        const failed = card.getByRole('status');
        await failed.getByText(lang.failed).waitFor();
        // The provider's own error (a refused connection), never a bare "failed".
        assert.match(await failed.innerText(), /ECONNREFUSED|fetch failed|connect/i);
        assert.deepEqual(await seriousA11yViolations(page), [], 'a failed test');
        await failed.scrollIntoViewIfNeeded();
        await shot(page, `idp-test-failed-${lang.screen.name}-${lang.locale}`);

        // The redirect URI shown is the one the provider's client is registered with.
        const redirectUri = await card.getByLabel(lang.redirect, { exact: true }).inputValue();
        assert.match(redirectUri, new RegExp(`^${server.url}/api/v4/session/sso/[A-Za-z0-9_-]+/callback$`));
        const idp = await startOidcProvider({ port: idpPort, clientId, clientSecret, redirectUri });
        idps.push(idp);

        // The issuer corrected; the secret field stays empty and the stored secret is kept.
        await card.getByRole('button', { name: lang.edit(name) }).click();
        await dialog.getByText(lang.kept).waitFor();
        assert.equal(await dialog.getByLabel(lang.secret).inputValue(), '', 'the secret is never sent to the page');
        await dialog.getByLabel(lang.issuer).fill(idp.issuer);
        await dialog.getByRole('button', { name: lang.save, exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });
        await card.getByText(idp.issuer).waitFor();
        await card.getByRole('button', { name: lang.test(name) }).click();
        const worked = card.getByRole('status');
        await worked.getByText(lang.worked).waitFor();
        assert.match(await worked.innerText(), new RegExp(`issuer ${idp.issuer}`));
        assert.match(await worked.innerText(), /1 signing key\(s\): RS256/);
        assert.deepEqual(await seriousA11yViolations(page), [], 'a test that worked');
        await worked.scrollIntoViewIfNeeded();
        await shot(page, `idp-test-ok-${lang.screen.name}-${lang.locale}`);
        const listed = await api.get<{ id: string; client_secret_set: boolean; issuer: string }[]>('/api/v4/admin/identity-providers', { token: admin });
        const stored = listed.body.data.find((p) => redirectUri.includes(`/sso/${p.id}/`));
        assert.ok(stored?.client_secret_set, 'the secret stayed stored after the edit');
        assert.equal(stored.issuer, idp.issuer);

        // The password sign-in switch, explained where it is, saves at once (and back).
        const passwords = page.getByRole('switch', { name: lang.passwords });
        const setting = async () => (await api.get<{ password_sign_in: boolean }>('/api/v4/admin/settings', { token: admin })).body.data.password_sign_in;
        await passwords.uncheck();
        await waitFor(async () => (await setting()) === false);
        await passwords.check();
        await waitFor(async () => (await setting()) === true);
      } finally {
        await context.close();
      }

      // A person signs in through the provider from the sign-in page, in a browser of their own.
      const person = { sub: `person-${i}`, email: `sso-${i}@example.org`, email_verified: true, name: `SSO Person ${i}` };
      idps[i]!.person = person;
      const visitor = await openIn(browser, lang.screen, lang.locale);
      try {
        await visitor.page.goto(`${server.url}/files`);
        const button = visitor.page.getByRole('link', { name: lang.withProvider(name) });
        await button.waitFor();
        assert.deepEqual(await seriousA11yViolations(visitor.page), [], 'the sign-in page with a provider');
        await shot(visitor.page, `idp-sign-in-page-${lang.screen.name}-${lang.locale}`);
        await button.click();
        await visitor.page.waitForURL(`${server.url}/files`);
        await visitor.page.getByRole('button', { name: lang.menu }).click();
        await visitor.page.getByRole('menu').getByText(person.email).waitFor();
        await shot(visitor.page, `idp-signed-in-${lang.screen.name}-${lang.locale}`);
        assert.deepEqual(visitor.problems, []);
      } finally {
        await visitor.context.close();
      }
      assert.deepEqual(problems, []);
    });
  }
});
