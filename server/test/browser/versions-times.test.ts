// Versions written within one minute are told apart in the Versions dialog:
// each shows its time to the second and how long ago, and who wrote it (the
// person's nickname, beside the program: "Ada Writer · Web app"). English and
// Chinese, desktop and phone, axe on each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, chooseFromRowMenu, openIn, shot } from './viewports.js';
import { closeSuite, openSuite } from './suite.js';

const PASSWORD = 'versions-password-1';
const LANGS = [
  { locale: 'en-US', tag: 'en', versions: 'Versions', title: 'Versions of notes.txt', more: 'More actions' },
  { locale: 'zh-CN', tag: 'zh', versions: '历史版本', title: 'notes.txt 的历史版本', more: '更多操作' },
] as const;

describe('web app: versions written within a minute', { skip: browserSkip }, () => {
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
      it(`${lang.tag} ${v.name}: each version shows its time to the second and its writer's name`, async () => {
        const email = `times-${lang.tag}-${v.name}@example.com`;
        const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
        const named = await api.patch('/api/v4/user/setting', { nickname: 'Ada Writer' }, { token });
        assert.equal(named.status, 200, named.text);
        for (const body of ['one', 'two, a second later', 'three, two seconds later']) {
          const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent('/notes.txt')}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
            body,
          });
          assert.equal(res.status, 200, await res.text());
          await new Promise((r) => setTimeout(r, 1100));
        }
        const listed = (await api.get<{ author: string | null; created_at: string }[]>('/api/v4/file/versions?path=/notes.txt', { token })).body.data;
        assert.deepEqual(listed.map((x) => x.author), ['Ada Writer', 'Ada Writer', 'Ada Writer'], 'the API names the writer');

        const { context, page, problems } = await openIn(browser, v, lang.locale);
        const pair = (await signIn(api, email, PASSWORD)).token;
        await page.goto(server.url + '/');
        await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
        await page.goto(server.url + '/files');
        await chooseFromRowMenu(page, v, '/notes.txt', lang.more, lang.versions);
        const dialog = page.getByRole('dialog', { name: lang.title });
        const items = dialog.getByRole('listitem');
        await items.nth(2).waitFor();
        const texts = await Promise.all([0, 1, 2].map(async (i) => (await items.nth(i).innerText()).replace(/\s+/g, ' ')));
        const times = await Promise.all([0, 1, 2].map((i) => items.nth(i).locator('time').innerText()));
        for (const t of times) assert.match(t, /\d{1,2}:\d{2}:\d{2}/, `the time has seconds: ${t}`);
        assert.equal(new Set(times).size, 3, `three different times: ${times.join(' | ')}`);
        for (const t of texts) assert.match(t, /Ada Writer · /, `the writer's name: ${t}`);
        for (const t of texts) assert.match(t, lang.tag === 'en' ? /(ago|now)/ : /(前|现在)/, `how long ago: ${t}`);
        await shot(page, `versions-times-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the Versions dialog');
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
