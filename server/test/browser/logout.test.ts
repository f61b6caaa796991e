// RP-initiated logout in a real browser (OpenID Connect RP-Initiated Logout
// 1.0): a person signed in to Cirrus and to an app; the app sends the browser
// to the end_session_endpoint; Cirrus ends both sessions and sends the browser
// back to the registered URI with state. An unregistered URI shows an error
// and redirects nowhere; without a hint the person is asked first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, seriousA11yViolations, signInThroughForm, startRedirectCatcher, type RedirectCatcher } from './support.js';

describe('web app: /session/logout (RP-initiated logout)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let catcher: RedirectCatcher;
  let app: { id: string; secret: string };
  let adminToken: string;
  let config: oidc.Configuration;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    catcher = await startRedirectCatcher();
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await api.put<{ id: string; secret: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Notes', icon: 'notes', redirect_uris: [`${catcher.origin}/callback`], post_logout_redirect_uris: [`${catcher.origin}/bye`], scopes: ['openid', 'offline_access'] } },
      { token: adminToken },
    );
    assert.equal(res.body.code, 0, res.text);
    app = res.body.data;
    config = await oidc.discovery(new URL(server.url), app.id, app.secret, undefined, { execute: [oidc.allowInsecureRequests] });
  });
  after(async () => {
    await browser?.close();
    await catcher?.close();
    await server?.close();
  });

  /** The person's tokens at the app, through the consent API as the authorize page does. */
  async function appTokens(token: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${catcher.origin}/callback`, scope: 'openid offline_access', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's1' });
    const decided = await api.post<{ redirect_uri: string }>('/api/v4/session/oauth/consent', Object.fromEntries(url.searchParams), { token });
    return oidc.authorizationCodeGrant(config, new URL(decided.body.data.redirect_uri), { pkceCodeVerifier: verifier, expectedState: 's1' });
  }

  async function signedInPage(email: string, password: string, viewport?: { width: number; height: number }): Promise<Page> {
    const { page } = await openAppPage(browser, viewport);
    await signInThroughForm(page, `${server.url}/files`, email, password);
    await page.getByRole('button', { name: /account/i }).first().waitFor();
    return page;
  }

  it('RP-Initiated Logout §2–3: a live hint and a registered URI: both sessions end, the browser goes back with state', async () => {
    const person = await createUser(api, adminToken, 'notes-user@example.com', 'notes-user-password-1');
    const page = await signedInPage(person.user.email, 'notes-user-password-1');
    const tokens = await appTokens(person.token.access_token);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${catcher.origin}/bye`, state: 'back-7' });
    await page.goto(url.toString());
    await page.waitForURL((u) => u.toString().startsWith(`${catcher.origin}/bye`));
    assert.equal(new URL(page.url()).searchParams.get('state'), 'back-7');
    // The app's session family has ended…
    const refresh = await oidc.refreshTokenGrant(config, tokens.refresh_token!).then(() => 'refreshed', (e: unknown) => (e as { error?: string }).error);
    assert.equal(refresh, 'invalid_grant');
    // …and so has Cirrus's in this browser.
    await page.goto(`${server.url}/files`);
    await page.getByLabel('E-mail').waitFor();
    await page.context().close();
  });

  it('RP-Initiated Logout §3: an unregistered post_logout_redirect_uri shows an error and sends the browser nowhere; the person stays signed in', async () => {
    const person = await createUser(api, adminToken, 'notes-user2@example.com', 'notes-user-password-2');
    const page = await signedInPage(person.user.email, 'notes-user-password-2');
    const tokens = await appTokens(person.token.access_token);
    const hits = catcher.hits.length;
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example/', state: 'x' });
    const res = await page.goto(url.toString());
    assert.equal(res?.status(), 400);
    await page.getByRole('heading', { name: 'This sign-out request is not valid' }).waitFor();
    await page.screenshot({ path: '/tmp/o24-logout-invalid.png' });
    assert.equal(catcher.hits.length, hits);
    assert.ok(page.url().startsWith(server.url));
    await page.goto(`${server.url}/files`);
    await page.getByRole('button', { name: /account/i }).first().waitFor();
    await page.context().close();
  });

  it('RP-Initiated Logout §2: without a hint the person is asked; "Stay signed in" changes nothing, "Sign out" signs out', async () => {
    const person = await createUser(api, adminToken, 'notes-user3@example.com', 'notes-user-password-3');
    const page = await signedInPage(person.user.email, 'notes-user-password-3');
    await page.goto(`${server.url}/session/logout?client_id=${app.id}`);
    await page.getByRole('heading', { name: 'Sign out of Cirrus?' }).waitFor();
    await page.getByText('Notes asked to sign you out').waitFor();
    await page.screenshot({ path: '/tmp/o24-logout-ask.png' });
    await page.getByRole('button', { name: 'Stay signed in' }).click();
    await page.getByRole('heading', { name: 'You are still signed in' }).waitFor();
    await page.goto(`${server.url}/session/logout`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    await page.goto(`${server.url}/files`);
    await page.getByLabel('E-mail').waitFor();
    await page.context().close();
  });

  it("RP-Initiated Logout §2: a link carrying someone else's live id_token_hint asks first; \"Stay signed in\" keeps the session and goes nowhere, in English and Chinese", async () => {
    // The link's maker signed in to the app and holds their own id_token.
    const maker = await createUser(api, adminToken, 'notes-maker@example.com', 'notes-maker-password-5');
    const makerTokens = await appTokens(maker.token.access_token);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: makerTokens.id_token!, post_logout_redirect_uri: `${catcher.origin}/bye`, state: 'gotcha' });
    const person = await createUser(api, adminToken, 'notes-target@example.com', 'notes-target-password-5');
    for (const [viewport, lang, texts] of [
      [{ width: 1280, height: 800 }, 'en', { title: 'Sign out of Cirrus?', warn: 'This request names a different account', stay: 'Stay signed in', stayed: 'You are still signed in' }],
      [{ width: 390, height: 844 }, 'zh-CN', { title: '退出 Cirrus？', warn: '此请求指向的账户与此处已登录的账户不同', stay: '保持登录', stayed: '你仍处于登录状态' }],
    ] as const) {
      const page = await signedInPage(person.user.email, 'notes-target-password-5', viewport);
      await page.evaluate((code) => localStorage.setItem('cirrus.lang', code), lang);
      const hits = catcher.hits.length;
      await page.goto(url.toString());
      await page.getByRole('heading', { name: texts.title }).waitFor();
      await page.getByText(texts.warn).waitFor();
      await page.getByRole('button', { name: texts.stay }).waitFor();
      await screenshotView(page, `logout-other-account-${lang}-${viewport.width}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await page.getByRole('button', { name: texts.stay }).click();
      await page.getByRole('heading', { name: texts.stayed }).waitFor();
      assert.equal(catcher.hits.length, hits, 'no redirect to the post_logout_redirect_uri');
      assert.ok(page.url().startsWith(server.url));
      await page.evaluate(() => localStorage.setItem('cirrus.lang', 'en'));
      await page.goto(`${server.url}/files`);
      await page.getByRole('button', { name: /account/i }).first().waitFor();
      await page.context().close();
    }
    // Nothing of the maker's ended either: nobody confirmed.
    const refresh = await oidc.refreshTokenGrant(config, makerTokens.refresh_token!).then(() => 'refreshed', (e: unknown) => (e as { error?: string }).error);
    assert.equal(refresh, 'refreshed');
  });
});
