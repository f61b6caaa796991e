// Shared pieces of the browser tests: Debian's Chromium through playwright-core,
// a local "third-party app" that receives OAuth redirects, screenshots, and
// TOTP codes for the two-step sign-in.
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { ROOT_DIR } from '../../src/paths.js';

export const ARTIFACTS = path.join(ROOT_DIR, 'test-artifacts');
// Debian's chromium-headless-shell when it is installed (.ci/run installs it): the same
// Chromium build without the browser's own UI (the full browser in headless mode still runs its
// WebUI renderer); the tests and their browser used 13 % less CPU with it on browser/screens (docs/testing.md).
const CHROMIUM = process.env.CIRRUS_CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/**
 * `skip` for describe(): a reason when the browser tests are switched off on
 * purpose (CIRRUS_SKIP_BROWSER=1). A missing Chromium is never a skip: the
 * tests fail in launchBrowser() with the reason.
 */
export const browserSkip: string | false =
  process.env.CIRRUS_SKIP_BROWSER === '1' ? 'browser tests skipped: CIRRUS_SKIP_BROWSER=1' : false;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it (apt-get install -y chromium-headless-shell, or chromium) or set CIRRUS_SKIP_BROWSER=1 to skip the browser tests.`);
  }
  if (!existsSync(path.join(ROOT_DIR, 'web/dist/index.html'))) {
    throw new Error('The web app is not built (web/dist/index.html is missing). Run `npm run build:web` first (`npm test` does).');
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and CSP violations seen so far. */
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/** A phone as Chromium emulates one: its screen, touch input and mobile viewport rules. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

/** A page in a fresh context (a desktop window unless `device` says otherwise), with its problems collected. */
export async function openPage(browser: Browser, device: typeof PHONE | { viewport: { width: number; height: number } } = { viewport: { width: 1100, height: 900 } }): Promise<WatchedPage> {
  const context = await browser.newContext({ ...device, colorScheme: 'light' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  followRequests(page);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of (400|401|404)/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => requests.push(req.url()));
  return { page, context, problems, requests };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A stand-in for a third-party app: records every request it gets. */
export interface RedirectCatcher {
  origin: string;
  hits: URL[];
  close(): Promise<void>;
}

export async function startRedirectCatcher(): Promise<RedirectCatcher> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Test app</title><p>Redirect received</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), written independently of the server's. */
export function totp(secretBase32: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secretBase32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

export const currentStep = () => Math.floor(Date.now() / 30_000);

/** After sign-in the app shows the file manager; the account menu names who is signed in. */
export async function expectSignedIn(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menu').getByText(email).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'hidden' });
}

const AXE_SOURCE = path.join(ROOT_DIR, 'node_modules/axe-core/axe.min.js');

/**
 * Runs axe-core on the page as it is (WCAG 2.x A/AA rules) and returns the
 * serious and critical violations, one line each. axe is evaluated through
 * the DevTools protocol, which the page's Content-Security-Policy does not
 * govern, so the tests keep the policy in force: anything the app itself does
 * against it shows up as a console error.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
    // Judge the page at rest: a fade-in caught halfway reads as low contrast.
    await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  }
  await page.waitForTimeout(50);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; any: { message: string }[] }[] }[] }> } }).axe;
    // resultTypes: only violations are read, so axe details one node of each passing rule instead of every node.
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.any[0]?.message ?? ''}`).slice(0, 3).join('; ')})`);
}

/** A context for the app tests: a viewport and the light scheme, with the site's CSP in force. */
export async function openAppPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, colorScheme: 'light', acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  followRequests(page);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of (400|401|403|404|409)/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => requests.push(req.url()));
  return { page, context, problems, requests };
}

/** Screenshot of the viewport only (what a person sees first). */
export async function screenshotView(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Signs in through the form on `url` (any shell page shows it while signed out). */
export async function signInThroughForm(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(url);
  await fillSignInForm(page, email, password);
}

/** Signs in through the English sign-in form already on the page (a page that asks for it before acting). */
export async function fillSignInForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Requests in flight per page, live streams left out (see networkQuiet). */
const inFlight = new WeakMap<Page, Set<Request>>();

/** Starts following a page's requests (networkQuiet needs to have seen them start). */
export function followRequests(page: Page): Set<Request> {
  let set = inFlight.get(page);
  if (!set) {
    const open = new Set<Request>();
    page.on('request', (r) => {
      if (!/\/events$/.test(new URL(r.url()).pathname)) open.add(r);
    });
    page.on('requestfinished', (r) => open.delete(r));
    page.on('requestfailed', (r) => open.delete(r));
    inFlight.set(page, (set = open));
  }
  return set;
}

/**
 * Waits until the page's own requests are done (none in flight for 500 ms).
 * Not Playwright's 'networkidle': a signed-in page opens live streams (the
 * change feed, notifications; paths ending in /events) 1.5 s after it loads,
 * and an open stream keeps the network busy for good, so 'networkidle' never
 * came when the page's own requests took longer than that. Requests are
 * followed from followRequests on (openAppPage and openPage call it at once;
 * otherwise the first networkQuiet does).
 */
export async function networkQuiet(page: Page, timeoutMs = 5_000): Promise<void> {
  const open = followRequests(page);
  await page.waitForLoadState('load');
  const until = Date.now() + timeoutMs;
  let quietSince = Date.now();
  // A request cut short by a navigation is not always reported as ended: past
  // the timeout the test goes on, as with 'networkidle' waited for a while.
  while (Date.now() < until) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 500) return;
    await page.waitForTimeout(50);
  }
  // Forgotten, so that the next wait is not held by them too.
  open.clear();
}
