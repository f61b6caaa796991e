// Details of forms and cards a person meets once, on a desktop and a phone,
// in English and Chinese (axe on each): the code field on /device and the
// two-step code boxes take the focus when they appear; a phone's card for an
// upload link counts received files in a sentence of the reader's language;
// the New OAuth App form is labelled in the reader's language with the
// seed's English field names as hints; /signup with sign-up closed says so
// instead of showing the form; the rights badges of Dashboard → Groups are
// readable on a phone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot, type Viewport } from './viewports.js';

const PASSWORD = 'amber-quiet-meadow-71';
const LANGS = [
  { locale: 'en-US', tag: 'en' },
  { locale: 'zh-CN', tag: 'zh' },
] as const;
type Lang = (typeof LANGS)[number];

describe('web app: focus, counts, labels and small screens', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await api.patch('/api/v4/admin/settings', { signup_enabled: false }, { token: admin });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openSignedIn(v: Viewport, lang: Lang, email: string, password: string) {
    const opened = await openIn(browser, v, lang.locale);
    const pair = (await signIn(api, email, password)).token;
    await opened.page.goto(server.url + '/');
    await opened.page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
    return opened;
  }

  const focusedElement = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return { tag: el?.tagName ?? '', cls: el?.className ?? '', autocomplete: el?.getAttribute('autocomplete') ?? '' };
    });

  for (const lang of LANGS) {
    for (const v of VIEWPORTS) {
      const id = `${lang.tag}-${v.name}`;

      it(`${id}: the code field of /device has the focus when it appears (RFC 8628 §3.3)`, async () => {
        const email = `device-focus-${id}@example.com`;
        await createUser(api, admin, email, PASSWORD);
        const { context, page, problems } = await openSignedIn(v, lang, email, PASSWORD);
        await page.goto(server.url + '/device');
        await page.locator('input[autocomplete="one-time-code"]').waitFor();
        const focused = await focusedElement(page);
        assert.equal(focused.autocomplete, 'one-time-code', `the code field has the focus (${JSON.stringify(focused)})`);
        await page.keyboard.type('abcdwxyz');
        assert.equal(await page.locator('input[autocomplete="one-time-code"]').inputValue(), 'ABCD-WXYZ', 'typing goes into the field with no click');
        await shot(page, `device-focus-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });

      it(`${id}: after "Turn on" the first of the six code boxes has the focus (RFC 6238)`, async () => {
        const email = `totp-focus-${id}@example.com`;
        await createUser(api, admin, email, PASSWORD);
        const { context, page, problems } = await openSignedIn(v, lang, email, PASSWORD);
        await page.goto(server.url + '/settings/security');
        await press(v, page.getByRole('button', { name: lang.tag === 'en' ? 'Turn on' : '开启' }));
        await page.getByTestId('totp-secret').waitFor();
        await page.locator('img[src^="data:image"]').waitFor();
        const focused = await focusedElement(page);
        assert.match(focused.cls, /mantine-PinInput-input/, `the first code box has the focus (${JSON.stringify(focused)})`);
        await page.keyboard.type('123456');
        const boxes = page.locator('.mantine-PinInput-input');
        assert.equal(await boxes.nth(5).inputValue(), '6', 'typing fills the six boxes with no click');
        await shot(page, `totp-focus-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });

      it(`${id}: /signup with sign-up closed says so, and what to do, instead of the form`, async () => {
        const { context, page, problems } = await openIn(browser, v, lang.locale);
        await page.goto(server.url + '/signup');
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByText(lang.tag === 'en' ? 'Sign-up is closed' : '注册已关闭').first().waitFor();
        assert.equal(await page.locator('input[type="email"], input[type="password"]').count(), 0, 'no form to fill in');
        await page.getByRole('link', { name: lang.tag === 'en' ? 'Sign in' : '登录' }).waitFor();
        await page.getByText(lang.tag === 'en' ? /ask an administrator/ : /请联系管理员/).waitFor();
        await shot(page, `signup-closed-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });

      it(`${id}: the New OAuth App form is labelled in the reader's language, with the seed's English names as hints`, async () => {
        const { context, page, problems } = await openSignedIn(v, lang, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.goto(server.url + '/admin/apps/new');
        await page.getByRole('heading', { level: 1, name: lang.tag === 'en' ? 'New OAuth App' : '新建 OAuth 应用（New OAuth App）' }).waitFor();
        const labels = lang.tag === 'en'
          ? ['App Name', 'App Icon', 'Client ID', 'Redirect URIs']
          : ['应用名称（App Name）', '应用图标（App Icon）', '客户端 ID（Client ID）', '重定向 URI（Redirect URIs）'];
        // A required field's name ends in " *" (the asterisk is part of the label).
        const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
        for (const label of labels) await page.getByLabel(exactly(label)).first().waitFor();
        await page.getByText(lang.tag === 'en' ? 'Client Secret' : '客户端密钥（Client Secret）', { exact: true }).first().waitFor();
        await shot(page, `oauth-app-form-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });

      it(`${id}: the rights badges of Dashboard → Groups are not cut off`, async () => {
        await api.put('/api/v4/admin/group', { name: `Editors ${id}`, is_admin: false }, { token: admin });
        const { context, page, problems } = await openSignedIn(v, lang, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.goto(server.url + '/admin/groups');
        const badge = page.getByText(lang.tag === 'en' ? 'Administrator' : '管理员', { exact: true }).first();
        await badge.waitFor();
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll('main .mantine-Badge-root, main .mantine-Badge-label')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1)
            .map((el) => `${el.textContent} (${el.scrollWidth} > ${el.clientWidth})`),
        );
        assert.deepEqual(cut, [], 'every badge shows its whole text');
        await shot(page, `groups-badges-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });

      it(`${id}: a phone's card for an upload link counts received files in a sentence`, async () => {
        const email = `cards-${id}@example.com`;
        const user = await createUser(api, admin, email, PASSWORD);
        const token = user.token.access_token;
        await api.post('/api/v4/file/create', { path: '/Inbox', type: 'folder' }, { token });
        await api.post('/api/v4/file/create', { path: '/Public', type: 'folder' }, { token });
        const upload = await api.put<{ id: string }>('/api/v4/share', { path: '/Inbox', upload_only: true }, { token });
        const download = await api.put<{ id: string }>('/api/v4/share', { path: '/Public' }, { token });
        assert.equal(upload.status, 200, upload.text);
        assert.equal(download.status, 200, download.text);
        const { context, page, problems } = await openSignedIn(v, lang, email, PASSWORD);
        await page.goto(server.url + '/shares');
        const expect = lang.tag === 'en'
          ? { upload: /0 views · 0 files received/, download: /0 views · 0 downloads/ }
          : { upload: /浏览 0 次 · 已收到 0 个文件/, download: /浏览 0 次 · 下载 0 次/ };
        const where = v.name === 'phone' ? (sid: string) => page.locator(`[data-share="${sid}"]`) : (sid: string) => page.getByRole('row').filter({ hasText: sid === upload.body.data.id ? 'Inbox' : 'Public' });
        if (v.name === 'phone') {
          await where(upload.body.data.id).getByText(expect.upload).waitFor();
          await where(download.body.data.id).getByText(expect.download).waitFor();
          const text = await where(upload.body.data.id).innerText();
          assert.doesNotMatch(text, /received downloads|已收到 0 个 次/, text);
        } else {
          await where(upload.body.data.id).waitFor();
        }
        await shot(page, `share-cards-${id}`);
        assert.deepEqual(await seriousA11yViolations(page), []);
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
