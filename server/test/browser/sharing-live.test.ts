// A recipient's view of a shared folder follows the change feed (issue 22):
// A changes a folder shared with B (upload, rename, delete through the API),
// and B, viewing it at "/Shared with me/…", sees each change within 2 s
// without a reload. B also opens the Versions dialog of a shared file, sees
// the versions A made, previews one and restores it (a write grant). At
// 1280×800 and 390×844, axe clean.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, seriousA11yViolations, signInThroughForm } from './support.js';

const PASSWORD = 'user-password-123';
const PHONE = { width: 390, height: 844 };

describe('web app: a recipient\'s shared folder, live', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let alice: string;
  let mount: string;
  const aliceEmail = `live-a-${process.pid}@example.com`;
  const bobEmail = `live-b-${process.pid}@example.com`;

  const put = async (p: string, body: string) => {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(p)}`, { token: alice, body, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    alice = (await createUser(api, admin, aliceEmail, PASSWORD)).token.access_token;
    const bob = (await createUser(api, admin, bobEmail, PASSWORD)).token.access_token;
    await put('/Plans/notes.txt', 'first draft');
    await put('/Plans/notes.txt', 'second draft, longer');
    const g = await api.put('/api/v4/file/access', { path: '/Plans', user: bobEmail, permission: 'write' }, { token: alice });
    assert.equal(g.status, 200, g.text);
    const shared = await api.get<{ path: string }[]>('/api/v4/file/shared', { token: bob });
    mount = shared.body.data[0]!.path;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Milliseconds until `name` is listed on `page` (or gone, with `gone`), at most 2 s. */
  async function within2s(page: Page, name: string, gone = false): Promise<number> {
    const started = Date.now();
    const row = page.getByText(name, { exact: true });
    await (gone ? row.waitFor({ state: 'detached', timeout: 2000 }) : row.first().waitFor({ timeout: 2000 }));
    return Date.now() - started;
  }

  for (const [label, viewport] of [['1280', { width: 1280, height: 800 }], ['390', PHONE]] as const) {
    it(`${label}: the owner's upload, rename and delete show up in the recipient's open shared folder without a reload`, async () => {
      const { page, context, problems } = await openAppPage(browser, viewport);
      await signInThroughForm(page, `${server.url}/files${mount.split('/').map(encodeURIComponent).join('/')}`, bobEmail, PASSWORD);
      await page.locator(`[data-path="${mount}/notes.txt"]`).waitFor();
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      // The stream opens a moment after the folder (useFeed.ts).
      await page.waitForTimeout(2000);
      const name = `from-alice-${label}.txt`;
      await put(`/Plans/${name}`, 'hello');
      const upload = await within2s(page, name);
      await api.post('/api/v4/file/rename', { path: `/Plans/${name}`, new_name: `renamed-${label}.txt` }, { token: alice });
      const rename = await within2s(page, `renamed-${label}.txt`);
      await api.delete('/api/v4/file', { paths: [`/Plans/renamed-${label}.txt`] }, { token: alice });
      const removed = await within2s(page, `renamed-${label}.txt`, true);
      console.log(`# ${label}: shown to the recipient after: upload ${upload} ms, rename ${rename} ms, delete ${removed} ms`);
      assert.equal(navigations, 0, 'no reload');
      await screenshotView(page, `sharing-live-recipient-${label}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the shared folder');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('the recipient opens Versions of a shared file, previews one and restores it', async () => {
    const { page, context, problems } = await openAppPage(browser);
    await signInThroughForm(page, `${server.url}/files${mount.split('/').map(encodeURIComponent).join('/')}`, bobEmail, PASSWORD);
    await page.locator(`[data-path="${mount}/notes.txt"]`).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions of notes.txt' });
    const items = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    await items.nth(1).waitFor();
    assert.equal(await items.count(), 2);
    await dialog.getByText('They count toward the owner\'s storage.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: /^Preview the version of/ }).last().click();
    await dialog.getByText('first draft', { exact: true }).waitFor();
    await screenshotView(page, 'sharing-versions-recipient-1280');
    assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the Versions dialog of a shared file');
    await dialog.getByRole('button', { name: /^Restore the version of/ }).last().click();
    await page.getByRole('dialog', { name: 'Restore this version?' }).getByRole('button', { name: 'Restore' }).click();
    for (let i = 0; i < 50; i++) {
      if ((await api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent('/Plans/notes.txt')}`, { token: alice })).text === 'first draft') break;
      await page.waitForTimeout(100);
    }
    assert.equal((await api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent('/Plans/notes.txt')}`, { token: alice })).text, 'first draft', 'restored in the owner\'s tree');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('"Shared with me" lists a new grant as it is made, without a reload', async () => {
    const { page, context, problems } = await openAppPage(browser);
    await signInThroughForm(page, `${server.url}/shared`, bobEmail, PASSWORD);
    await page.getByRole('list', { name: 'Shared with me' }).getByText('Plans').first().waitFor();
    await page.waitForTimeout(2000);
    await put('/Later/x.txt', 'x');
    assert.equal((await api.put('/api/v4/file/access', { path: '/Later', user: bobEmail, permission: 'read' }, { token: alice })).status, 200);
    const shown = await within2s(page, 'Later');
    console.log(`# a new grant shown on /shared after ${shown} ms`);
    await screenshotView(page, 'sharing-live-shared-page-1280');
    assert.deepEqual(await seriousA11yViolations(page), [], 'axe on /shared');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
