// Screenshot pass over every page of the web app (issue 23): each page at
// 1280×800 and on a 390×844 touch phone, in English and Simplified Chinese,
// light and dark. Every combination is judged by axe-core (a serious or
// critical violation fails the test) and photographed once, under
// /tmp/cirrus-screens/<page>-<size>-<lang>-<theme>.png (not the repository),
// to be looked at. One browser; one context per size/language/theme.
// By default four combinations (English light and Chinese dark, each on both
// sizes: every language and theme on both screens); CIRRUS_SCREENS_ALL=1 runs
// all eight.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, followRequests, launchBrowser, networkQuiet, seriousA11yViolations } from './support.js';
import { VIEWPORTS } from './viewports.js';

const OUT = '/tmp/cirrus-screens';
const LANGS = [
  { code: 'en', locale: 'en-US' },
  { code: 'zh-CN', locale: 'zh-CN' },
] as const;
const THEMES = ['light', 'dark'] as const;

interface Screen {
  name: string;
  /** The path to open; signedIn: with the admin's session in the page. */
  path: () => string;
  signedIn: boolean;
}

describe('every page, both sizes, both languages, light and dark: axe-core and a screenshot (issue 23)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let admin: TokenPair;
  let consentPath = '';
  let fileShare = '';
  let folderShare = '';

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const token = admin.access_token;
    const call = async (method: string, p: string, body?: unknown, raw?: string) => {
      const res = await fetch(`${server.url}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': raw !== undefined ? 'application/octet-stream' : 'application/json' },
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const json = (await res.json()) as { code: number; data: { id: string } };
      assert.equal(json.code, 0, `${method} ${p}: ${JSON.stringify(json)}`);
      return json.data;
    };
    await call('POST', '/api/v4/file/create', { path: '/Projects', type: 'folder' });
    await call('POST', '/api/v4/file/create', { path: '/Photos 2026', type: 'folder' });
    await call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/Projects/plan.md')}`, undefined, '# Plan\n\nShip it.\n');
    await call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/notes.txt')}`, undefined, 'Some notes.\n');
    await call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/报告-2026.txt')}`, undefined, '中文内容\n');
    await call('PUT', `/api/v4/file/content?path=${encodeURIComponent('/old.txt')}`, undefined, 'old\n');
    await call('DELETE', '/api/v4/file', { paths: ['/old.txt'] });
    fileShare = (await call('PUT', '/api/v4/share', { path: '/notes.txt' })).id;
    folderShare = (await call('PUT', '/api/v4/share', { path: '/Projects' })).id;
    const app = await call('PUT', '/api/v4/admin/oauthClient', {
      client: { name: 'Photo Sync', icon: 'cloud-upload', description: 'Backs up photos.', redirect_uris: ['http://127.0.0.1:9/callback'], scopes: ['openid', 'profile', 'Files.Read'] },
    });
    const params = new URLSearchParams({
      response_type: 'code', client_id: app.id, redirect_uri: 'http://127.0.0.1:9/callback', scope: 'openid profile Files.Read', state: 'xyz',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
    });
    consentPath = `/session/authorize?${params}`;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const screens: Screen[] = [
    { name: 'signin', path: () => '/', signedIn: false },
    { name: 'signup', path: () => '/signup', signedIn: false },
    { name: 'forgot', path: () => '/forgot', signedIn: false },
    { name: 'reset-bad-token', path: () => '/reset?token=not-a-real-token', signedIn: false },
    { name: 'share-file', path: () => `/s/${fileShare}`, signedIn: false },
    { name: 'share-folder', path: () => `/s/${folderShare}`, signedIn: false },
    { name: 'files', path: () => '/files', signedIn: true },
    { name: 'search', path: () => '/search?q=notes', signedIn: true },
    { name: 'trash', path: () => '/trash', signedIn: true },
    { name: 'shares', path: () => '/shares', signedIn: true },
    { name: 'shared-with-me', path: () => '/shared', signedIn: true },
    ...['profile', 'security', 'apps', 'webdav', 'preferences'].map((tab) => ({ name: `settings-${tab}`, path: () => `/settings/${tab}`, signedIn: true })),
    ...['', '/users', '/groups', '/apps', '/shares', '/settings'].map((p) => ({ name: `admin${p.replace('/', '-') || '-overview'}`, path: () => `/admin${p}`, signedIn: true })),
    { name: 'consent', path: () => consentPath, signedIn: true },
    { name: 'device', path: () => '/device', signedIn: true },
    { name: 'logout', path: () => '/session/logout', signedIn: true },
  ];

  /** Waits until the page has drawn its content (no busy indicator, network quiet). */
  async function settle(page: Page): Promise<void> {
    await networkQuiet(page);
    await page.waitForFunction(() => !document.querySelector('.mantine-Loader-root') && document.querySelector('#root')?.childElementCount, undefined, { timeout: 5_000 }).catch(() => undefined);
    await page.waitForTimeout(150);
  }

  const all = process.env.CIRRUS_SCREENS_ALL === '1';
  for (const v of VIEWPORTS) {
    for (const lang of LANGS) {
      for (const theme of THEMES) {
        if (!all && (lang.code === 'en') !== (theme === 'light')) continue;
        it(`${v.name}, ${lang.code}, ${theme}: no serious or critical axe violation on any page`, async () => {
          const context = await browser.newContext({ viewport: v.viewport, hasTouch: v.touch, isMobile: v.touch, locale: lang.locale, colorScheme: theme });
          context.setDefaultTimeout(15_000);
          const page = await context.newPage();
          followRequests(page);
          const problems: string[] = [];
          page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
          await page.goto(server.url + '/assets-none');
          await page.evaluate((code) => localStorage.setItem('cirrus.lang', code), lang.code);
          const found: string[] = [];
          let signedIn = false;
          for (const s of screens) {
            if (s.signedIn !== signedIn) {
              await page.evaluate((pair) => (pair ? localStorage.setItem('cirrus.session', JSON.stringify(pair)) : localStorage.removeItem('cirrus.session')), s.signedIn ? admin : null);
              signedIn = s.signedIn;
            }
            await page.goto(server.url + s.path());
            await settle(page);
            await page.screenshot({ path: `${OUT}/${s.name}-${v.name}-${lang.code}-${theme}.png` });
            if (s.name === 'signin') {
              // The filled button is filled (Mantine's UnstyledButton rule, loaded
              // after Button's, once made it transparent).
              const bg = await page.locator('button[type="submit"]').first().evaluate((el) => getComputedStyle(el).backgroundColor);
              if (bg === 'rgba(0, 0, 0, 0)') found.push('signin: the sign-in button has no background');
            }
            for (const violation of await seriousA11yViolations(page)) found.push(`${s.name}: ${violation}`);
            // A page wider than the screen scrolls sideways: something overflows.
            const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (wide > 1) found.push(`${s.name}: the page is ${wide}px wider than the screen`);
          }
          await context.close();
          assert.deepEqual(found, []);
          assert.deepEqual(problems, []);
        });
      }
    }
  }
});
