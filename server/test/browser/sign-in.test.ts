// The web app's sign-in, session and sign-out, driven in a real browser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, currentStep, expectSignedIn, launchBrowser, openPage, screenshot, totp } from './support.js';

interface StoredPair {
  access_token: string;
  refresh_token: string;
}

describe('web app: sign-in and session', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminToken: string;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the home page is served with the security headers and loads only same-origin resources', async () => {
    const { page, context, problems, requests } = await openPage(browser);
    const res = await page.goto(server.url + '/');
    assert.equal(res?.status(), 200);
    const headers = res!.headers();
    assert.match(headers['content-security-policy'] ?? '', /default-src 'self'/);
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    assert.equal(headers['referrer-policy'], 'no-referrer');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'home-sign-in');
    assert.deepEqual(problems, [], 'no console errors or CSP violations');
    const foreign = requests.filter((u) => !u.startsWith(server.url + '/'));
    assert.deepEqual(foreign, [], 'no third-party requests');
    await context.close();
  });

  it('wrong credentials show the server message; right ones show the account; sign-out revokes the session', async () => {
    const { page, context, problems } = await openPage(browser);
    await createUser(api, adminToken, 'ada@example.com', 'ada-password-123');
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not-her-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const msg = (await api.post('/api/v4/session/token', { email: 'ada@example.com', password: 'not-her-password' })).body.msg;
    assert.ok(msg.length > 0);
    assert.ok((await alert.innerText()).includes(msg), `alert shows the envelope msg "${msg}"`);
    await screenshot(page, 'home-sign-in-error');

    await page.getByLabel('Password', { exact: true }).fill('ada-password-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectSignedIn(page, 'ada@example.com');
    await screenshot(page, 'home-signed-in');
    // The sign-in request carried cookies (credentials same-origin), so the browser kept its device cookie.
    const device = (await context.cookies(server.url + '/api/v4/session/token')).filter((c) => c.name.startsWith('cirrus_device_'));
    assert.equal(device.length, 1, 'the device cookie of a successful sign-in is stored');

    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('cirrus.session'))) ?? 'null') as StoredPair | null;
    assert.ok(stored?.access_token && stored.refresh_token, 'the token pair is kept in localStorage');

    // Survives a reload.
    await page.reload();
    await expectSignedIn(page, 'ada@example.com');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('cirrus.session')), null);
    const refresh = await api.post('/api/v4/session/token/refresh', { refresh_token: stored.refresh_token });
    assert.equal(refresh.status, 401, 'the signed-out refresh token no longer works');
    assert.equal(refresh.body.code, 40020);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('an access token the server rejects is refreshed once and the request retried; a dead refresh token ends the session', async () => {
    const { page, context } = await openPage(browser);
    const { token } = await createUser(api, adminToken, 'bob@example.com');
    await page.goto(server.url + '/');
    // Start from a pair whose access token is no longer accepted (signature broken).
    const broken = { ...token, access_token: token.access_token.slice(0, -4) + 'AAAA' };
    await page.evaluate((pair) => localStorage.setItem('cirrus.session', JSON.stringify(pair)), broken);
    await page.reload();
    await expectSignedIn(page, 'bob@example.com');
    const after1 = JSON.parse((await page.evaluate(() => localStorage.getItem('cirrus.session'))) ?? 'null') as StoredPair;
    assert.notEqual(after1.refresh_token, token.refresh_token, 'the pair was rotated by a refresh');
    assert.notEqual(after1.access_token, broken.access_token);

    // Now neither token works: the page falls back to the sign-in form and forgets the pair.
    await page.evaluate(
      (pair) => localStorage.setItem('cirrus.session', JSON.stringify(pair)),
      { ...after1, access_token: broken.access_token, refresh_token: token.refresh_token.slice(0, -4) + 'AAAA' },
    );
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('cirrus.session')), null);
    await context.close();
  });

  it('two-step sign-in: code 203 leads to the code step; a wrong code shows 40022; the right one signs in', async () => {
    const { page, context, problems } = await openPage(browser);
    const { token } = await createUser(api, adminToken, 'carol@example.com', 'carol-password-123');
    const begin = await api.post<{ secret: string }>('/api/v4/user/setting/2fa', undefined, { token: token.access_token });
    assert.equal(begin.body.code, 0, begin.text);
    const step = currentStep();
    const confirm = await api.put('/api/v4/user/setting/2fa', { otp: totp(begin.body.data.secret, step) }, { token: token.access_token });
    assert.equal(confirm.body.code, 0, confirm.text);

    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill('carol@example.com');
    await page.getByLabel('Password', { exact: true }).fill('carol-password-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeInput = page.getByLabel('Verification code');
    await codeInput.waitFor();
    await screenshot(page, 'home-two-step');

    const valid = new Set([-1, 0, 1, 2].map((d) => totp(begin.body.data.secret, step + d)));
    const wrong = ['000000', '111111', '222222'].find((c) => !valid.has(c))!;
    await codeInput.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /code/i);

    // The next step's code: the enrolment already used this one (replays are refused).
    await codeInput.fill(totp(begin.body.data.secret, step + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(page, 'carol@example.com');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('too many failed attempts: the 429 message is shown', async () => {
    const { page, context } = await openPage(browser);
    await createUser(api, adminToken, 'dave@example.com');
    // Eight counted failures lock the account for 4 s (the lock doubles past five),
    // long enough for the browser to meet it; attempts during a lock do not count.
    for (let failures = 0; failures < 8; ) {
      const r = await api.post('/api/v4/session/token', { email: 'dave@example.com', password: `wrong-password-${failures}` });
      if (r.status === 429) await new Promise((resolve) => setTimeout(resolve, Number(r.headers.get('retry-after')) * 1000));
      else failures++;
    }
    const direct = await api.post('/api/v4/session/token', { email: 'dave@example.com', password: 'wrong-password-x' });
    assert.equal(direct.status, 429, 'the account is locked for a moment');
    assert.ok(Number(direct.headers.get('retry-after')) >= 3);
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail').fill('dave@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-y');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /too many/i);
    await context.close();
  });
});
