// File versions in the web app (issue 21), in Debian's Chromium: "Replace" on
// upload keeps the old content as a version; the Versions dialog (file menu,
// details, the phone's "More actions") lists size, date and writer; a version
// is previewed, downloaded, restored and deleted (each asked first where it
// loses something); the storage bar says how much are versions. axe-core on
// each screen; screenshots at 1280×800 and 390×844 in test-artifacts/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openAppPage, screenshotView, seriousA11yViolations, signInThroughForm } from './support.js';

const PASSWORD = 'versions-password-1';
const PHONE = { width: 390, height: 844 };

interface Version {
  id: string;
  size: number;
  current: boolean;
}

describe('web app: file versions', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let token: string;
  let page: Page;
  let problems: string[];
  const email = `versions-ui-${process.pid}@example.com`;

  const put = async (p: string, body: string) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body,
    });
    assert.equal(res.status, 200, await res.text());
  };
  const versions = async (p: string) => (await api.get<Version[]>(`/api/v4/file/versions?path=${encodeURIComponent(p)}`, { token })).body.data;
  const text = async (p: string) => (await api.raw('GET', `/api/v4/file/content?path=${encodeURIComponent(p)}`, { token })).text;
  const noA11yProblems = async (where: string) => assert.deepEqual(await seriousA11yViolations(page), [], `axe on ${where}`);

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    await put('/v/notes.txt', 'first draft');
    await put('/v/notes.txt', 'second draft, longer');
    ({ page, problems } = await openAppPage(browser));
    await signInThroughForm(page, server.url + '/files/v', email, PASSWORD);
    await page.locator('[data-path="/v/notes.txt"]').waitFor();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('"Replace" on upload keeps the replaced content as a version', async () => {
    await page.getByTestId('upload-files-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('third draft from the browser') });
    await page.getByRole('dialog').getByRole('button', { name: 'Replace' }).click();
    for (let i = 0; i < 100 && (await text('/v/notes.txt')) !== 'third draft from the browser'; i++) await page.waitForTimeout(100);
    assert.equal(await text('/v/notes.txt'), 'third draft from the browser');
    assert.deepEqual((await versions('/v/notes.txt')).map((v) => v.size), [28, 20, 11]);
  });

  it('the file menu opens Versions: size, date and writer of each; preview and download a version', async () => {
    await page.reload();
    await page.locator('[data-path="/v/notes.txt"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions of notes.txt' });
    await dialog.waitFor();
    const items = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    // The dialog opens before its list has loaded: count once the oldest version is drawn.
    await items.nth(2).waitFor();
    assert.equal(await items.count(), 3);
    assert.match((await items.nth(0).innerText()).replace(/\s+/g, ' '), /current.*28 B · (.* · )?Web app/i);
    assert.match((await items.nth(2).innerText()).replace(/\s+/g, ' '), /11 B · (.* · )?Web app/);
    await dialog.getByRole('button', { name: /^Preview the version of/ }).last().click();
    await dialog.getByText('first draft', { exact: true }).waitFor();
    await screenshotView(page, 'versions-dialog-1280');
    await noA11yProblems('the Versions dialog');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /^Download the version of/ }).first().click()]);
    assert.equal(download.suggestedFilename(), 'notes.txt');
    assert.equal(readFileSync((await download.path())!, 'utf8'), 'second draft, longer');
  });

  it('restore (asked first) makes a version current and keeps the current content; delete (asked first) frees it', async () => {
    const dialog = page.getByRole('dialog', { name: 'Versions of notes.txt' });
    await dialog.getByRole('button', { name: /^Restore the version of/ }).last().click();
    const confirm = page.getByRole('dialog', { name: 'Restore this version?' });
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await dialog.getByRole('listitem').first().getByText('11 B', { exact: false }).waitFor();
    assert.equal(await text('/v/notes.txt'), 'first draft');
    assert.deepEqual((await versions('/v/notes.txt')).map((v) => v.size), [11, 28, 20]);

    await dialog.getByRole('button', { name: /^Delete the version of/ }).last().click();
    const ask = page.getByRole('dialog', { name: 'Delete this version?' });
    await screenshotView(page, 'versions-delete-confirm-1280');
    await noA11yProblems('the delete confirmation');
    await ask.getByRole('button', { name: 'Delete' }).click();
    await ask.waitFor({ state: 'detached' });
    for (let i = 0; i < 50 && (await versions('/v/notes.txt')).length !== 2; i++) await page.waitForTimeout(100);
    assert.deepEqual((await versions('/v/notes.txt')).map((v) => v.size), [11, 28]);
    assert.equal(await dialog.getByRole('listitem').count(), 2);
    const cap = (await api.get<{ used: number; versions: number }>('/api/v4/user/capacity', { token })).body.data;
    assert.deepEqual(cap, { ...cap, used: 39, versions: 28 });
    await page.keyboard.press('Escape');
    // The storage bar says how much of the used space are versions.
    await page.getByText('of which 28 B are file versions').first().waitFor();
    assert.deepEqual(problems, []);
  });

  it('on a phone (390×844): Versions from "More actions" and from the details; the list fits the screen', async () => {
    const phone = await openAppPage(browser, PHONE);
    page = phone.page;
    await signInThroughForm(page, server.url + '/files/v', email, PASSWORD);
    await page.locator('[data-path="/v/notes.txt"]').click();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions of notes.txt' });
    await dialog.getByRole('listitem').nth(1).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `no sideways scrolling (${width}px)`);
    const box = (await dialog.getByRole('button', { name: /^Delete the version of/ }).boundingBox())!;
    assert.ok(box.x + box.width <= PHONE.width, 'the actions are on screen');
    await screenshotView(page, 'versions-dialog-390');
    await noA11yProblems('the Versions dialog on a phone');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'Show versions' }).click();
    await dialog.getByRole('listitem').nth(1).waitFor();
    assert.deepEqual(phone.problems, []);
  });

  it('Dashboard → Groups sets a group\'s retention (max_versions, version_days), shown in the list', async () => {
    const admin = await openAppPage(browser);
    page = admin.page;
    await signInThroughForm(page, server.url + '/admin/groups', ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Edit Users' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('Versions kept per file').fill('3');
    await form.getByLabel('Days versions are kept').fill('7');
    await screenshotView(page, 'versions-group-form-1280');
    await noA11yProblems('the group form');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '3 for 7 days' }).waitFor();
    const adminToken = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const groups = (await api.get<{ name: string; max_versions: number; version_days: number }[]>('/api/v4/admin/group', { token: adminToken })).body.data;
    const users = groups.find((g) => g.name === 'Users')!;
    assert.deepEqual([users.max_versions, users.version_days], [3, 7]);
    assert.deepEqual(admin.problems, []);
  });
});
