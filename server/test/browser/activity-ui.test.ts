// Activity in the web app (issue 37): the panel of a file (from its menu)
// shows who did what to it, followed through a rename, with how long ago and
// the exact time on hover; the Activity page lists everything with filters.
// English and Chinese, desktop and phone, axe on each. SQLite only: what is
// shown is the API's answer, tested on both databases in server/test/activity.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, chooseFromRowMenu, openIn, shot } from './viewports.js';
import { closeSuite, openSuite } from './suite.js';

const PASSWORD = 'activity-password-1';
const LANGS = [
  { locale: 'en-US', tag: 'en', menu: 'Activity', title: 'Activity of plan.txt', more: 'More actions', renamed: 'moved or renamed', created: 'created', filter: 'What happened', createdOption: 'Created', ago: /(ago|now)/ },
  { locale: 'zh-CN', tag: 'zh', menu: '动态', title: 'plan.txt 的动态', more: '更多操作', renamed: '移动或重命名了', created: '创建了', filter: '操作类型', createdOption: '创建', ago: /(前|现在)/ },
] as const;

describe('web app: activity panel and page', { skip: browserSkip }, () => {
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
      it(`${lang.tag} ${v.name}: a file's history and the Activity page`, async () => {
        const email = `activity-${lang.tag}-${v.name}@example.com`;
        const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
        assert.equal((await api.patch('/api/v4/user/setting', { nickname: 'Ada Writer' }, { token })).status, 200);
        const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent('/notes.txt')}`, {
          method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: 'hello',
        });
        assert.equal(res.status, 200, await res.text());
        assert.equal((await api.post('/api/v4/file/rename', { path: '/notes.txt', new_name: 'plan.txt' }, { token })).status, 200);
        assert.equal((await api.raw('POST', '/api/v4/file/create', { token, json: { path: '/Drafts', type: 'folder' } })).status, 200);

        const { context, page, problems } = await openIn(browser, v, lang.locale);
        const pair = (await signIn(api, email, PASSWORD)).token;
        await page.goto(server.url + '/');
        await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
        await page.goto(server.url + '/files');
        await chooseFromRowMenu(page, v, '/plan.txt', lang.more, lang.menu);
        const dialog = page.getByRole('dialog', { name: lang.title });
        const items = dialog.getByRole('listitem');
        await items.nth(1).waitFor();
        assert.equal(await items.count(), 2, 'the rename and the creation, not the folder');
        const texts = await Promise.all([0, 1].map(async (i) => (await items.nth(i).innerText()).replace(/\s+/g, ' ')));
        assert.match(texts[0]!, new RegExp(`Ada Writer ${lang.renamed}`));
        assert.match(texts[0]!, /\/notes\.txt → \/plan\.txt/);
        assert.match(texts[1]!, new RegExp(`Ada Writer ${lang.created}.*\\/notes\\.txt`));
        for (const t of texts) assert.match(t, lang.ago, `how long ago: ${t}`);
        const exact = await items.nth(0).locator('time').getAttribute('title');
        assert.match(exact ?? '', /\d{1,2}:\d{2}:\d{2}/, 'the exact time on hover');
        await shot(page, `activity-panel-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the panel');
        await page.keyboard.press('Escape');

        await page.goto(server.url + '/activity');
        const list = page.getByRole('list', { name: lang.menu });
        await list.getByRole('listitem').nth(2).waitFor();
        assert.equal(await list.getByRole('listitem').count(), 3);
        await page.getByRole('combobox', { name: lang.filter }).click();
        await page.getByRole('option', { name: lang.createdOption, exact: true }).click();
        await page.waitForFunction(() => document.querySelectorAll('ul[aria-label] > li').length === 2);
        const created = (await list.innerText()).replace(/\s+/g, ' ');
        assert.match(created, /\/Drafts/);
        assert.doesNotMatch(created, /→/);
        await shot(page, `activity-page-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the Activity page');
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
