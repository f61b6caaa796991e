// Sharing with people and groups by name (issue 38 items 4 and 6). In the
// share dialog the recipient field is a combobox (role combobox, a listbox of
// options, arrow keys and Enter) that suggests people of one's group and
// groups by name, and never someone the site setting hides; "Shared by me"
// lists the grants with who and the permission, which can be changed and
// removed; My files marks shared items with a named icon. At 1280×800 and
// 390×844, in English and Chinese, axe-core clean, screenshots.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, screenshotView, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'share-people-password-1';
const LANGS = [
  { code: 'en', locale: 'en-US', share: 'Share', add: 'Add', addLabel: 'Add a person or group', view: 'Can view', edit: 'Can edit', sharedBy: 'Shared by me', markPeople: 'Shared with people', markLink: 'Shared by link', group: (n: string) => `Group “${n}”`, remove: 'Remove access', given: 'People and groups' },
  { code: 'zh-CN', locale: 'zh-CN', share: '分享', add: '添加', addLabel: '添加用户或群组', view: '可查看', edit: '可编辑', sharedBy: '我的分享', markPeople: '已与他人共享', markLink: '已通过链接分享', group: (n: string) => `群组“${n}”`, remove: '移除访问权限', given: '用户和群组' },
] as const;

interface Given {
  id: string;
  user?: { id: string };
  group?: { id: number };
  permission: 'read' | 'write';
  item: { path: string | null };
}

