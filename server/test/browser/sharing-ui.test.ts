// Sharing with people in the browser (issue 22): A shares a folder with B in
// the share dialog's People section; B sees a badge on "Shared with me",
// finds the folder at /shared, opens it in the file manager and uploads into
// it; the file lands in A's folder. At 1280×800 and 390×844, in English and
// Chinese, axe-core clean, screenshots under test-artifacts/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, launchBrowser, screenshotView, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press } from './viewports.js';

const PASSWORD = 'sharing-ui-password-1';
const LANGS = [
  { code: 'en', locale: 'en-US', share: 'Share', add: 'Add', addLabel: 'Add a person or group', perm: 'Permission', edit: 'Can edit', nav: 'Shared with me' },
  { code: 'zh-CN', locale: 'zh-CN', share: '分享', add: '添加', addLabel: '添加用户或群组', perm: '权限', edit: '可编辑', nav: '与我共享' },
] as const;

describe('web app: sharing with people', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'sharing-ui-'));

  const person = async (name: string): Promise<{ email: string; pair: TokenPair }> => {
    const email = `${name}-${process.pid}-${Date.now()}@example.com`;
    const made = await api.put('/api/v4/admin/user', { email, password: PASSWORD, nickname: name }, { token: admin });
    assert.equal(made.status, 200, made.text);
    return { email, pair: (await signIn(api, email, PASSWORD)).token };
  };
  const signedIn = async (page: Page, pair: TokenPair, lang: string) => {
    await page.goto(server.url + '/assets-none');
    await page.evaluate(([session, code]) => {
      localStorage.setItem('cirrus.session', session);
      localStorage.setItem('cirrus.lang', code);
    }, [JSON.stringify(pair), lang] as const);
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    writeFileSync(path.join(dir, 'from-bob.txt'), 'uploaded by Bob');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWPORTS) {
    for (const lang of LANGS) {
      it(`${v.name}, ${lang.code}: A shares a folder with B, B finds it under Shared with me and uploads to it`, async () => {
        const alice = await person('Alice');
        const bob = await person('Bob');
        const folder = `/Team ${v.name} ${lang.code}`;
        const made = await api.post('/api/v4/file/create', { path: `${folder}/readme.txt`, type: 'file' }, { token: alice.pair.access_token });
        assert.equal(made.status, 200, made.text);

        // A: select the folder, Share, People: add B with "Can edit".
        const a = await openIn(browser, v, lang.locale);
        await signedIn(a.page, alice.pair, lang.code);
        await a.page.goto(`${server.url}/files`);
        const row = a.page.locator(`[data-path="${folder}"]`);
        await row.waitFor();
        if (v.touch) await row.getByRole('checkbox').tap();
        else await row.click();
        await a.page.getByRole('button', { name: lang.share, exact: true }).first().click();
        const dialog = a.page.getByRole('dialog');
        await dialog.getByLabel(lang.addLabel).fill(bob.email);
        // The suggestions open over the permission field, as they do for a person, who picks Bob there.
        const suggestion = a.page.getByRole('listbox').getByRole('option', { name: `Bob <${bob.email}>` });
        if (v.touch) await suggestion.tap();
        else await suggestion.click();
        await dialog.getByLabel(lang.perm, { exact: true }).first().click();
        await a.page.getByRole('option', { name: lang.edit }).click();
        await dialog.getByRole('button', { name: lang.add, exact: true }).click();
        await dialog.getByText(`Bob <${bob.email}>`).waitFor();
        await screenshotView(a.page, `sharing-dialog-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(a.page), [], 'axe on the share dialog');
        assert.deepEqual(a.problems, []);
        await a.context.close();

        // B: the badge, the list, the folder in the file manager, an upload.
        const b = await openIn(browser, v, lang.locale);
        await signedIn(b.page, bob.pair, lang.code);
        await b.page.goto(`${server.url}/files`);
        if (v.touch) await b.page.getByRole('button', { name: /menu|菜单/i }).first().click();
        const nav = b.page.getByRole('link', { name: new RegExp(lang.nav) });
        await nav.getByText('1').waitFor();
        await press(v, nav);
        await b.page.waitForURL(/\/shared$/);
        const item = b.page.getByRole('button', { name: new RegExp(folder.slice(1)) });
        await item.waitFor();
        await screenshotView(b.page, `sharing-list-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(b.page), [], 'axe on Shared with me');
        await press(v, item);
        await b.page.waitForURL(/\/files\/Shared%20with%20me\//);
        await b.page.locator(`[data-path="/Shared with me/Alice – ${folder.slice(1)}/readme.txt"]`).waitFor();
        await b.page.getByTestId('upload-files-input').setInputFiles(path.join(dir, 'from-bob.txt'));
        await b.page.locator(`[data-path="/Shared with me/Alice – ${folder.slice(1)}/from-bob.txt"]`).waitFor();
        await screenshotView(b.page, `sharing-browse-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(b.page), [], 'axe in the shared folder');
        assert.deepEqual(b.problems, []);
        await b.context.close();

        // The file is the owner's.
        const got = await api.fetch(`/api/v4/file/content?path=${encodeURIComponent(`${folder}/from-bob.txt`)}`, { headers: { authorization: `Bearer ${alice.pair.access_token}` } });
        assert.equal(await got.text(), 'uploaded by Bob');
      });
    }
  }
});
