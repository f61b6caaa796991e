// The dashboard's media card (issue 36) in Debian Chromium, against the API:
// the counts of blobs made, waiting and failed; each kind on or off, and for
// one that is off the missing tool and the Debian package to install (the
// server starts with a PATH on which pdftoppm is missing). English and
// Chinese, desktop and phone, axe-core, screenshots. SQLite only: the card
// shows what the status route answers, on any database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, launchBrowser, networkQuiet, openAppPage, PHONE, screenshot, seriousA11yViolations } from './support.js';

type Status = { kinds: { kind: string; enabled: boolean; missing: string[]; package: string | null }[]; counts: Record<'pending' | 'done' | 'failed' | 'skipped' | 'off', number> };

const which = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();

describe('admin dashboard: thumbnails and photo details card (browser)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let adminPair: TokenPair;
  let bin: string;

  before(async () => {
    // A PATH with every media tool there is here but pdftoppm: PDF thumbnails are off.
    bin = mkdtempSync(path.join(tmpdir(), 'cirrus-media-bin-'));
    for (const tool of ['ffmpeg', 'ffprobe', 'heif-convert', 'prlimit', 'sh']) {
      const at = which(tool);
      if (at) symlinkSync(at, path.join(bin, tool));
    }
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      server = await startServer();
    } finally {
      process.env.PATH = saved;
    }
    api = new Api(server.url);
    adminPair = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  it('shows the counts and the kinds, names the missing tool and its package, in English and Chinese, at desktop and phone sizes', async () => {
    // Something to count: a picture (made) and a PDF (its kind is off).
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    for (const [name, body] of [['dot.png', png], ['doc.pdf', Buffer.from('%PDF-1.4\n%%EOF\n')]] as const) {
      const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(`/${name}`)}`, { token: adminPair.access_token, body, headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(res.status, 200, res.text);
    }
    let status: Status;
    const until = Date.now() + 30_000;
    for (;;) {
      status = (await api.get<Status>('/api/v4/admin/media/status', { token: adminPair.access_token })).body.data;
      if (status.counts.pending === 0 && status.counts.done + status.counts.off >= 2) break;
      assert.ok(Date.now() < until, `still waiting: ${JSON.stringify(status.counts)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const pdf = status.kinds.find((k) => k.kind === 'pdf')!;
    assert.deepEqual([pdf.enabled, pdf.missing, pdf.package], [false, ['pdftoppm'], 'poppler-utils']);

    for (const [lang, title, off, install] of [['en', 'Thumbnails and photo details', 'Off', 'Missing: pdftoppm.'], ['zh-CN', '缩略图与照片信息', '已关闭', '缺少：pdftoppm。']] as const) {
      for (const [device, size] of [[{ width: 1280, height: 800 }, 'desktop'], [PHONE.viewport, 'phone']] as const) {
        const { page, context, problems } = await openAppPage(browser, device);
        await page.goto(server.url + '/');
        await page.evaluate(([p, l]) => {
          localStorage.setItem('cirrus.session', JSON.stringify(p));
          localStorage.setItem('cirrus.lang', l);
        }, [adminPair, lang] as const);
        await page.goto(server.url + '/admin');
        const card = page.getByRole('region', { name: title });
        await card.waitFor();
        for (const key of ['done', 'pending', 'failed'] as const) {
          await card.locator(`[data-media-stat="${key}"]`).filter({ hasText: new RegExp(`^${status.counts[key]}$`) }).waitFor();
        }
        for (const k of status.kinds) {
          const row = card.locator(`[data-media-kind="${k.kind}"]`);
          assert.equal(await row.count(), 1, k.kind);
          if (!k.enabled) {
            assert.match(await row.innerText(), new RegExp(off, 'i'));
            assert.ok((await row.innerText()).includes(install), await row.innerText());
            assert.ok((await row.innerText()).includes(`apt install ${k.package}`), await row.innerText());
          }
        }
        await networkQuiet(page);
        assert.deepEqual(await seriousA11yViolations(page), [], `${lang} at ${size}`);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, `admin-media-status-${lang}-${size}`);
        assert.deepEqual(problems, [], `${lang} at ${size}: console errors`);
        await context.close();
      }
    }
  });
});
