// Team folders in the browser (issue 22): an administrator makes a team folder
// for a group in Dashboard → Groups and gives one member view-only access; a
// member finds it at the top of My files with its "Team folder" badge, opens
// it and uploads into it (the file is the team's). At 1280×800 and 390×844,
// in English and Chinese, axe-core clean, screenshots under test-artifacts/.
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

const PASSWORD = 'team-ui-password-1';
const LANGS = [
  { code: 'en', locale: 'en-US', badge: 'Team folder', readOnly: 'Team folder · view only', teams: 'Team folders of', create: 'New team folder', name: 'Folder name', members: 'Member access to', add: 'Add', done: 'Done', view: 'View', del: 'Delete' },
  { code: 'zh-CN', locale: 'zh-CN', badge: '团队文件夹', readOnly: '团队文件夹 · 仅查看', teams: '的团队文件夹', create: '新建团队文件夹', name: '文件夹名称', members: '的成员权限', add: '添加', done: '完成', view: '查看', del: '删除' },
] as const;

describe('web app: team folders', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let adminPair: TokenPair;
  const dir = mkdtempSync(path.join(tmpdir(), 'team-ui-'));

  const signedIn = async (page: Page, pair: TokenPair, lang: string) => {
    await page.goto(server.url + '/assets-none');
    await page.evaluate(([session, code]) => {
      localStorage.setItem('cirrus.session', session);
      localStorage.setItem('cirrus.lang', code);
    }, [JSON.stringify(pair), lang] as const);
  };
  const person = async (name: string, groupId: number) => {
    const email = `${name.toLowerCase()}-${process.pid}-${Date.now()}@example.com`;
    const made = await api.put<{ id: string }>('/api/v4/admin/user', { email, password: PASSWORD, nickname: name, group_id: groupId }, { token: adminPair.access_token });
    assert.equal(made.status, 200, made.text);
    return { id: made.body.data.id, email, pair: (await signIn(api, email, PASSWORD)).token };
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    api = new Api(server.url);
    adminPair = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    writeFileSync(path.join(dir, 'from-member.txt'), 'uploaded by a member');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWPORTS) {
    for (const lang of LANGS) {
      it(`${v.name}, ${lang.code}: an admin makes a team folder for a group; members find it first in My files and upload into it`, async () => {
        const admin = adminPair.access_token;
        const group = await api.put<{ id: number; name: string }>('/api/v4/admin/group', { name: `Design ${v.name} ${lang.code}`, storage_quota: 1 << 30 }, { token: admin });
        assert.equal(group.status, 200, group.text);
        const groupName = group.body.data.name;
        const wren = await person('Wren', group.body.data.id);
        const reed = await person('Reed', group.body.data.id);
        await api.post('/api/v4/file/create', { path: '/Zeta notes', type: 'folder' }, { token: wren.pair.access_token });
        const folderName = `Studio ${v.name} ${lang.code}`;

        // The admin: Groups → Team folders of <group> → New team folder.
        const a = await openIn(browser, v, lang.locale);
        await signedIn(a.page, adminPair, lang.code);
        await a.page.goto(`${server.url}/admin/groups`);
        const open = a.page.getByRole('button', { name: lang.code === 'en' ? `${lang.teams} ${groupName}` : `${groupName} ${lang.teams}` });
        await open.first().waitFor();
        await press(v, open.first());
        const dialog = a.page.getByRole('dialog');
        await press(v, dialog.getByRole('button', { name: lang.create }));
        await dialog.getByLabel(lang.name).fill(folderName);
        await press(v, dialog.getByRole('button', { name: lang.create }));
        await dialog.getByText(folderName, { exact: true }).waitFor();
        await screenshotView(a.page, `team-folders-admin-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(a.page), [], 'axe on the team folders dialog');
        const teams = (await api.get<{ id: string; name: string; storage_quota: number }[]>(`/api/v4/admin/team-folder?group_id=${group.body.data.id}`, { token: admin })).body.data;
        assert.deepEqual(teams.map((t) => t.name), [folderName]);
        assert.ok(teams[0]!.storage_quota > 0);

        // Reed gets view-only access through the member dialog.
        await press(v, dialog.getByRole('button', { name: lang.code === 'en' ? `${lang.members} ${folderName}` : `${folderName} ${lang.members}` }));
        await dialog.locator('input').first().click();
        await a.page.getByRole('option', { name: new RegExp(reed.email.replace(/[.+]/g, '\\$&')) }).click();
        await press(v, dialog.getByRole('button', { name: lang.add, exact: true }));
        await dialog.getByText(reed.email, { exact: false }).waitFor();
        await screenshotView(a.page, `team-folders-members-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(a.page), [], 'axe on member access');
        const overrides = (await api.get<{ user_id: string; permission: string }[]>(`/api/v4/admin/team-folder/${teams[0]!.id}/member`, { token: admin })).body.data;
        assert.deepEqual(overrides, [{ user_id: reed.id, email: reed.email, nickname: 'Reed', permission: 'read' }]);
        assert.deepEqual(a.problems, []);
        await a.context.close();

        // Wren: the team folder comes first, before her own "Zeta notes", with its badge; she uploads into it.
        const w = await openIn(browser, v, lang.locale);
        await signedIn(w.page, wren.pair, lang.code);
        await w.page.goto(`${server.url}/files`);
        const row = w.page.locator(`[data-path="/${folderName}"]`);
        await row.waitFor();
        await row.getByText(lang.badge, { exact: true }).waitFor();
        const paths = await w.page.locator('[data-path]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
        assert.equal(paths[0], `/${folderName}`, `first in My files: ${paths.join(', ')}`);
        await screenshotView(w.page, `team-folders-myfiles-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(w.page), [], 'axe on My files');
        // Selected, the team folder itself offers no Delete (an administrator's to delete).
        if (v.touch) await row.getByRole('checkbox').tap();
        else await row.click();
        assert.equal(await w.page.getByRole('button', { name: lang.del, exact: true }).first().isDisabled(), true);
        await w.page.goto(`${server.url}/files/${encodeURIComponent(folderName)}`);
        await w.page.getByTestId('upload-files-input').setInputFiles(path.join(dir, 'from-member.txt'));
        await w.page.locator(`[data-path="/${folderName}/from-member.txt"]`).waitFor();
        await screenshotView(w.page, `team-folders-inside-${v.name}-${lang.code}`);
        assert.deepEqual(w.problems, []);
        await w.context.close();

        // Reed sees it view-only.
        const r = await openIn(browser, v, lang.locale);
        await signedIn(r.page, reed.pair, lang.code);
        await r.page.goto(`${server.url}/files`);
        await r.page.locator(`[data-path="/${folderName}"]`).getByText(lang.readOnly, { exact: true }).waitFor();
        assert.deepEqual(r.problems, []);
        await r.context.close();

        // The file is the team's: Wren's own usage did not move.
        const mine = await api.get<{ used: number }>('/api/v4/user/capacity', { token: wren.pair.access_token });
        assert.equal(mine.body.data.used, 0);
        const team = (await api.get<{ storage_used: number }>(`/api/v4/admin/team-folder/${teams[0]!.id}`, { token: admin })).body.data;
        assert.equal(team.storage_used, 'uploaded by a member'.length);
      });
    }
  }
});
