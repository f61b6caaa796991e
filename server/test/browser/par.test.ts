// The authorization page opened with a pushed request (RFC 9126 §4): the
// query carries only client_id and request_uri, the page shows the pushed
// request and approval sends the browser back with a code that oauth4webapi
// exchanges; the same link a second time shows an error and never redirects.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, startRedirectCatcher, type RedirectCatcher } from './support.js';

describe('web app: authorization with a pushed request (RFC 9126)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let catcher: RedirectCatcher;
  let app: { id: string; secret: string };
  let as: oauth.AuthorizationServer;
  const options = { [oauth.allowInsecureRequests]: true };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    catcher = await startRedirectCatcher();
    api = new Api(server.url);
    const adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const res = await api.put<{ id: string; secret: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Ledger Sync', icon: 'cloud', redirect_uris: [`${catcher.origin}/callback`], scopes: ['openid', 'Files.Read'], require_par: true } },
      { token: adminToken },
    );
    assert.equal(res.body.code, 0, res.text);
    app = res.body.data;
    as = await oauth.processDiscoveryResponse(new URL(server.url), await oauth.discoveryRequest(new URL(server.url), { ...options, algorithm: 'oidc' }));
    await createUser(api, adminToken, 'par-person@example.com', 'par-person-password-1');
  });
  after(async () => {
    await browser?.close();
    await catcher?.close();
    await server?.close();
  });

  it('RFC 9126 §4: client_id + request_uri → sign in → consent for the pushed scopes → back with a code; the link is then spent', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const pushedRes = await oauth.pushedAuthorizationRequest(
      as,
      { client_id: app.id },
      oauth.ClientSecretPost(app.secret),
      { response_type: 'code', redirect_uri: `${catcher.origin}/callback`, scope: 'openid Files.Read', state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' },
      options,
    );
    const pushed = await oauth.processPushedAuthorizationResponse(as, { client_id: app.id }, pushedRes);
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', app.id);
    url.searchParams.set('request_uri', pushed.request_uri);

    const { page, context, problems } = await openAppPage(browser);
    assert.equal((await page.goto(url.toString()))?.status(), 200);
    await page.getByRole('heading', { name: 'Sign in to continue to Ledger Sync' }).waitFor();
    await page.getByLabel('E-mail').fill('par-person@example.com');
    await page.getByLabel('Password', { exact: true }).fill('par-person-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Ledger Sync wants to access your Cirrus account' }).waitFor();
    assert.ok(await page.getByText('See your files', { exact: true }).isVisible(), 'the pushed scope is shown');
    await page.screenshot({ path: '/tmp/o24-par-consent.png' });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${catcher.origin}/callback`));

    const callback = new URL(page.url());
    const params = oauth.validateAuthResponse(as, { client_id: app.id }, callback, state);
    const tokenRes = await oauth.authorizationCodeGrantRequest(as, { client_id: app.id }, oauth.ClientSecretPost(app.secret), params, `${catcher.origin}/callback`, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(as, { client_id: app.id }, tokenRes);
    assert.equal(tokens.scope, 'openid Files.Read');

    // Single use: the same link now shows an error and sends nothing to the app.
    // Only /callback counts: the browser may still ask the app's origin for /favicon.ico.
    const callbacks = () => catcher.hits.filter((u) => u.pathname === '/callback').length;
    const hits = callbacks();
    assert.equal((await page.goto(url.toString()))?.status(), 400);
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /expired or was already used/);
    await page.waitForTimeout(300);
    assert.equal(callbacks(), hits);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
