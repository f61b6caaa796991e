// Signing out of Cirrus ends the provider's session too (issue 34), in Chromium
// against oidc-provider started in-process with a sign-in page of its own
// (identity/upstreams.ts, loginPrompt). OpenID Connect RP-Initiated Logout 1.0:
// the account menu's "Sign out" sends the browser to the provider's
// end_session_endpoint with id_token_hint and post_logout_redirect_uri (§2),
// the provider sends it back to Cirrus's sign-in page (§3), and "Sign in with
// <name>" then shows the provider's sign-in page again instead of signing the
// person straight back in. A password session's sign-out never leaves Cirrus.
// English on a 1280×800 desktop; SQLite only: the flow does not depend on the database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { freePort } from '../../src/ops/free-port.js';
import { startOidcProvider, type OidcProviderHandle } from '../identity/upstreams.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const NAME = 'Staff SSO';
const CLIENT_ID = 'cirrus-logout';
const CLIENT_SECRET = 'logout-client-secret-91c2';
const UPSTREAM_SIGN_IN = 'Sign in to the upstream provider';

describe('web app: signing out of Cirrus ends the provider session (RP-Initiated Logout 1.0)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let idp: OidcProviderHandle;

  before(async () => {
    const idpPort = await freePort('127.0.0.1');
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const created = await api.put<{ id: string }>(
      '/api/v4/admin/identity-providers',
      { type: 'oidc', name: NAME, issuer: `http://127.0.0.1:${idpPort}`, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, create_accounts: true },
      { token: admin },
    );
    assert.equal(created.status, 200, created.text);
    idp = await startOidcProvider({
      port: idpPort,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${server.url}/api/v4/session/sso/${created.body.data.id}/callback`,
      postLogoutRedirectUri: `${server.url}/`,
      loginPrompt: true,
    });
    idp.person = { sub: 'logout-person', email: 'logout-person@example.org', email_verified: true, name: 'Logout Person' };
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await idp?.close();
  });

  const signOutFromMenu = async (page: Page) => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
  };

  it('sign in through the provider, sign out of Cirrus: the provider asks for sign-in again', async () => {
    const { context, page, problems } = await openIn(browser, VIEWPORTS[0], 'en-US');
    const toProvider: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(idp.issuer)) toProvider.push(r.url());
    });
    try {
      await page.goto(`${server.url}/`);
      const withProvider = page.getByRole('link', { name: `Sign in with ${NAME}` });
      await withProvider.click();
      // No session at the provider yet: its own sign-in page.
      await page.getByRole('heading', { name: UPSTREAM_SIGN_IN }).waitFor();
      await page.getByRole('button', { name: 'Continue as logout-person' }).click();
      await page.waitForURL(`${server.url}/files`);

      const pair = JSON.parse((await page.evaluate(() => localStorage.getItem('cirrus.session'))) ?? 'null') as { refresh_token: string } | null;
      assert.ok(pair?.refresh_token, 'signed in with a token pair');
      const endSession = page.waitForRequest((r) => r.url().startsWith(`${idp.issuer}/session/end`));
      await signOutFromMenu(page);
      const sent = new URL((await endSession).url());
      // §2: the id_token Cirrus got at sign-in (for this client and person), and where to come back to.
      assert.equal(sent.searchParams.get('post_logout_redirect_uri'), `${server.url}/`);
      assert.equal(sent.searchParams.get('client_id'), CLIENT_ID);
      const hint = sent.searchParams.get('id_token_hint');
      assert.ok(hint, 'id_token_hint is sent');
      const claims = JSON.parse(Buffer.from(hint.split('.')[1]!, 'base64url').toString()) as { sub: string; aud: string; iss: string };
      assert.deepEqual([claims.sub, claims.aud, claims.iss], ['logout-person', CLIENT_ID, idp.issuer]);
      // The Cirrus session is over too: its refresh token no longer works.
      const refresh = await new Api(server.url).post('/api/v4/session/token/refresh', { refresh_token: pair.refresh_token });
      assert.equal(refresh.status, 401, refresh.text);

      // The provider's own confirmation, then back to Cirrus's sign-in page (§3).
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL(`${server.url}/`);
      await withProvider.waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'the sign-in page after signing out');
      await shot(page, 'idp-signed-out-desktop-en-US');

      // Without the upstream sign-out this would sign the person straight back in.
      const promptsBefore = toProvider.filter((u) => u.includes('/interaction/')).length;
      await withProvider.click();
      await page.getByRole('heading', { name: UPSTREAM_SIGN_IN }).waitFor();
      assert.ok(toProvider.filter((u) => u.includes('/interaction/')).length > promptsBefore);

      // A password session has no provider session: sign-out stays in Cirrus.
      await page.goto(`${server.url}/`);
      await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${server.url}/files`);
      const sentBefore = toProvider.length;
      await signOutFromMenu(page);
      await page.getByLabel('E-mail').waitFor();
      assert.equal(new URL(page.url()).origin, server.url);
      assert.equal(toProvider.length, sentBefore, 'nothing was sent to the provider');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
