// Upload requests in the browser (issue 22): an anonymous visitor, in a fresh
// context with no account, drops a 50 MiB file on /s/:id and it lands in the
// owner's folder with the visitor's name; the page shows nothing of the folder,
// words a file over the limit and a used-up link in English and Chinese, and
// asks for the password first when there is one, and says so when the link is
// busy with other uploads while it keeps trying. The owner makes an upload
// request from the share dialog and sees what was received. 1280×800 and
// 390×844, axe-core on each page; screenshots under /tmp.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, seriousA11yViolations, signInThroughForm } from './support.js';
import { VIEWPORTS, openIn, shot } from './viewports.js';

const PASSWORD = 'upload-request-ui-1';
const SECRETS = ['confidential-budget-2027.xlsx', 'private-subfolder-x9'];
const MIB = 1024 * 1024;

describe('web app: upload requests (drop zone, limits, password, owner details)', { skip: browserSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  let token: string;
  const email = `upload-request-ui-${process.pid}@example.com`;

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  const put = async (p: string, body: string) => {
    const res = await fetch(`${server.url}/api/v4/file/content?path=${encodeURIComponent(p)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });
    assert.equal(res.status, 200, await res.text());
  };
  /** A folder holding secrets, with an upload request on it. */
  const inbox = async (folder: string, settings: Record<string, unknown> = {}) => {
    await put(`${folder}/${SECRETS[0]}`, 'secret numbers');
    await put(`${folder}/${SECRETS[1]}/inner.txt`, 'secret');
    return call<{ id: string; url: string }>('PUT', '/api/v4/share', { path: folder, upload_only: true, ...settings });
  };
  const listing = async (folder: string) => (await call<{ files: { name: string; size: number }[] }>('GET', `/api/v4/file?path=${encodeURIComponent(folder)}`)).files;

  const noSecrets = async (page: Page) => {
    const html = await page.content();
    for (const s of SECRETS) assert.ok(!html.includes(s), `the page shows ${s}`);
  };
  const axeClean = async (page: Page, where: string) => assert.deepEqual(await seriousA11yViolations(page), [], where);

  /** Drops a file made in the page (no file on disk: what a person drags from their desktop). */
  const dropFile = async (page: Page, name: string, size: number) => {
    const dt = await page.evaluateHandle(
      ({ name, size }) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) % 251;
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
        return transfer;
      },
      { name, size },
    );
    await page.locator('[data-testid="drop-zone"]').dispatchEvent('drop', { dataTransfer: dt });
  };

  before(async () => {
    browser = await launchBrowser();
    server = await startServer();
    const api = new Api(server.url);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, email, PASSWORD)).token.access_token;
    await call('PATCH', '/api/v4/user/setting', { nickname: 'Olivia' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWPORTS) {
    it(`${v.name}: a visitor with no account drops a 50 MiB file; it lands in the folder with their name, and the page shows nothing of the folder`, async () => {
      const folder = `/drop-${v.name}`;
      const s = await inbox(folder, { max_file_size: 60 * MIB, max_files: 5 });
      const { context, page, problems } = await openIn(browser, v);
      try {
        await page.goto(`${server.url}/s/${s.id}`);
        await page.getByRole('heading', { name: 'Send files to Olivia' }).waitFor();
        await page.getByTestId('upload-limits').getByText('Up to 5 files · each at most 60 MB').waitFor();
        await noSecrets(page);
        await axeClean(page, `${v.name} upload page`);
        await shot(page, `upload-request-${v.name}-en`);
        await page.getByLabel('Your name').fill('Visitor Vera');
        await dropFile(page, 'drop-50mib.bin', 50 * MIB);
        const sent = page.getByTestId('sent-list');
        await sent.getByText('drop-50mib.bin').waitFor({ timeout: 120_000 });
        await sent.getByRole('heading', { name: 'You sent 1 file' }).waitFor();
        await shot(page, `upload-request-${v.name}-sent`);
        await axeClean(page, `${v.name} after sending`);
        await noSecrets(page);
        const file = (await listing(folder)).find((f) => f.name === 'drop-50mib.bin');
        assert.equal(file?.size, 50 * MIB);
        const received = await call<{ uploads: { name: string; uploader: string | null; size: number }[] }>('GET', `/api/v4/share/${s.id}/uploads`);
        assert.deepEqual(received.uploads.map((u) => [u.name, u.uploader, u.size]), [['drop-50mib.bin', 'Visitor Vera', 50 * MIB]]);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });

    for (const lang of [
      { locale: 'en-US', tooBig: 'Too big: this link accepts files of at most 1 KB.', full: 'This link has received all the files it accepts. Ask its owner for a new one.', title: 'Send files to Olivia' },
      { locale: 'zh-CN', tooBig: '文件过大：此链接只接收不超过 1 KB 的文件。', full: '此链接接收的文件已达上限。请向链接的所有者索取新链接。', title: '向 Olivia 发送文件' },
    ]) {
      it(`${v.name}, ${lang.locale}: a file over the limit and a used-up link are said in the visitor's language`, async () => {
        const small = await inbox(`/small-${v.name}-${lang.locale}`, { max_file_size: 1024 });
        const used = await inbox(`/used-${v.name}-${lang.locale}`, { max_files: 1 });
        // Fill the used-up link through the API, as another visitor would.
        const created = await fetch(`${server.url}/api/v4/share/upload/${used.id}`, {
          method: 'POST',
          headers: { 'tus-resumable': '1.0.0', 'upload-length': '0', 'upload-metadata': `filename ${Buffer.from('first.txt').toString('base64')}` },
        });
        assert.equal(created.status, 201);
        const { context, page } = await openIn(browser, v, lang.locale);
        try {
          await page.goto(`${server.url}/s/${small.id}`);
          await page.getByRole('heading', { name: lang.title }).waitFor();
          await page.locator('input[type="file"]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2048, 1) });
          await page.getByRole('alert').getByText(lang.tooBig).waitFor();
          await axeClean(page, `${v.name} ${lang.locale} too big`);
          await shot(page, `upload-request-${v.name}-${lang.locale}-toobig`);
          assert.ok(!(await listing(`/small-${v.name}-${lang.locale}`)).some((f) => f.name === 'big.bin'));
          await page.goto(`${server.url}/s/${used.id}`);
          await page.getByText(lang.full).waitFor();
          assert.equal(await page.locator('[data-testid="drop-zone"]').count(), 0, 'no drop zone on a used-up link');
          await axeClean(page, `${v.name} ${lang.locale} used up`);
          await shot(page, `upload-request-${v.name}-${lang.locale}-full`);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('a password-protected upload request asks for the password first, then takes files', async () => {
    const s = await inbox('/locked-drop', { password: 'let-me-send' });
    const { context, page } = await openIn(browser, VIEWPORTS[1]);
    try {
      await page.goto(`${server.url}/s/${s.id}`);
      await page.getByLabel('Password', { exact: true }).fill('wrong-one');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByText('That password is not right.').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('let-me-send');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('heading', { name: 'Send files to Olivia' }).waitFor();
      await page.locator('input[type="file"]').setInputFiles([
        { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') },
        { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('beta') },
      ]);
      await page.getByTestId('sent-list').getByRole('heading', { name: 'You sent 2 files' }).waitFor();
      await noSecrets(page);
      const names = (await listing('/locked-drop')).map((f) => f.name);
      assert.ok(names.includes('a.txt') && names.includes('b.txt'), names.join(', '));
    } finally {
      await context.close();
    }
  });

  it('zh-CN, phone: a link busy with another upload says so in the visitor\'s language (429, reason busy) while the page keeps trying, and the file goes once that upload has arrived', async () => {
    // A site whose links may wait for at most 1 MiB at a time (api-contract §13).
    const site = await startServer({ CIRRUS_LINK_UPLOAD_PENDING_MB_PER_LINK: '1' });
    try {
      const api = new Api(site.url);
      const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
      const owner = (await createUser(api, admin, `busy-owner-${process.pid}@example.com`, PASSWORD)).token.access_token;
      assert.equal((await api.raw('POST', '/api/v4/file/create', { token: owner, json: { path: '/busy-drop', type: 'folder' } })).status, 200);
      const link = await api.put<{ id: string }>('/api/v4/share', { path: '/busy-drop', upload_only: true }, { token: owner });
      const inFolder = async () => (await api.get<{ files: { name: string }[] }>('/api/v4/file?path=%2Fbusy-drop', { token: owner })).body.data.files.map((f) => f.name).sort();
      // Another visitor announces 1 MiB and has sent nothing yet: the link's budget is taken.
      const other = await fetch(`${site.url}/api/v4/share/upload/${link.body.data.id}`, {
        method: 'POST',
        headers: { 'tus-resumable': '1.0.0', 'upload-length': String(MIB), 'upload-metadata': `filename ${Buffer.from('other.bin').toString('base64')}` },
      });
      assert.equal(other.status, 201);
      const { context, page, problems } = await openIn(browser, VIEWPORTS[1], 'zh-CN');
      try {
        await page.goto(`${site.url}/s/${link.body.data.id}`);
        await page.locator('input[type="file"]').setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('a short note') });
        await page.getByRole('alert').getByText('此链接正在接收大量文件。一有空位就会发送你的文件，请保持此页面打开。').waitFor();
        await axeClean(page, 'phone zh-CN busy link');
        await shot(page, 'upload-request-phone-zh-CN-busy');
        assert.deepEqual(await inFolder(), [], 'nothing arrived while busy');
        // The other upload arrives; the page's next try goes through, with no click.
        const rest = await fetch(site.url + other.headers.get('location')!, {
          method: 'PATCH',
          headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: Buffer.alloc(MIB, 2) as unknown as BodyInit,
        });
        assert.equal(rest.status, 204);
        await page.getByTestId('sent-list').getByRole('heading', { name: '你已发送 1 个文件' }).waitFor({ timeout: 30_000 });
        assert.equal(await page.getByRole('alert').count(), 0, 'the busy note is gone');
        assert.deepEqual(await inFolder(), ['note.txt', 'other.bin']);
        // The refusals are 429s the browser logs as failed resources, nothing else.
        assert.deepEqual(problems.filter((p) => !/status of 429/.test(p)), []);
      } finally {
        await context.close();
      }
    } finally {
      await site.close();
    }
  });

  it('the owner makes an upload request from the share dialog and sees who sent what', async () => {
    await put('/requests/existing.txt', 'x');
    const { context, page, problems } = await openIn(browser, VIEWPORTS[0]);
    try {
      await signInThroughForm(page, `${server.url}/files`, email, PASSWORD);
      const row = page.locator('[data-path="/requests"]');
      await row.waitFor();
      await row.click();
      await page.getByRole('button', { name: 'Share', exact: true }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Upload request').click();
      await dialog.getByLabel('Most files accepted').fill('10');
      await dialog.getByLabel('Largest file (MB)').fill('5');
      await axeClean(page, 'share dialog, upload request form');
      await shot(page, 'upload-request-owner-form');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const url = await dialog.getByLabel('Link', { exact: true }).inputValue();
      const id = url.split('/s/')[1]!;
      const share = await call<{ upload_only: boolean; max_files: number; max_file_size: number }>('GET', `/api/v4/share/${id}`);
      assert.deepEqual([share.upload_only, share.max_files, share.max_file_size], [true, 10, 5 * MIB]);
      await dialog.getByText('Nothing received yet.').waitFor();
      await page.keyboard.press('Escape');
      // A visitor sends a file with a name; the owner's dialog lists it.
      const meta = `filename ${Buffer.from('existing.txt').toString('base64')},uploader ${Buffer.from('Sam').toString('base64')}`;
      const created = await fetch(`${server.url}/api/v4/share/upload/${id}`, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': '0', 'upload-metadata': meta } });
      assert.equal(created.status, 201);
      await row.click();
      await page.getByRole('button', { name: 'Share', exact: true }).first().click();
      const received = page.getByRole('dialog').getByTestId('received-files');
      await received.getByText('existing (1).txt').waitFor();
      await received.getByText(/from Sam/).waitFor();
      await page.getByRole('dialog').getByText('Files received: 1 of 10').waitFor();
      await axeClean(page, 'share dialog with received files');
      await shot(page, 'upload-request-owner-received');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
