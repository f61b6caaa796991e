// The authorization page (/session/authorize) in a real browser: sign-in,
// consent, and the redirect back to a local stand-in for a third-party app.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, currentStep, launchBrowser, openPage, screenshot, startRedirectCatcher, totp, type RedirectCatcher } from './support.js';

interface AppView {
  id: string;
  secret: string;
  name: string;
}

const SCOPE = 'openid profile offline_access Files.Read';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('web app: OAuth authorization page', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminToken: string;
  let catcher: RedirectCatcher;
  let redirectUri: string;
  let app: AppView;

  const authorizeUrl = (params: Record<string, string>) => `${server.url}/session/authorize?${new URLSearchParams(params)}`;
  const standardParams = (extra: Record<string, string> = {}) => {
    const { verifier, challenge } = pkce();
    const state = randomBytes(12).toString('base64url');
    const params = { response_type: 'code', client_id: app.id, redirect_uri: redirectUri, scope: SCOPE, state, code_challenge: challenge, code_challenge_method: 'S256', ...extra };
    return { params, verifier, state };
  };

  async function signInOnPage(page: Page, email: string, password: string) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function landed(page: Page): Promise<URL> {
    await page.waitForURL((u) => u.toString().startsWith(redirectUri));
    return new URL(page.url());
  }

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    catcher = await startRedirectCatcher();
    redirectUri = `${catcher.origin}/callback`;
    const res = await api.put<AppView>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Photo Sync', icon: 'photo', description: 'Backs up the photos on your phone.', redirect_uris: [redirectUri], scopes: ['openid', 'profile', 'email', 'offline_access', 'Files.Read', 'Files.Write'] } },
      { token: adminToken },
    );
    assert.equal(res.body.code, 0, res.text);
    app = res.body.data;
    assert.ok(app.secret, 'the secret is shown at creation');
  });
  after(async () => {
    await browser?.close();
    await catcher?.close();
    await server?.close();
  });

  it('flow 1: sign in, see the consent screen, approve, land with code, state and iss; the code exchanges for tokens', async () => {
    const { page, context, problems, requests } = await openPage(browser);
    await createUser(api, adminToken, 'erin@example.com', 'erin-password-123');
    const { params, verifier, state } = standardParams();
    const res = await page.goto(authorizeUrl(params));
    assert.equal(res?.status(), 200);
    assert.match(res!.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);

    await page.getByRole('heading', { name: 'Sign in to continue to Photo Sync' }).waitFor();
    await screenshot(page, 'authorize-sign-in');
    await signInOnPage(page, 'erin@example.com', 'erin-password-123');

    await page.getByRole('heading', { name: 'Photo Sync wants to access your Cirrus account' }).waitFor();
    assert.ok(await page.getByText('See your files', { exact: true }).isVisible(), 'Files.Read in plain words');
    assert.ok(await page.getByText('Stay connected', { exact: true }).isVisible(), 'offline_access in plain words');
    assert.ok(await page.getByText('erin@example.com').isVisible(), 'the signed-in account is shown');
    assert.ok(await page.getByText('Backs up the photos on your phone.').isVisible());
    assert.equal(await page.getByRole('button', { name: 'Not you? Sign out' }).count(), 1);
    // An icon-set name is drawn as the app's initials; nothing is fetched for it.
    assert.equal(await page.locator('img').count(), 0);
    await screenshot(page, 'authorize-consent');
    assert.equal(catcher.hits.length, 0, 'nothing reached the app before approval');

    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await landed(page);
    assert.equal(back.pathname, '/callback');
    const code = back.searchParams.get('code');
    assert.ok(code, 'a code came back');
    assert.equal(back.searchParams.get('state'), state);
    assert.equal(back.searchParams.get('iss'), server.url);
    assert.equal(back.searchParams.get('error'), null);

    const foreign = requests.filter((u) => !u.startsWith(server.url + '/') && !u.startsWith(catcher.origin + '/'));
    assert.deepEqual(foreign, [], 'no third-party requests');
    assert.deepEqual(problems, [], 'no console errors or CSP violations');

    const token = await api.raw('POST', '/api/v4/session/oauth/token', {
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.id, client_secret: app.secret, code_verifier: verifier },
    });
    assert.equal(token.status, 200, token.text);
    const body = token.body as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(typeof body.access_token, 'string');
    assert.equal(typeof body.refresh_token, 'string', 'offline_access was granted');
    assert.equal(typeof body.id_token, 'string', 'openid was granted');
    assert.deepEqual(String(body.scope).split(' ').sort(), SCOPE.split(' ').sort());
    await context.close();
  });

  it('consent is remembered: the same request again is approved without the buttons, unless prompt=consent', async () => {
    const { page, context } = await openPage(browser);
    await createUser(api, adminToken, 'frank@example.com', 'frank-password-123');
    const first = standardParams();
    await page.goto(authorizeUrl(first.params));
    await signInOnPage(page, 'frank@example.com', 'frank-password-123');
    await page.getByRole('button', { name: 'Approve' }).click();
    await landed(page);

    const again = standardParams();
    await page.goto(authorizeUrl(again.params));
    const back = await landed(page);
    assert.ok(back.searchParams.get('code'), 'approved automatically');
    assert.equal(back.searchParams.get('state'), again.state);

    const forced = standardParams({ prompt: 'consent' });
    await page.goto(authorizeUrl(forced.params));
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    assert.ok(page.url().startsWith(server.url), 'prompt=consent asks again');
    await context.close();
  });

  it('OIDC Core §3.1.2.6: prompt=none answers login_required without a session and consent_required without a grant, never showing the page', async () => {
    const { page, context } = await openPage(browser);
    const signedOut = standardParams({ prompt: 'none' });
    await page.goto(authorizeUrl(signedOut.params));
    let back = await landed(page);
    assert.equal(back.searchParams.get('error'), 'login_required');
    assert.equal(back.searchParams.get('state'), signedOut.state);
    assert.equal(back.searchParams.get('iss'), server.url);

    const { token } = await createUser(api, adminToken, 'lee@example.com');
    await page.goto(server.url + '/');
    await page.evaluate((pair) => localStorage.setItem('cirrus.session', JSON.stringify(pair)), token);
    const noGrant = standardParams({ prompt: 'none' });
    await page.goto(authorizeUrl(noGrant.params));
    back = await landed(page);
    assert.equal(back.searchParams.get('error'), 'consent_required');
    assert.equal(back.searchParams.get('state'), noGrant.state);
    assert.equal(back.searchParams.get('code'), null);
    await context.close();
  });

  it('flow 2: RFC 6749 §4.1.2.1: Deny lands on the redirect URI with error=access_denied and the state', async () => {
    const { page, context } = await openPage(browser);
    await createUser(api, adminToken, 'gina@example.com', 'gina-password-123');
    const { params, state } = standardParams();
    await page.goto(authorizeUrl(params));
    await signInOnPage(page, 'gina@example.com', 'gina-password-123');
    await page.getByRole('button', { name: 'Deny' }).click();
    const back = await landed(page);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), state);
    assert.equal(back.searchParams.get('code'), null);
    assert.equal(back.searchParams.get('iss'), server.url);
    await context.close();
  });

  it('flow 3: RFC 6749 §4.1.2.1: an unregistered redirect_uri shows an error and never redirects', async () => {
    const { page, context, requests } = await openPage(browser);
    const hitsBefore = catcher.hits.length;
    const { params } = standardParams({ redirect_uri: `${catcher.origin}/elsewhere` });
    const res = await page.goto(authorizeUrl(params));
    assert.equal(res?.status(), 400);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /not registered/);
    await screenshot(page, 'authorize-invalid-redirect');
    // Give a wrongful redirect time to happen, then check it did not.
    await page.waitForTimeout(500);
    assert.ok(page.url().startsWith(`${server.url}/session/authorize`), 'still on the authorization page');
    assert.equal(catcher.hits.length, hitsBefore, 'the app was never contacted');
    assert.equal(requests.filter((u) => u.startsWith(catcher.origin)).length, 0);
    assert.equal(await page.getByRole('button', { name: 'Approve' }).count(), 0);
    await context.close();
  });

  it('RFC 6749 §4.1.2.1: where the browser hides the page status, the consent API\'s 400 shows the error and nothing redirects', async () => {
    const { page, context } = await openPage(browser);
    // Browsers without PerformanceResourceTiming.responseStatus cannot see the 400.
    await context.addInitScript(() => {
      const original = performance.getEntriesByType.bind(performance);
      performance.getEntriesByType = (type: string) => (type === 'navigation' ? [] : original(type));
    });
    await createUser(api, adminToken, 'kim@example.com', 'kim-password-123');
    const hitsBefore = catcher.hits.length;
    const { params } = standardParams({ redirect_uri: `${catcher.origin}/elsewhere` });
    await page.goto(authorizeUrl(params));
    await signInOnPage(page, 'kim@example.com', 'kim-password-123');
    await page.getByRole('button', { name: 'Approve' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /redirect_uri/i, 'the server message names the problem');
    await screenshot(page, 'authorize-invalid-after-consent');
    await page.waitForTimeout(300);
    assert.ok(page.url().startsWith(`${server.url}/session/authorize`));
    assert.equal(catcher.hits.length, hitsBefore);
    await context.close();
  });

  it('RFC 6749 §4.1.2.1: an unknown client_id shows an error and never redirects', async () => {
    const { page, context } = await openPage(browser);
    const hitsBefore = catcher.hits.length;
    const { params } = standardParams({ client_id: 'no-such-app' });
    const res = await page.goto(authorizeUrl(params));
    assert.equal(res?.status(), 400);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /No application with this client ID/);
    await page.waitForTimeout(300);
    assert.ok(page.url().startsWith(`${server.url}/session/authorize`));
    assert.equal(catcher.hits.length, hitsBefore);
    await context.close();
  });

  it('a signed-in user who picks "Not you? Sign out" gets the sign-in form and their session is revoked', async () => {
    const { page, context } = await openPage(browser);
    await createUser(api, adminToken, 'hal@example.com', 'hal-password-123');
    await page.goto(authorizeUrl(standardParams().params));
    await signInOnPage(page, 'hal@example.com', 'hal-password-123');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('cirrus.session'))) ?? '{}') as { refresh_token: string };
    // The sign-out request itself, so that a failure says which step went wrong.
    const signedOut = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname === '/api/v4/session/token');
    await page.getByRole('button', { name: 'Not you? Sign out' }).click();
    const deleted = await signedOut;
    assert.equal(deleted.status(), 200, await deleted.text());
    const sent = JSON.parse(deleted.request().postData() ?? '{}') as { refresh_token?: string };
    await page.getByRole('heading', { name: 'Sign in to continue to Photo Sync' }).waitFor();
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: stored.refresh_token });
    assert.equal(refresh.status, 401, `${refresh.text} (the page signed out with ${sent.refresh_token === stored.refresh_token ? 'the stored' : 'another'} refresh token)`);
    await context.close();
  });

  it('flow 4: two-step sign-in on the authorization page, then approve', async () => {
    const { page, context } = await openPage(browser);
    const { token } = await createUser(api, adminToken, 'ivy@example.com', 'ivy-password-123');
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: token.access_token });
    const step = currentStep();
    assert.equal((await api.put('/api/v4/user/setting/2fa', { otp: totp(begin.body.data.secret, step) }, { token: token.access_token })).body.code, 0);

    const { params, state } = standardParams();
    await page.goto(authorizeUrl(params));
    await signInOnPage(page, 'ivy@example.com', 'ivy-password-123');
    await page.getByLabel('Verification code').fill(totp(begin.body.data.secret, step + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await landed(page);
    assert.ok(back.searchParams.get('code'));
    assert.equal(back.searchParams.get('state'), state);
    await context.close();
  });

  it('an icon URL is shown as an image fetched without a Referer', async () => {
    const { page, context } = await openPage(browser);
    const created = await api.put<AppView>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Icon App', icon: 'https://icons.example.test/app.png', redirect_uris: [redirectUri], scopes: ['openid'] } },
      { token: adminToken },
    );
    assert.equal(created.body.code, 0, created.text);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqPr/HwAE/wJ/lYp9WQAAAABJRU5ErkJggg==', 'base64');
    const iconRequests: Record<string, string>[] = [];
    await page.route('https://icons.example.test/**', async (route) => {
      iconRequests.push(route.request().headers());
      await route.fulfill({ status: 200, contentType: 'image/png', body: png });
    });
    const { token } = await createUser(api, adminToken, 'jo@example.com', 'jo-password-123');
    await page.goto(server.url + '/');
    await page.evaluate((pair) => localStorage.setItem('cirrus.session', JSON.stringify(pair)), token);
    await page.goto(authorizeUrl({ response_type: 'code', client_id: created.body.data.id, redirect_uri: redirectUri, scope: 'openid', state: 's', code_challenge: pkce().challenge }));
    const img = page.getByRole('img', { name: 'Icon App icon' });
    await img.waitFor();
    assert.equal(await img.getAttribute('referrerpolicy'), 'no-referrer');
    assert.equal(iconRequests.length, 1);
    assert.equal(iconRequests[0]!.referer, undefined, 'no Referer header');
    await context.close();
  });
});
