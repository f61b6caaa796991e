// "Empty trash" for a member of a team folder (issue 38 item 12). The trash
// page lists the member's own items and the team folders' items; emptying
// deletes only the member's own (docs/features/teams.md, Trash), so the
// button, the warning and the result name exactly those, and the page says
// that team items stay. At 1280×800 and 390×844, English and Chinese, axe-core.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, screenshotView, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'team-trash-password-1';

describe('web app: emptying the trash next to a team folder', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;
  let n = 0;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  const person = async (name: string, groupId: number) => {
    const email = `${name.toLowerCase()}-${++n}-${process.pid}@example.com`;
    const made = await api.put<{ id: string }>('/api/v4/admin/user', { email, password: PASSWORD, nickname: name, group_id: groupId }, { token: admin });
    assert.equal(made.status, 200, made.text);
    return (await signIn(api, email, PASSWORD)).token;
  };
  const upload = async (token: string, path: string) => {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path)}`, { body: Buffer.from('x'), headers: { 'content-type': 'application/octet-stream' }, token });
    assert.equal(res.status, 200, res.text);
    assert.equal((await api.delete('/api/v4/file', { paths: [path] }, { token })).status, 200);
  };
  const signedIn = (page: Page, pair: TokenPair, lang: string) => startSignedIn(page, server.url, pair, lang);

  for (const v of VIEWPORTS) {
    for (const lang of ['en', 'zh-CN'] as const) {
      it(`${v.name}, ${lang}: the warning counts only what "Empty trash" deletes; team items stay, and the page says so`, async () => {
        const group = await api.put<{ id: number }>('/api/v4/admin/group', { name: `Crew ${v.name} ${lang}`, storage_quota: 1 << 30 }, { token: admin });
        assert.equal(group.status, 200, group.text);
        const folder = `Crew files ${v.name} ${lang}`;
        assert.equal((await api.put('/api/v4/admin/team-folder', { group_id: group.body.data.id, name: folder, storage_quota: 1 << 20 }, { token: admin })).status, 200);
        const wren = await person('Wren', group.body.data.id);
        const mae = await person('Mae', group.body.data.id);
        await upload(mae.access_token, `/${folder}/plan.txt`);

        const o = await openIn(browser, v, lang === 'en' ? 'en-US' : 'zh-CN');
        await signedIn(o.page, wren, lang);
        await o.page.goto(`${server.url}/trash`);
        await o.page.getByText('plan.txt').first().waitFor();
        const emptyName = lang === 'en' ? 'Empty trash' : '清空回收站';
        // Only a team item: nothing of Wren's own to empty, and the page says why.
        const note = o.page.getByTestId('team-trash-note');
        await note.waitFor();
        assert.match(await note.innerText(), lang === 'en' ? /^1 item from team folders is not emptied with your trash/ : /来自团队文件夹的 1 个项目不会随你的回收站一起清空/);
        assert.equal(await o.page.getByRole('button', { name: emptyName }).isDisabled(), true, 'nothing "Empty trash" would delete');
        await screenshotView(o.page, `team-trash-only-team-${v.name}-${lang}`);
        assert.deepEqual(await seriousA11yViolations(o.page), [], 'axe on the trash with a team item');

        // One own item too: the warning names 1 (not 2), emptying deletes 1, the team item stays.
        await upload(wren.access_token, '/mine.txt');
        await o.page.reload();
        await o.page.getByText('mine.txt').first().waitFor();
        await press(v, o.page.getByRole('button', { name: emptyName }));
        const dialog = o.page.getByRole('dialog');
        await dialog
          .getByText(lang === 'en' ? 'The 1 item in your own trash will be deleted forever. This cannot be undone. 1 item from team folders is not emptied with your trash' : '你自己回收站中的 1 个项目将被彻底删除', { exact: false })
          .waitFor();
        await screenshotView(o.page, `team-trash-confirm-${v.name}-${lang}`);
        assert.deepEqual(await seriousA11yViolations(o.page), [], 'axe on the confirmation');
        await press(v, dialog.getByRole('button', { name: emptyName }));
        await o.page.getByText(lang === 'en' ? 'Trash emptied (1 item)' : '已清空回收站（1 个项目）').waitFor();
        await o.page.getByText('mine.txt').waitFor({ state: 'detached' });
        await o.page.getByText('plan.txt').first().waitFor();
        const left = await api.get<{ files: { original_path: string }[]; own_count: number }>('/api/v4/file/trash', { token: wren.access_token });
        assert.deepEqual(left.body.data.files.map((f) => f.original_path), [`/${folder}/plan.txt`]);
        assert.deepEqual(o.problems, []);
        await o.context.close();
      });
    }
  }
});
