// Errors in the reader's language, next to their field, once (issue 23 item
// 6): in Simplified Chinese, a too-short new password and a folder name with
// "/" or "\" are refused with Chinese sentences beside the field, before any
// request; a refusal the server sends (its real envelope, schema text and
// all) is turned into the same kind of sentence, never shown raw. The
// browser's rules (web/src/api/rules.ts) are checked against the OpenAPI
// document so they cannot drift from the server's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, seriousA11yViolations } from './support.js';
import { VIEWPORTS, openIn, press, shot, type Viewport } from './viewports.js';
import { ROOT_DIR } from '../../src/paths.js';

const PASSWORD = 'field-errors-password-1';
const RAW = /new_password|new_name|path:|must NOT|must not|characters|schema|服务器无法接受/;

/** The text appears exactly once on the page, and inside the wrapper of the field labelled `label`. */
async function onceBesideField(page: Page, label: string, text: string): Promise<void> {
  const matches = page.getByText(text, { exact: true });
  await matches.first().waitFor();
  assert.equal(await matches.count(), 1, `"${text}" is shown once`);
  const input = page.getByLabel(label, { exact: true });
  assert.equal(await input.getAttribute('aria-invalid'), 'true', `${label} is marked invalid`);
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const errorId = await matches.first().getAttribute('id');
  assert.ok(errorId && describedBy.split(' ').includes(errorId), `the sentence describes ${label} (${describedBy} / ${errorId})`);
}

describe('web app: field errors in the reader\'s language', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let pair: unknown;
  let token: string;
  const email = `field-errors-${process.pid}@example.com`;

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    await createUser(api, admin, email, PASSWORD);
    const signed = (await signIn(api, email, PASSWORD)).token;
    pair = signed;
    token = signed.access_token;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const inChinese = async (v: Viewport, url: string) => {
    const opened = await openIn(browser, v, 'zh-CN');
    await opened.page.goto(`${server.url}/`);
    await opened.page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
    await opened.page.goto(url);
    return opened;
  };

  it('the browser\'s rules match the OpenAPI document', async () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT_DIR, 'web/src/api/generated/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { requestBody?: { content: { 'application/json': { schema: { properties: Record<string, { minLength?: number; maxLength?: number; pattern?: string }> } } } } }>>;
    };
    const body = (p: string, m: string) => doc.paths[p]![m]!.requestBody!.content['application/json'].schema.properties;
    const rules = readFileSync(path.join(ROOT_DIR, 'web/src/api/rules.ts'), 'utf8');
    const np = body('/api/v4/user/setting', 'patch').new_password!;
    assert.match(rules, new RegExp(`PASSWORD = \\{ minLength: ${np.minLength}, maxLength: ${np.maxLength} \\}`));
    const name = body('/api/v4/file/archive', 'post').name!;
    assert.equal(name.pattern, '^[^/\\\\\\u0000-\\u001f]+$');
    assert.match(rules, new RegExp(`maxBytes: ${name.maxLength},`));
    assert.ok(rules.includes('forbidden: /[/\\\\\\u0000-\\u001f\\u007f]/'), 'the same forbidden characters (and DEL)');
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: zh-CN, a too-short new password is refused beside the field in Chinese, once`, async () => {
      const { context, page, problems } = await inChinese(v, `${server.url}/settings/security`);
      const sent: string[] = [];
      page.on('request', (r) => r.method() === 'PATCH' && sent.push(r.url()));
      await page.getByLabel('当前密码', { exact: true }).fill(PASSWORD);
      await page.getByLabel('新密码', { exact: true }).fill('short1');
      await page.getByLabel('再次输入新密码', { exact: true }).fill('short1');
      await press(v, page.getByRole('button', { name: '修改密码' }));
      await onceBesideField(page, '新密码', '至少需要 8 个字符。');
      assert.doesNotMatch(await page.locator('main').innerText(), RAW);
      assert.deepEqual(sent, [], 'refused before any request');
      await shot(page, `field-password-zh-${v.name}`);
      assert.deepEqual(await seriousA11yViolations(page), [], 'axe on the security tab with the error');

      // A wrong current password is the server's answer: beside the current password, once.
      await page.getByLabel('当前密码', { exact: true }).fill('not-the-password');
      await page.getByLabel('新密码', { exact: true }).fill('Copper-Lantern-Orbit-62');
      await page.getByLabel('再次输入新密码', { exact: true }).fill('Copper-Lantern-Orbit-62');
      await press(v, page.getByRole('button', { name: '修改密码' }));
      await onceBesideField(page, '当前密码', '当前密码不正确。');
      assert.doesNotMatch(await page.locator('main').innerText(), RAW);
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${v.name}: zh-CN, a folder name with "/" or "\\" is refused beside the field in Chinese; the server's own refusal is translated too`, async () => {
      const { context, page, problems } = await inChinese(v, `${server.url}/files`);
      await press(v, page.getByRole('button', { name: '新建文件夹' }).first());
      const dialog = page.getByRole('dialog');
      for (const bad of ['a/b', 'a\\b']) {
        await dialog.getByLabel('文件夹名称', { exact: true }).fill(bad);
        await press(v, dialog.getByRole('button', { name: '创建' }));
        await onceBesideField(page, '文件夹名称', '名称不能包含 “/”、“\\” 或控制字符。');
        assert.doesNotMatch(await dialog.innerText(), RAW);
      }
      await shot(page, `field-name-zh-${v.name}`);

      // The server's real refusal of such a name, answered to a name the browser let through.
      const real = await fetch(`${server.url}/api/v4/file/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/a\\b', type: 'folder' }),
      });
      const envelope = (await real.json()) as { code: number; msg: string };
      assert.equal(real.status, 400);
      assert.equal(envelope.code, 40001);
      assert.match(envelope.msg, /^path: must not contain "\/", "\\"/, 'the schema text the person must not see');
      await page.route('**/api/v4/file/create', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify(envelope) }));
      await dialog.getByLabel('文件夹名称', { exact: true }).fill('fine-name');
      await press(v, dialog.getByRole('button', { name: '创建' }));
      await onceBesideField(page, '文件夹名称', '名称不能包含 “/”、“\\” 或控制字符。');
      assert.doesNotMatch(await dialog.innerText(), RAW);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
