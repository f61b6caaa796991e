// A queue of many small files through the page: every file arrives, the
// total reaches 100 %, the folder lists them; and the queue's cost does not
// grow with its length: the uploads panel renders the rows in view (not one
// per queued file), and the folder is re-listed a bounded number of times (not
// once per finished file). Speed is measured in bench/upload-queue.mjs, never
// here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';
import { closeSuite, openSuite } from './suite.js';

const PASSWORD = 'user-password-123';
const COUNT = 300;
const name = (i: number) => `f-${String(i).padStart(3, '0')}.txt`;

describe('web app: a queue of 300 small files', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  for (const v of VIEWPORTS) {
    it(`${v.name}: all ${COUNT} arrive, the total reaches 100 %, the folder lists them; the panel renders the rows in view and the folder is not re-listed per file`, async () => {
      const email = `queue-${v.name}@example.com`;
      const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
      const { context, page, problems } = await openIn(browser, v);
      const pair = (await signIn(api, email, PASSWORD)).token;
      await page.goto(server.url + '/');
      await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
      await page.goto(server.url + '/files');
      await page.getByText('This folder is empty').waitFor();
      let listings = 0;
      page.on('request', (r) => {
        if (r.method() === 'GET' && /\/api\/v4\/file\?/.test(r.url())) listings++;
      });
      await page.getByTestId('upload-files-input').setInputFiles(
        Array.from({ length: COUNT }, (_, i) => ({ name: name(i), mimeType: 'text/plain', buffer: Buffer.from(`file ${i}\n`) })),
      );
      const panel = page.getByRole('region', { name: 'Uploads' });
      const total = panel.getByRole('progressbar', { name: 'All uploads' });
      await total.and(page.locator('[aria-valuenow="100"]')).waitFor({ timeout: 240_000 });
      await panel.getByText('Uploads', { exact: true }).waitFor({ timeout: 60_000 });

      // Every file is on the server, with its bytes.
      const exists = await api.post<{ results: { path: string; exists: boolean }[] }>('/api/v4/file/exists', { paths: Array.from({ length: COUNT }, (_, i) => `/${name(i)}`) }, { token });
      assert.deepEqual(exists.body.data.results.filter((r) => !r.exists).map((r) => r.path), [], 'every file arrived');
      const one = await api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent(`/${name(123)}`)}`, { token });
      assert.equal(one.text, 'file 123\n');
      // The folder shows them once the queue has run out.
      await page.locator(`[role="row"][data-path="/${name(0)}"]`).waitFor();
      // The panel lists all of them, rendering only those in view.
      const rendered = await panel.locator('[data-upload]').count();
      assert.ok(rendered > 0 && rendered <= 30, `${rendered} rows rendered for ${COUNT} uploads`);
      await panel.getByRole('group', { name: 'Uploads' }).evaluate((el) => (el.scrollTop = el.scrollHeight));
      await panel.locator(`[data-upload="/${name(COUNT - 1)}"] [data-testid="upload-percent"]`).filter({ hasText: '100 %' }).waitFor();
      assert.ok(listings < COUNT / 3, `the folder was listed ${listings} times for ${COUNT} files`);
      await shot(page, `upload-queue-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the finished queue');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