describe('web app: sharing with people and groups by name', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;
  let n = 0;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  const group = async (name: string) => {
    const res = await api.put<{ id: number; name: string }>('/api/v4/admin/group', { name, storage_quota: 1 << 30 }, { token: admin });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const person = async (nickname: string, groupId: number) => {
    const email = `${nickname.toLowerCase()}-${++n}-${process.pid}@example.com`;
    const made = await api.put<{ id: string }>('/api/v4/admin/user', { email, password: PASSWORD, nickname, group_id: groupId }, { token: admin });
    assert.equal(made.status, 200, made.text);
    return { id: made.body.data.id, email, pair: (await signIn(api, email, PASSWORD)).token };
  };
  const signedIn = (page: Page, pair: TokenPair, lang: string) => startSignedIn(page, server.url, pair, lang);

  for (const v of VIEWPORTS) {
    for (const lang of LANGS) {
      it(`${v.name}, ${lang.code}: the recipient combobox suggests people and groups by name; Shared by me lists and changes the grants; My files marks shared items`, async () => {
        const tag = `${v.name} ${lang.code} ${n}`;
        const design = await group(`Design ${tag}`);
        const marketing = await group(`Marketing ${tag}`);
        const alice = await person('Alice', design.id);
        const bob = await person('Bobby', design.id);
        await person('Bobette', marketing.id);
        const token = alice.pair.access_token;
        for (const p of ['/Plans/readme.txt', '/Report.txt', '/Linked.txt']) {
          const made = await api.post('/api/v4/file/create', { path: p, type: 'file' }, { token });
          assert.equal(made.status, 200, made.text);
        }
        assert.equal((await api.put('/api/v4/share', { path: '/Linked.txt' }, { token })).status, 200);

        const o = await openIn(browser, v, lang.locale);
        await signedIn(o.page, alice.pair, lang.code);
        await o.page.goto(`${server.url}/files`);
        const row = o.page.locator('[data-path="/Plans"]');
        await row.waitFor();
        // The link share is marked already, by name (not colour alone).
        await o.page.locator('[data-path="/Linked.txt"]').getByRole('img', { name: lang.markLink }).waitFor();
        if (v.touch) await row.getByRole('checkbox').tap();
        else await row.click();
        await o.page.getByRole('button', { name: lang.share, exact: true }).first().click();
        const dialog = o.page.getByRole('dialog');

        // Item 4: type part of a name; the combobox lists Bobby (own group) but not Bobette (another group).
        const field = dialog.getByRole('combobox', { name: lang.addLabel });
        await field.fill('bob');
        const listbox = o.page.getByRole('listbox');
        await listbox.getByRole('option', { name: `Bobby <${bob.email}>` }).waitFor();
        assert.equal(await field.getAttribute('aria-expanded'), 'true');
        assert.equal(await listbox.getByRole('option').count(), 1, 'Bobette, outside the group, is not listed');
        await screenshotView(o.page, `share-people-suggest-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(o.page), [], 'axe on the open combobox');
        // Keyboard: the first option is active; Enter picks it.
        if (v.touch) await listbox.getByRole('option', { name: `Bobby <${bob.email}>` }).tap();
        else {
          await field.press('ArrowDown');
          await field.press('Enter');
        }
        assert.equal(await field.inputValue(), `Bobby <${bob.email}>`);
        await press(v, dialog.getByRole('button', { name: lang.add, exact: true }));
        await dialog.getByText(`Bobby <${bob.email}>`).waitFor();

        // A group by its name, no id needed. Typed whole: "market" also finds the groups of the cases run
        // before this one (the sharer is in them all), and the one wanted need not come first.
        await field.fill(marketing.name.toLowerCase());
        const option = listbox.getByRole('option', { name: lang.group(marketing.name) });
        await option.waitFor();
        await press(v, option);
        await press(v, dialog.getByRole('button', { name: lang.add, exact: true }));
        await dialog.getByText(lang.group(marketing.name)).waitFor();
        const grants = (await api.get<Given[]>('/api/v4/file/access?path=%2FPlans', { token })).body.data;
        assert.deepEqual(grants.map((g) => g.user?.id ?? `group ${g.group?.id}`).sort(), [bob.id, `group ${marketing.id}`].sort());
        await o.page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        // Item 6: the mark in My files.
        await row.getByRole('img', { name: lang.markPeople }).waitFor();
        assert.equal(await o.page.locator('[data-path="/Report.txt"]').getByTestId('shared-mark').count(), 0, 'an item not shared has no mark');
        await screenshotView(o.page, `share-people-marks-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(o.page), [], 'axe on My files with marks');

        // "Shared by me": both grants, with who and the permission; change Bobby to Can edit, remove the group.
        await o.page.goto(`${server.url}/shares`);
        const section = o.page.getByRole('region', { name: lang.given });
        const bobby = section.locator('li').filter({ hasText: bob.email });
        await bobby.waitFor();
        await section.locator('li').filter({ hasText: marketing.name }).waitFor();
        await screenshotView(o.page, `share-people-shared-by-me-${v.name}-${lang.code}`);
        assert.deepEqual(await seriousA11yViolations(o.page), [], 'axe on Shared by me');
        await press(v, bobby.locator('input').first());
        await press(v, o.page.getByRole('option', { name: lang.edit }));
        await o.page.waitForFunction(
          async ([url, t, id]) => {
            const res = await fetch(url, { headers: { authorization: `Bearer ${t}` } });
            const body = (await res.json()) as { data: { user?: { id: string }; permission: string }[] };
            return body.data.some((g) => g.user?.id === id && g.permission === 'write');
          },
          [`${server.url}/api/v4/file/access/given`, token, bob.id] as const,
        );
        await press(v, section.locator('li').filter({ hasText: marketing.name }).getByRole('button').last());
        await press(v, o.page.getByRole('dialog').getByRole('button', { name: lang.remove }));
        await section.locator('li').filter({ hasText: marketing.name }).waitFor({ state: 'detached' });
        const left = (await api.get<Given[]>('/api/v4/file/access/given', { token })).body.data;
        assert.deepEqual(left.map((g) => [g.user?.id, g.permission, g.item.path]), [[bob.id, 'write', '/Plans']]);
        assert.deepEqual(o.problems, []);
        await o.context.close();
      });
    }
  }
});
