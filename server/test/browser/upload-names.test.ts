// Names the server can never accept (Windows device names such as CON, a
// trailing dot) are checked in the browser with the server's own rule
// (shared/portable-names.ts): an upload of such a file is refused before it
// is sent, listed as failed with the reason in the reader's language, left
// out of the total and not offered a retry; New folder says which rule the
// name breaks. English and Chinese, desktop and phone, axe on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot } from './viewports.js';
import { closeSuite, openSuite } from './suite.js';

const PASSWORD = 'user-password-123';
const LANGS = [
  {
    locale: 'en-US', tag: 'en', reserved: /“CON” is reserved for a device on Windows/, trailing: /cannot end with a dot or a space/,
    resume: /^Resume /, newFolder: 'New folder', folderName: 'Folder name', create: 'Create', total: 'All uploads',
  },
  {
    locale: 'zh-CN', tag: 'zh', reserved: /“CON” 是 Windows 保留的设备名/, trailing: /不能以句点或空格结尾/,
    resume: /^继续 /, newFolder: '新建文件夹', folderName: '文件夹名称', create: '创建', total: '全部上传',
  },
] as const;

describe('web app: names the server can never accept', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let admin: string;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  for (const lang of LANGS) {
    for (const v of VIEWPORTS) {
      it(`${lang.tag} ${v.name}: CON.txt and "notes." are refused before sending, with the rule in the reader's language, outside the total, with no retry`, async () => {
        const email = `names-${lang.tag}-${v.name}@example.com`;
        const user = await createUser(api, admin, email, PASSWORD);
        const { context, page, problems } = await openIn(browser, v, lang.locale);
        const pair = (await signIn(api, email, PASSWORD)).token;
        await page.goto(server.url + '/');
        await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
        const uploadPosts: string[] = [];
        page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().endsWith('/api/v4/file/upload')) uploadPosts.push(r.headers()['upload-metadata'] ?? '');
        });
        await page.goto(server.url + '/files');
        await page.getByTestId('upload-files-input').setInputFiles([
          { name: 'good.txt', mimeType: 'text/plain', buffer: Buffer.from('fine') },
          { name: 'CON.txt', mimeType: 'text/plain', buffer: Buffer.from('x'.repeat(3000)) },
          { name: 'notes.', mimeType: 'text/plain', buffer: Buffer.from('y'.repeat(3000)) },
        ]);
        const panel = page.locator('section').filter({ has: page.getByRole('progressbar', { name: lang.total }) }).first();
        const con = page.locator('[data-upload="/CON.txt"]');
        const dot = page.locator('[data-upload="/notes."]');
        await con.getByRole('alert').filter({ hasText: lang.reserved }).waitFor();
        await dot.getByRole('alert').filter({ hasText: lang.trailing }).waitFor();
        await page.locator('[data-upload="/good.txt"] [data-testid="upload-percent"]').filter({ hasText: '100 %' }).waitFor();
        // The total counts only what can be sent: it reaches 100 %.
        await panel.getByRole('progressbar', { name: lang.total }).and(page.locator('[aria-valuenow="100"]')).waitFor();
        assert.equal(await con.getByRole('button', { name: lang.resume }).count(), 0, 'no retry for a name that can never be accepted');
        assert.equal(await dot.getByRole('button', { name: lang.resume }).count(), 0, 'no retry for a name that can never be accepted');
        assert.equal(uploadPosts.length, 1, `only good.txt was sent (${uploadPosts.join(' | ')})`);
        if (lang.tag === 'zh') assert.doesNotMatch(await panel.innerText(), /reserved|must not/, 'no English rule text for a Chinese reader');
        await shot(page, `upload-names-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the refused uploads listed');

        // New folder: the rule, in the reader's language, before anything is sent.
        await press(v, page.getByRole('button', { name: lang.newFolder }).first());
        const input = page.getByRole('dialog').getByLabel(lang.folderName);
        await input.fill('CON');
        await press(v, page.getByRole('dialog').getByRole('button', { name: lang.create }));
        await page.getByRole('dialog').getByText(lang.reserved).waitFor();
        await input.fill('Drafts.');
        await press(v, page.getByRole('dialog').getByRole('button', { name: lang.create }));
        await page.getByRole('dialog').getByText(lang.trailing).waitFor();
        await shot(page, `new-folder-name-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe with the refused folder name');
        const listing = await api.get<{ files: { name: string }[] }>('/api/v4/file?path=/', { token: user.token.access_token });
        assert.deepEqual(listing.body.data.files.map((f) => f.name), ['good.txt']);
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
