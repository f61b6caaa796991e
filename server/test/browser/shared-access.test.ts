// What a person with "Can view" access is offered (issue 38, findings 2, 7
// and 18): in a folder shared to view only there is no Upload, New folder,
// Rename, Move or Delete, and the page says why; a folder shared to edit
// keeps them. "Shared with me" itself is titled in the reader's language, has
// nothing to upload into, and opening a shared file from /shared previews it.
// Inside shared folders the sidebar marks "Shared with me". Desktop and
// phone, English and Chinese, axe on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'shared-access-password-1';

describe('web app: what "Can view" and "Can edit" offer', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;

  const person = async (name: string): Promise<{ id: string; email: string; pair: TokenPair }> => {
    const email = `${name.toLowerCase()}-${process.pid}-${Date.now()}@example.com`;
    const made = await api.put<{ id: string }>('/api/v4/admin/user', { email, password: PASSWORD, nickname: name }, { token: admin });
    assert.equal(made.status, 200, made.text);
    return { id: made.body.data.id, email, pair: (await signIn(api, email, PASSWORD)).token };
  };
  const signedIn = (page: Page, pair: TokenPair, lang: string) => startSignedIn(page, server.url, pair, lang);

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  for (const v of VIEWPORTS) {
    it(`${v.name}: a folder shared to view offers no write action and says why; one shared to edit does`, async () => {
      const ann = await person('Ann');
      const ben = await person('Ben');
      for (const [folder, permission] of [['/Viewing', 'read'], ['/Editing', 'write']] as const) {
        assert.equal((await api.post('/api/v4/file/create', { path: `${folder}/notes.txt`, type: 'file' }, { token: ann.pair.access_token })).status, 200);
        const granted = await api.put('/api/v4/file/access', { path: folder, user: ben.email, permission }, { token: ann.pair.access_token });
        assert.equal(granted.status, 200, granted.text);
      }
      const { context, page, problems } = await openIn(browser, v);
      await signedIn(page, ben.pair, 'en');
      await page.goto(`${server.url}/files/Shared%20with%20me/Ann%20%E2%80%93%20Viewing`);
      const row = page.locator('[data-path$="/notes.txt"]');
      await row.waitFor();
      await page.getByTestId('folder-access').getByText(/View only: Ann shared this with you to view/).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Upload' }).count(), 0, 'no Upload in a view-only folder');
      assert.equal(await page.getByRole('button', { name: 'New folder' }).count(), 0, 'no New folder in a view-only folder');
      // The sidebar marks where the person is (on a phone it is folded away).
      if (!v.touch) {
        const places = page.getByRole('navigation', { name: 'Places' });
        assert.equal(await places.getByRole('link', { name: /^Shared with me/ }).getAttribute('aria-current'), 'page');
        assert.equal(await places.getByRole('link', { name: 'My files' }).getAttribute('aria-current'), null);
      }
      await press(v, v.touch ? row.getByRole('checkbox') : row);
      await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).waitFor();
      for (const name of ['Move to…', 'Delete', 'Rename']) assert.equal(await page.getByRole('toolbar').getByRole('button', { name }).count(), 0, `no ${name} for a viewer`);
      if (!v.touch) {
        await row.click({ button: 'right' });
        const menu = page.getByRole('menu');
        await menu.getByRole('menuitem', { name: 'Download' }).waitFor();
        for (const name of ['Rename', 'Move to…', 'Delete', 'Make a copy']) assert.equal(await menu.getByRole('menuitem', { name }).count(), 0, `no ${name} in the menu`);
        await page.keyboard.press('Escape');
      }
      await shot(page, `shared-view-only-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe in a view-only folder');

      await page.goto(`${server.url}/files/Shared%20with%20me/Ann%20%E2%80%93%20Editing`);
      await page.locator('[data-path$="/notes.txt"]').waitFor();
      await page.getByRole('button', { name: 'Upload' }).waitFor();
      await page.getByRole('button', { name: 'New folder' }).waitFor();
      assert.equal(await page.getByTestId('folder-access').count(), 0);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  for (const v of VIEWPORTS) {
    it(`${v.name}, zh-CN: "Shared with me" is titled in Chinese, offers no upload, and a shared file opens in the preview`, async () => {
      const cai = await person('Cai');
      const dan = await person('Dan');
      const up = await api.post('/api/v4/file/create', { path: '/plan.txt', type: 'file' }, { token: cai.pair.access_token });
      assert.equal(up.status, 200, up.text);
      assert.equal((await api.put('/api/v4/file/access', { path: '/plan.txt', user: dan.email, permission: 'read' }, { token: cai.pair.access_token })).status, 200);
      const { context, page, problems } = await openIn(browser, v, 'zh-CN');
      await signedIn(page, dan.pair, 'zh-CN');
      await page.goto(`${server.url}/files/Shared%20with%20me`);
      await page.locator('[data-path$="plan.txt"]').waitFor();
      assert.equal(await page.title().then((title) => title.startsWith('与我共享')), true, `the title is Chinese: ${await page.title()}`);
      await page.getByRole('link', { name: '与我共享', exact: true }).first().waitFor();
      assert.equal(await page.getByRole('button', { name: '上传' }).count(), 0, 'no Upload in Shared with me');
      assert.equal(await page.getByRole('button', { name: '新建文件夹' }).count(), 0, 'no New folder in Shared with me');
      await page.getByTestId('folder-access').waitFor();
      await shot(page, `shared-root-zh-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), []);

      await page.goto(`${server.url}/shared`);
      await press(v, page.getByRole('button', { name: /plan\.txt/ }));
      await page.getByRole('dialog').getByText('plan.txt').first().waitFor();
      await shot(page, `shared-file-preview-zh-${v.name}`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
