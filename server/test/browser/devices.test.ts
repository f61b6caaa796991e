// Settings → WebDAV as the list of signed-in devices (issue 33): each account,
// a sync client's app password included, says when it was last used and by
// which client (or that it was never used), and deleting it cuts the device
// off at once. English and Chinese, desktop and phone, axe on each. SQLite
// only: what is shown comes from the API (server/test/sync/devices.test.ts
// covers both databases).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { basicHeader, createAccount, dav, emailOf } from '../webdav/helpers.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot } from './viewports.js';
import { closeSuite, openSuite } from './suite.js';

const PASSWORD = 'devices-password-1';
const CLIENT = 'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian-6.1.0 ClientArchitecture: x86_64 OsArchitecture: x86_64)';
const LANGS = [
  { locale: 'en-US', tag: 'en', never: 'not used yet', used: /last used /, client: 'Client: ', cut: 'Delete the WebDAV account Laptop', confirm: 'Delete' },
  { locale: 'zh-CN', tag: 'zh', never: '尚未使用', used: /最近使用于 /, client: '客户端：', cut: '删除 WebDAV 账户 Laptop', confirm: '删除' },
] as const;

describe('web app: the devices signed in over WebDAV and the sync clients', { skip: browserSkip }, () => {
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
      it(`${lang.tag} ${v.name}: last use and client of each device; deleting one cuts it off`, async () => {
        const email = `devices-${lang.tag}-${v.name}@example.com`;
        const token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
        const id = (await api.get<{ id: string }>('/api/v4/user/me', { token })).body.data.id;
        const laptop = await createAccount(api, token, { name: 'Laptop' });
        await createAccount(api, token, { name: 'Old phone' });
        const auth = basicHeader(await emailOf(api, token), laptop.password);
        const used = await dav(server, 'PROPFIND', `/remote.php/dav/files/${id}/`, auth, { headers: { depth: '0', 'user-agent': CLIENT } });
        assert.equal(used.status, 207);

        const { context, page, problems } = await openIn(browser, v, lang.locale);
        const pair = (await signIn(api, email, PASSWORD)).token;
        await page.goto(server.url + '/');
        await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
        await page.goto(server.url + '/settings/webdav');
        const laptopCard = page.locator(`[data-dav-account="${laptop.id}"]`);
        await laptopCard.waitFor();
        assert.match(await laptopCard.locator('[data-last-seen]').innerText(), lang.used);
        assert.equal((await laptopCard.locator('[data-client]').innerText()).trim(), `${lang.client}${CLIENT}`);
        const phoneCard = page.locator('[data-dav-account]').filter({ hasText: 'Old phone' });
        assert.equal((await phoneCard.locator('[data-last-seen]').innerText()).trim(), lang.never);
        assert.equal(await phoneCard.locator('[data-client]').count(), 0);
        await laptopCard.scrollIntoViewIfNeeded();
        await shot(page, `devices-${lang.tag}-${v.name}`);
        assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the devices');

        await press(v, page.getByRole('button', { name: lang.cut }));
        await press(v, page.getByRole('dialog').getByRole('button', { name: lang.confirm }));
        await laptopCard.waitFor({ state: 'detached' });
        assert.equal((await dav(server, 'PROPFIND', `/remote.php/dav/files/${id}/`, auth, { headers: { depth: '0' } })).status, 401, 'cut off at once');
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
