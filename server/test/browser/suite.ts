// The set-up most browser test files share: one Chromium and one server with
// the administrator signed in, opened in before() and closed in after().
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { launchBrowser } from './support.js';

export interface Suite {
  browser: Browser;
  server: TestServer;
  api: Api;
  /** The administrator's access token. */
  admin: string;
}

export async function openSuite(env: Record<string, string> = {}): Promise<Suite> {
  const browser = await launchBrowser();
  const server = await startServer(env);
  const api = new Api(server.url);
  const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  return { browser, server, api, admin };
}

/** Closes what openSuite opened; either may be missing when before() failed half-way. */
export async function closeSuite(browser: Browser | undefined, server: TestServer | undefined): Promise<void> {
  await browser?.close();
  await server?.close();
}

/** Puts a session in the page's storage as the web app keeps one, in a language (`en` or `zh-CN`); the next goto opens signed in. */
export async function startSignedIn(page: Page, baseUrl: string, pair: TokenPair, lang: string): Promise<void> {
  await page.goto(baseUrl + '/assets-none');
  await page.evaluate(([session, code]) => {
    localStorage.setItem('cirrus.session', session);
    localStorage.setItem('cirrus.lang', code);
  }, [JSON.stringify(pair), lang] as const);
}
