// Settings → Sign-in methods (issue 34), in Chromium against two
// oidc-provider instances started in-process (identity/upstreams.ts). A person
// who signed in through provider A (so has no Cirrus password and no passkey)
// sees that identity; removing it, their only way in, is refused with the
// reason; they link provider B through the provider and come back to the tab
// with both listed; then removing A works and B is left. English on a 1280×800
// desktop, Chinese on a 390×844 phone; axe-core; screenshots under /tmp.
// SQLite only: the page does not depend on the database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
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
    withProvider: (n: string) => `Sign in with ${n}`,
    tab: 'Sign-in methods',
    remove: (n: string) => `Remove ${n}`,
    confirm: 'Remove',
    lastWay: 'This is your last way to sign in. Set a password, add a passkey or link another provider first.',
    link: (n: string) => `Link ${n}`,
  },
  {
    locale: 'zh-CN',
    screen: VIEWPORTS[1],
    withProvider: (n: string) => `使用 ${n} 登录`,
    tab: '登录方式',
    remove: (n: string) => `移除 ${n}`,
    confirm: '移除',
    lastWay: '这是你最后一种登录方式。请先设置密码、添加通行密钥或关联其他提供方。',
    link: (n: string) => `关联 ${n}`,
  },
] as const;

describe('web app: Settings → Sign-in methods', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  const idps: Record<'A' | 'B', OidcProviderHandle> = {} as never;
  const names = { A: 'Provider A', B: 'Provider B' };

  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    for (const key of ['A', 'B'] as const) {
      const port = await freePort('127.0.0.1');
      const created = await api.put<{ id: string }>(
        '/api/v4/admin/identity-providers',
        { type: 'oidc', name: names[key], issuer: `http://127.0.0.1:${port}`, client_id: `client-${key}`, client_secret: `secret-${key}-8c2b`, create_accounts: true },
        { token: admin },
      );
      assert.equal(created.status, 200, created.text);
      idps[key] = await startOidcProvider({ port, clientId: `client-${key}`, clientSecret: `secret-${key}-8c2b`, redirectUri: `${server.url}/api/v4/session/sso/${created.body.data.id}/callback` });
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    for (const idp of Object.values(idps)) await idp.close();
  });

  for (const [i, lang] of LANGS.entries()) {
    it(`${lang.locale}, ${lang.screen.name}: the last way in is kept; another provider is linked, then the first removed`, async () => {
      const email = `methods-${i}@example.org`;
      idps.A.person = { sub: `a-${i}`, email, email_verified: true, name: `Methods ${i}` };
      idps.B.person = { sub: `b-${i}`, email: `other-${i}@example.net`, email_verified: true, name: `Methods ${i}` };
      const { context, page, problems } = await openIn(browser, lang.screen, lang.locale);
      try {
        await page.goto(`${server.url}/settings/sign-in`);
        await page.getByRole('link', { name: lang.withProvider(names.A) }).click();
        await page.waitForURL(`${server.url}/settings/sign-in`);
        await page.getByRole('tab', { name: lang.tab, selected: true }).waitFor();
        const a = page.getByRole('article', { name: names.A });
        await a.getByText(email).waitFor();
        assert.equal(await page.getByRole('article').count(), 1);

        // The only way in: refused, with the reason, and still listed.
        await a.getByRole('button', { name: lang.remove(names.A) }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: lang.confirm, exact: true }).click();
        await dialog.getByRole('alert').getByText(lang.lastWay).waitFor();
        assert.deepEqual(await seriousA11yViolations(page), [], 'the refusal');
        await shot(page, `idp-methods-last-${lang.screen.name}-${lang.locale}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        assert.equal(await page.getByRole('article').count(), 1);

        // Link B through the provider: back on this tab with both.
        await page.getByRole('button', { name: lang.link(names.B) }).click();
        const b = page.getByRole('article', { name: names.B });
        await b.getByText(`other-${i}@example.net`).waitFor();
        assert.equal(await page.getByRole('article').count(), 2);
        assert.equal(await page.getByRole('button', { name: lang.link(names.B) }).count(), 0, 'a linked provider is not offered again');
        assert.deepEqual(await seriousA11yViolations(page), [], 'two linked identities');
        await shot(page, `idp-methods-two-${lang.screen.name}-${lang.locale}`);

        // Now A can go; B is left.
        await a.getByRole('button', { name: lang.remove(names.A) }).click();
        await dialog.getByRole('button', { name: lang.confirm, exact: true }).click();
        await a.waitFor({ state: 'detached' });
        assert.equal(await page.getByRole('article').count(), 1);
        await page.getByRole('button', { name: lang.link(names.A) }).waitFor();
        await shot(page, `idp-methods-one-${lang.screen.name}-${lang.locale}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
