// Content search in the web app (issue 35, api-contract §16): a document
// uploaded with a unique phrase is found with "Search inside files" on, its
// snippet shows the phrase marked and a "<script>" in its text as text; off,
// only names match and the empty state offers to look inside; the type
// filter narrows on the server; a word nobody wrote gives the zero-results
// state; a file the indexer has not reached gives the "still indexing" state.
// English on the desktop, Chinese on the phone, axe and screenshots on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'search-ui-password-1';
const LANGS = {
  desktop: { locale: 'en-US', tag: 'en', inside: 'Search inside files', type: 'Type', images: 'Images', noResults: 'No results', turnOn: 'Search inside files too', clear: 'Clear filters', indexing: /still being indexed/ },
  phone: { locale: 'zh-CN', tag: 'zh-CN', inside: '搜索文件内容', type: '类型', images: '图片', noResults: '没有结果', turnOn: '同时搜索文件内容', clear: '清除筛选', indexing: /仍在建立索引/ },
} as const;

/** Letters only, so the tokenizer keeps it whole. */
const unique = (prefix: string) => `${prefix}${randomBytes(5).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;

describe('web app: content search', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  const upload = async (token: string, path: string, body: string) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(path)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body,
    });
    assert.equal(res.status, 200, await res.text());
  };

  /** Waits until the background indexer has the phrase (the page would find it too, a poll later). */
  const indexed = async (token: string, word: string) => {
    const until = Date.now() + 20_000;
    for (;;) {
      const res = await api.get<{ files: unknown[] }>(`/api/v4/file/search?scope=content&q=${word}`, { token });
      if (res.body.data.files.length > 0) return;
      assert.ok(Date.now() < until, `${word} indexed within 20 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  for (const v of VIEWPORTS) {
    const L = LANGS[v.name];
    it(`${L.tag} ${v.name}: finds a phrase inside a document with its snippet; name-only, type filter and zero results say so`, async () => {
      const email = `search-ui-${v.name}@example.com`;
      const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
      const word = unique('clause');
      await upload(token, '/contracts/lease.txt', `Section 4. The tenant pays the ${word} penalty if the <script>window.pwned=1</script> rent is late.`);
      await indexed(token, word);

      const { context, page, problems } = await openIn(browser, v, L.locale);
      await startSignedIn(page, server.url, (await signIn(api, email, PASSWORD)).token, L.tag);
      await page.goto(`${server.url}/search?q=${word}`);
      const row = page.locator('[data-path="/contracts/lease.txt"]');
      await row.waitFor();
      assert.equal(await page.getByRole('switch', { name: L.inside }).isChecked(), true, 'the switch is on by default');
      const snippet = row.getByTestId('snippet');
      assert.equal(await snippet.locator('mark').innerText(), word, 'the phrase is marked');
      assert.match(await snippet.innerText(), /<script>window\.pwned=1<\/script>/, 'markup in the text is shown as text');
      assert.equal(await snippet.locator('script').count(), 0);
      assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined, 'nothing ran');
      await shot(page, `search-snippet-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe: results with snippets and filters');

      // Names only: the name does not hold the phrase.
      await press(v, page.getByRole('switch', { name: L.inside }));
      await page.getByText(L.noResults).waitFor();
      assert.equal(await row.count(), 0);
      assert.match(page.url(), /inside=0/);
      await press(v, page.getByRole('button', { name: L.turnOn }));
      await row.waitFor();

      // The type filter is applied by the server: a text file is not an image.
      await page.getByRole('combobox', { name: L.type }).selectOption('image');
      await page.getByText(L.noResults).waitFor();
      await press(v, page.getByRole('button', { name: L.clear }));
      await row.waitFor();

      // A word that is nowhere.
      await page.goto(`${server.url}/search?q=${unique('nowhere')}`);
      await page.getByTestId('search-empty').getByText(L.noResults).waitFor();
      await shot(page, `search-none-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe: zero results');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('en desktop: a file the indexer has not reached yet gives the "still indexing" state', async () => {
    const email = 'search-ui-pending@example.com';
    const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    // The indexer stops (as if busy elsewhere): the new file stays unextracted, and the page must say so.
    server.built.services.search.indexer.stop();
    const word = unique('waiting');
    await upload(token, '/later.txt', `a ${word} that is not indexed yet`);
    const { context, page, problems } = await openIn(browser, VIEWPORTS[0]);
    await startSignedIn(page, server.url, (await signIn(api, email, PASSWORD)).token, 'en');
    await page.goto(`${server.url}/search?q=${word}`);
    await page.getByRole('status').filter({ hasText: LANGS.desktop.indexing }).waitFor();
    assert.match(await page.getByRole('status').filter({ hasText: LANGS.desktop.indexing }).innerText(), /^1 of your files is still being indexed/);
    await page.getByText('Some of your files are still being indexed: try again in a moment.').waitFor();
    await shot(page, 'search-indexing-desktop');
    assert.deepEqual(await seriousA11yViolations(page), [], 'axe: still indexing');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
