// What strangers' uploads in flight hold of the owner's storage, in the web
// app (issue 32, finding 5): the storage bar says how much uploads in
// progress hold, the upload link's details list each upload arriving with
// what it holds and has received, and the owner cancels one, which gives the
// space back at once. English on a 1280×800 desktop and Chinese on a 390×844
// touch phone, axe-core, screenshots under /tmp.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/harness.js';
import { Api, createUser } from '../helpers/client.js';
import { browserSkip, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';
import { closeSuite, openSuite, startSignedIn } from './suite.js';

const PASSWORD = 'pending-uploads-ui-1';
const MIB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

const LANGS = [
  { locale: 'en-US', tag: 'en', screen: VIEWPORTS[0], share: 'Share', select: 'Select inbox', arriving: 'Arriving now', held: /held by uploads in progress/, cancel: (n: string) => `Cancel the upload of ${n}` },
  { locale: 'zh-CN', tag: 'zh', screen: VIEWPORTS[1], share: '分享', select: '选择 inbox', arriving: '正在接收', held: /进行中的上传占用/, cancel: (n: string) => `取消 ${n} 的上传` },
];

describe('web app: uploads arriving through an upload link (what they hold, cancel)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let api: Api;
  let admin: string;

  before(async () => {
    ({ browser, server, api, admin } = await openSuite());
  });
  after(() => closeSuite(browser, server));

  for (const lang of LANGS) {
    it(`${lang.tag}, ${lang.screen.name}: the storage bar and the link's details show what uploads in flight hold; Cancel gives it back`, async () => {
      const email = `pending-ui-${lang.tag}-${process.pid}@example.com`;
      const pair = (await createUser(api, admin, email, PASSWORD)).token;
      const token = pair.access_token;
      assert.equal((await api.raw('POST', '/api/v4/file/create', { token, json: { path: '/inbox', type: 'folder' } })).status, 200);
      const share = await api.put<{ id: string }>('/api/v4/share', { path: '/inbox', upload_only: true }, { token });
      const name = `holiday-${lang.tag}.mov`;
      // A stranger announces 3 MiB and sends 1 MiB of it.
      const meta = `filename ${Buffer.from(name).toString('base64')},uploader ${Buffer.from('Sam').toString('base64')}`;
      const created = await fetch(`${server.url}/api/v4/share/upload/${share.body.data.id}`, { method: 'POST', headers: { ...TUS, 'upload-length': String(3 * MIB), 'upload-metadata': meta } });
      assert.equal(created.status, 201);
      const sent = await fetch(server.url + created.headers.get('location')!, {
        method: 'PATCH',
        headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: Buffer.alloc(MIB, 1) as unknown as BodyInit,
      });
      assert.equal(sent.status, 204);

      const { context, page, problems } = await openIn(browser, lang.screen, lang.locale);
      try {
        await startSignedIn(page, server.url, pair, lang.locale === 'en-US' ? 'en' : 'zh-CN');
        await page.goto(`${server.url}/files`);
        await page.getByText(lang.held).waitFor();
        const row = page.locator('[data-path="/inbox"]');
        await row.waitFor();
        // On touch a tap opens the folder; its check box selects it.
        if (lang.screen.touch) await row.getByRole('checkbox', { name: lang.select }).tap();
        else await row.click();
        await page.getByRole('button', { name: lang.share, exact: true }).first().click();
        const arriving = page.getByRole('dialog').getByTestId('pending-uploads');
        await arriving.getByText(lang.arriving).waitFor();
        await arriving.getByText(name).waitFor();
        await arriving.getByText(/1 MB.*3 MB|1\.0 MB.*3\.0 MB|1 MiB.*3 MiB/).waitFor();
        assert.deepEqual(await seriousA11yViolations(page), [], 'share dialog with uploads arriving');
        await shot(page, `upload-link-pending-${lang.tag}-${lang.screen.name}`);

        await arriving.getByRole('button', { name: lang.cancel(name) }).click();
        await arriving.waitFor({ state: 'detached' });
        await page.getByText(lang.held).waitFor({ state: 'detached' });
        const capacity = await api.get<{ reserved: number }>('/api/v4/user/capacity', { token });
        assert.equal(capacity.body.data.reserved, 0, 'the space is back');
        assert.equal((await fetch(server.url + created.headers.get('location')!, { method: 'HEAD', headers: TUS })).status, 404, 'the stranger finds the upload gone');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
