// The two screens every web-app change is checked on (issue 23): a 1280×800
// desktop and a 390×844 phone with touch (hasTouch, isMobile).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS } from './support.js';

export const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  problems: string[];
}

/** A context for one viewport (the site's CSP in force), in English unless `locale` says otherwise. */
export async function openIn(browser: Browser, v: Viewport, locale = 'en-US'): Promise<Opened> {
  const context = await browser.newContext({
    viewport: v.viewport,
    hasTouch: v.touch,
    isMobile: v.touch,
    locale,
    colorScheme: 'light',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of (400|401|403|404|409)/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { context, page, problems };
}

/** A screenshot of what the person sees, in test-artifacts/ (support.ts: per checkout, so concurrent runs do not overwrite each other's). */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `ui-${name}.png`) });
}

/** Taps on a touch screen, clicks otherwise. */
export async function press(v: Viewport, target: { tap(): Promise<void>; click(): Promise<void> }): Promise<void> {
  if (v.touch) await target.tap();
  else await target.click();
}

/** Picks `item` from a file row's menu: right-click on a desktop; on a touch screen, select the row, then "More actions" (`more`). */
export async function chooseFromRowMenu(page: Page, v: Viewport, path: string, more: string, item: string): Promise<void> {
  const row = page.locator(`[data-path="${path}"]`);
  if (v.touch) {
    await row.click();
    await press(v, page.getByRole('button', { name: more }));
  } else await row.click({ button: 'right' });
  await page.getByRole('menuitem', { name: item }).click();
}
