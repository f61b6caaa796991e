// What the browser downloads (issue 23, item 13): the sign-in page's scripts
// and stylesheets arrive Brotli-encoded, and the consent page of an app with
// a named icon loads one small part of the icon set, never the whole set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openPage } from './support.js';

describe('web app: compressed, split downloads', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the sign-in page\'s scripts and stylesheets are br-encoded, and it loads no shell, query or icon chunk', async () => {
    const { page, context, problems } = await openPage(browser);
    const assets: { url: string; encoding: string | undefined; size: number }[] = [];
    page.on('response', async (res) => {
      const type = res.request().resourceType();
      if (res.url().startsWith(server.url) && (type === 'script' || type === 'stylesheet' || type === 'document')) {
        const headers = await res.allHeaders();
        assets.push({ url: res.url(), encoding: headers['content-encoding'], size: (await res.body()).length });
      }
    });
    await page.goto(server.url + '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    const big = assets.filter((a) => a.size >= 1024);
    // The page itself is under 1 KB (sent as it is); the entry script, the
    // first page's chunk and the stylesheet are not.
    assert.ok(big.filter((a) => /\.js$/.test(a.url)).length >= 1 && big.some((a) => /\.css$/.test(a.url)), 'scripts and a stylesheet');
    for (const a of big) assert.equal(a.encoding, 'br', a.url);
    for (const a of assets) assert.doesNotMatch(a.url, /\/assets\/(shell-|AppLayout|QueryProvider|mantine-rest|tabler-)/, a.url);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the consent page draws the app\'s named icon from one small chunk, never the whole icon set', async () => {
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const redirect = 'http://127.0.0.1:9/callback';
    const app = await api.put<{ id: string }>(
      '/api/v4/admin/oauthClient',
      { client: { name: 'Photo Sync', icon: 'cloud-upload', description: 'Backs up photos.', redirect_uris: [redirect], scopes: ['openid', 'profile', 'Files.Read'] } },
      { token: admin.access_token },
    );
    assert.equal(app.body.code, 0, app.text);
    const { page, context, problems, requests } = await openPage(browser);
    const sizes = new Map<string, number>();
    page.on('response', async (res) => {
      if (/\/assets\/tabler-/.test(res.url())) sizes.set(res.url(), (await res.body()).length);
    });
    await page.goto(server.url + '/assets-none');
    await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), admin);
    const params = new URLSearchParams({
      response_type: 'code', client_id: app.body.data.id, redirect_uri: redirect, scope: 'openid profile Files.Read', state: 'xyz',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
    });
    await page.goto(`${server.url}/session/authorize?${params}`);
    const icon = page.getByRole('img', { name: 'Photo Sync icon' });
    await icon.waitFor();
    assert.equal(await icon.evaluate((el) => el.tagName.toLowerCase()), 'svg', 'the Tabler drawing, not the initials');
    await page.waitForLoadState('networkidle');
    const iconChunks = requests.filter((u) => /\/assets\/tabler-/.test(u));
    assert.equal(iconChunks.length, 1, iconChunks.join(', '));
    assert.match(iconChunks[0]!, /\/assets\/tabler-outline-\d+-/);
    const bytes = [...sizes.values()].reduce((a, b) => a + b, 0);
    assert.ok(bytes > 0 && bytes < 64 * 1024, `the icon chunk is small (${bytes} bytes; the whole outline set is 1.28 MB)`);
    assert.ok(!requests.some((u) => /tabler-nodes|shell-|AppLayout|mantine-rest/.test(u)), 'no whole icon set, no shell');
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
    await context.close();
  });
});
