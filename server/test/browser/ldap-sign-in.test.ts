// Signing in with a directory login in the browser (api-contract §15): once an
// LDAP directory is enabled, GET /site/config says so (directory_sign_in) and
// the sign-in form's first field takes "E-mail or user name" without the
// browser's e-mail format check, so a person types their uid. Against a real
// slapd (identity/slapd.ts); English on a 1280×800 desktop, Chinese on a
// 390×844 phone; axe-core; screenshots under /tmp.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
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
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const created = await api.put(
      '/api/v4/admin/identity-providers',
      {
        type: 'ldap',
        name: 'Directory',
        url: dir.url,
        bind_dn: dir.rootDn,
        bind_password: dir.rootPassword,
        user_base: dir.peopleDn,
        user_filter: '(&(objectClass=inetOrgPerson)(|(uid={login})(mail={login})))',
        email_attribute: 'mail',
        name_attribute: 'cn',
        group_map: {},
        create_accounts: true,
      },
      { token: admin },
    );
    assert.equal(created.status, 200, created.text);
    assert.equal(await directorySignIn(), true, 'an enabled directory is announced');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await dir?.close();
  });

  for (const [i, lang] of [
    { locale: 'en-US', screen: VIEWPORTS[0], field: 'E-mail or user name', password: 'Password', submit: 'Sign in', menu: 'Account menu' },
    { locale: 'zh-CN', screen: VIEWPORTS[1], field: '邮箱或用户名', password: '密码', submit: '登录', menu: '账户菜单' },
  ].entries()) {
    const person = PEOPLE[i]!;
    it(`${lang.locale}, ${lang.screen.name}: the form takes the uid "${person.uid}" and signs the person in`, async () => {
      const { context, page, problems } = await openIn(browser, lang.screen, lang.locale);
      try {
        await page.goto(`${server.url}/files`);
        const field = page.getByLabel(lang.field);
        await field.waitFor();
        assert.equal(await field.getAttribute('type'), 'text', 'no e-mail format check on a uid');
        await field.fill(person.uid);
        await page.getByLabel(lang.password, { exact: true }).fill(person.password);
        assert.deepEqual(await seriousA11yViolations(page), [], 'sign-in form with a directory');
        await shot(page, `ldap-sign-in-${lang.screen.name}-${lang.locale}`);
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
