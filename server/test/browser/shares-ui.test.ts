// Share links in the browser (issue 23, items 4, 9 and 10), at 1280×800 and
// on a 390×844 touch phone: the share dialog opens an item's existing link
// (copy, change, stop) instead of making a second one, and refuses a download
// limit of 0 next to the field instead of turning it into 1; the public page
// shows an image share as the image and text and code highlighted as the
// signed-in preview does, without using up the download limit, and keeps
// each file's Download on screen on a phone. axe-core on each page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, seriousA11yViolations, signInThroughForm } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const PASSWORD = 'shares-ui-password-1';

describe('web app: share links (existing link, download limit, public page previews)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let token: string;
  let png: Buffer;
  const email = `shares-ui-${process.pid}@example.com`;
  const code = 'export function greet(name: string): string {\n  // say hello\n  return `Hello, ${name}`;\n}\n';
  const text = 'Plain notes, line one.\nLine two.\n';

  const put = async (p: string, body: string | Buffer) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const sharesOf = async (p: string) => {
    const res = await fetch(`${server.url}/api/v4/share?path=${encodeURIComponent(p)}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: { shares: { id: string; url: string; downloads: number; download_limit: number | null; strip_location: boolean }[] } }).data.shares;
  };
  const makeShare = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/v4/share`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return ((await res.json()) as { data: { id: string; url: string } }).data;
  };
  const ownerView = async (id: string) => {
    const res = await fetch(`${server.url}/api/v4/share/${id}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: { downloads: number; status: string } }).data;
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    for (const v of VIEWPORTS) {
      await put(`/${v.name}/notes.txt`, text);
      await put(`/${v.name}/photo.png`, png);
      await put(`/${v.name}/main.ts`, code);
      await put(`/${v.name}/pub/a-rather-long-file-name-that-would-push-the-download-button-off-a-phone-screen.txt`, 'long');
      await put(`/${v.name}/pub/main.ts`, code);
      await put(`/${v.name}/pub/photo.png`, png);
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: Share on a shared item opens its link (copy, change, stop), never a second link; a limit of 0 is refused next to the field`, async () => {
      const { context, page, problems } = await openIn(browser, v);
      await signInThroughForm(page, `${server.url}/files/${v.name}`, email, PASSWORD);
      const row = page.locator(`[data-path="/${v.name}/notes.txt"]`);
      await row.waitFor();
      const openShare = async () => {
        // On touch a tap opens the file; its check box selects it (as in Google Drive).
        if (v.touch) {
          const box = row.getByRole('checkbox', { name: 'Select notes.txt' });
          if (!(await box.isChecked())) await box.tap();
        } else await row.click();
        await page.getByRole('button', { name: 'Share', exact: true }).first().click();
        return page.getByRole('dialog');
      };

      // A new link: 0 is refused in the form, not rounded up to 1.
      let dialog = await openShare();
      await dialog.getByRole('button', { name: 'Create link' }).waitFor();
      await dialog.getByLabel('Download limit').fill('0');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const limitError = dialog.getByText('Enter a number from 1 to 1,000,000, or leave it empty for no limit.');
      await limitError.waitFor();
      assert.equal(await dialog.getByLabel('Download limit').inputValue(), '0', 'the 0 stays as typed');
      assert.equal(await dialog.getByLabel('Download limit').getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await sharesOf(`/${v.name}/notes.txt`), [], 'nothing was created');
      await shot(page, `share-limit0-${v.name}`);
      await dialog.getByLabel('Download limit').fill('');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const link = await dialog.getByLabel('Link', { exact: true }).inputValue();
      assert.match(link, /\/s\/[A-Za-z0-9]+$/);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Share again: the same link, with its settings, and no second one.
      dialog = await openShare();
      await dialog.getByText('This item already has a link.', { exact: false }).waitFor();
      assert.equal(await dialog.getByLabel('Link', { exact: true }).inputValue(), link);
      await dialog.getByRole('button', { name: 'Copy link' }).waitFor();
      await shot(page, `share-existing-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the existing link');
      // Photo locations are removed unless the owner switches it off (issue 36).
      await dialog.getByText('Photo locations removed').waitFor();
      await dialog.getByRole('button', { name: 'Change settings' }).click();
      await dialog.getByLabel('Download limit').fill('3');
      const strip = dialog.getByRole('switch', { name: 'Remove location from photos' });
      assert.equal(await strip.isChecked(), true);
      await strip.uncheck();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('Downloads: 0 of 3').waitFor();
      await dialog.getByText('Photo locations shown').waitFor();
      assert.equal(await dialog.getByLabel('Link', { exact: true }).inputValue(), link);
      await dialog.getByRole('button', { name: 'Done' }).click();
      const shares = await sharesOf(`/${v.name}/notes.txt`);
      assert.equal(shares.length, 1, 'still one link');
      assert.equal(shares[0]!.download_limit, 3);
      assert.equal(shares[0]!.strip_location, false);

      // Stop sharing: the link goes, and Share offers a new one.
      dialog = await openShare();
      await dialog.getByRole('button', { name: 'Stop sharing' }).click();
      await dialog.getByText('The link stops working at once', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Stop sharing' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.deepEqual(await sharesOf(`/${v.name}/notes.txt`), []);
      assert.equal((await fetch(link)).status, 404);
      dialog = await openShare();
      await dialog.getByRole('button', { name: 'Create link' }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: an image share shows the image; viewing it (twice) leaves the 1-download limit for the download`, async () => {
      const s = await makeShare({ path: `/${v.name}/photo.png`, download_limit: 1 });
      const { context, page, problems } = await openIn(browser, v);
      for (let visit = 0; visit < 2; visit++) {
        await page.goto(s.url);
        const img = page.getByRole('img', { name: 'photo.png' });
        await img.waitFor();
        await page.waitForFunction(() => Array.from(document.images).some((i) => i.alt === 'photo.png' && i.complete && i.naturalWidth === 64));
      }
      await shot(page, `public-image-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the image share');
      assert.equal((await ownerView(s.id)).downloads, 0, 'the previews used no download');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).first().click()]);
      assert.deepEqual(readFileSync((await download.path())!), png);
      const after = await ownerView(s.id);
      assert.equal(after.downloads, 1);
      assert.equal(after.status, 'exhausted');
      await page.reload();
      await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: text and code shares are shown on the page, code highlighted; in a folder share each file's Download stays on screen`, async () => {
      const codeShare = await makeShare({ path: `/${v.name}/main.ts` });
      const textShare = await makeShare({ path: `/${v.name}/notes.txt` });
      const folder = await makeShare({ path: `/${v.name}/pub` });
      const { context, page, problems } = await openIn(browser, v);

      await page.goto(codeShare.url);
      const pre = page.locator('pre.cirrus-code[data-highlighted="true"]');
      await pre.waitFor();
      assert.ok((await pre.locator('.hljs-keyword').count()) > 0, 'keywords are highlighted');
      assert.match((await pre.textContent()) ?? '', /greet\(name: string\)/);
      await shot(page, `public-code-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the code share');

      await page.goto(textShare.url);
      await page.locator('pre.cirrus-code').filter({ hasText: 'Plain notes, line one.' }).waitFor();

      await page.goto(folder.url);
      await page.getByText('main.ts', { exact: true }).waitFor();
      const width = v.viewport.width;
      for (const name of ['a-rather-long-file-name-that-would-push-the-download-button-off-a-phone-screen.txt', 'main.ts', 'photo.png']) {
        const dl = page.getByRole('link', { name: `Download ${name}` }).and(page.locator(':visible'));
        const box = await dl.boundingBox();
        assert.ok(box, `Download ${name} is shown`);
        assert.ok(box.x >= 0 && box.x + box.width <= width, `Download ${name} is on screen (${box.x}+${box.width} of ${width})`);
      }
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `no sideways scrolling (${scrollWidth} > ${width})`);
      await shot(page, `public-folder-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the folder share');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download main.ts' }).and(page.locator(':visible')).click()]);
      assert.equal(readFileSync((await download.path())!, 'utf8'), code);

      // A code file in the folder opens highlighted, with its Download.
      await page.getByText('main.ts', { exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('pre.cirrus-code[data-highlighted="true"] .hljs-keyword').first().waitFor();
      await dialog.getByRole('link', { name: 'Download' }).waitFor();
      await shot(page, `public-folder-preview-${v.name}`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
