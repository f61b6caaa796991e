// Files strangers send are scanned (issue 32): with CIRRUS_CLAMAV naming
// clamd's socket, what arrives through an upload-request link is scanned with
// Debian's clamd (an offline signature database made here: the EICAR test
// file) before its file exists. Clean files arrive; an infected one is refused
// and deleted, its owner mailed, /metrics counting; with clamd down the upload
// is held (503 + Retry-After, nothing appears) and arrives once clamd is back;
// with CIRRUS_CLAMAV_SCAN=all the owner's own uploads are scanned too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn } from '../helpers/client.js';
import { MailCatcher } from '../helpers/mail.js';
import { CLAMD_BIN, Clamd, EICAR } from '../helpers/clamd.js';

const METRICS = 'antivirus-metrics-token-0123456789';
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const skip = existsSync(CLAMD_BIN) ? false : `${CLAMD_BIN} is not installed (apt-get install clamav-daemon)`;

async function scans(server: InjectedServer): Promise<{ clean: number; infected: number; failed: number }> {
  const res = await server.fetch('/metrics', { headers: { authorization: `Bearer ${METRICS}` } });
  assert.equal(res.status, 200);
  const out = { clean: 0, infected: 0, failed: 0 };
  for (const m of (await res.text()).matchAll(/^cirrus_antivirus_scans_total\{result="(clean|infected|failed)"\} (\d+)$/gm)) out[m[1] as keyof typeof out] = Number(m[2]);
  return out;
}

describe('uploads through upload-request links are scanned by clamd (issue 32)', { skip }, () => {
  let clamd: Clamd;
  let smtp: MailCatcher;
  let server: InjectedServer;
  let api: Api;
  let owner: { email: string; token: string };
  let shareId: string;

  before(async () => {
    clamd = await Clamd.start();
    smtp = await MailCatcher.start();
    server = await startInjectedServer({ ...smtp.env, CIRRUS_CLAMAV: `unix:${clamd.socket}`, CIRRUS_METRICS_TOKEN: METRICS });
    api = new Api(server);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const email = `av-owner-${process.pid}@example.com`;
    owner = { email, token: (await createUser(api, admin, email)).token.access_token };
    assert.equal((await api.post('/api/v4/file/create', { path: '/Inbox', type: 'folder' }, { token: owner.token })).status, 200);
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/Inbox', upload_only: true }, { token: owner.token });
    shareId = share.body.data.id;
  });
  after(async () => {
    await server?.close();
    await smtp?.stop();
    await clamd?.stop();
  });

  /** A visitor's tus upload through the link: the creation's Location and the PATCH's answer. */
  async function send(name: string, body: Buffer): Promise<{ location: string; res: Response }> {
    const created = await server.fetch(`/api/v4/share/upload/${shareId}`, { method: 'POST', headers: { ...TUS, 'upload-length': String(body.length), 'upload-metadata': `filename ${b64(name)},uploader ${b64('A stranger')}` } });
    assert.equal(created.status, 201, await created.text());
    const location = created.headers.get('location')!;
    const res = await server.fetch(location, { method: 'PATCH', headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
    return { location, res };
  }

  async function inbox(): Promise<string[]> {
    const res = await api.get<{ files: { name: string }[] }>('/api/v4/file?path=/Inbox', { token: owner.token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.files.map((f) => f.name).sort();
  }

  it('a clean file sent through the link arrives, counted as a clean scan', async () => {
    const before = await scans(server);
    const { res } = await send('report.txt', Buffer.from('quarterly figures\n'));
    assert.equal(res.status, 204, await res.text());
    assert.deepEqual(await inbox(), ['report.txt']);
    assert.equal((await scans(server)).clean, before.clean + 1);
  });

  it('the EICAR file sent through the link is refused (403, reason infected) and deleted: never in the folder, the quota given back, the owner mailed, /metrics counts it', async () => {
    const before = await scans(server);
    const usage = (await api.get<{ used: number }>('/api/v4/user/capacity', { token: owner.token })).body.data.used;
    const { location, res } = await send('invoice.pdf.exe', EICAR);
    assert.equal(res.status, 403);
    const body = (await res.json()) as { code: number; data: { reason: string }; msg: string };
    assert.equal(body.code, 403);
    assert.equal(body.data.reason, 'infected');
    assert.match(body.msg, /Eicar-Test-Signature/);
    assert.deepEqual(await inbox(), ['report.txt'], 'nothing of it in the folder');
    assert.equal((await api.get<{ used: number }>('/api/v4/user/capacity', { token: owner.token })).body.data.used, usage, 'no bytes kept on the quota');
    // The upload is gone with its bytes: a retry finds nothing to finish.
    assert.equal((await server.fetch(location, { method: 'HEAD', headers: TUS })).status, 404);
    const received = await api.get<{ uploads: { name: string }[] }>(`/api/v4/share/${shareId}/uploads`, { token: owner.token });
    assert.deepEqual(received.body.data.uploads.map((u) => u.name), ['report.txt']);
    const after = await scans(server);
    assert.equal(after.infected, before.infected + 1);
    await server.built.services.jobs.run('mail_outbox');
    const mail = await smtp.waitFor(owner.email);
    assert.match(mail.subject, /A file with a virus was refused/);
    assert.match(mail.text, /invoice\.pdf\.exe/);
    assert.match(mail.text, /Eicar-Test-Signature/);
    assert.match(mail.text, /upload link/);
  });

  it('with clamd stopped the upload is held: 503 with Retry-After (reason scanner_unavailable), nothing appears, a retry is held too; once clamd is back the file arrives', async () => {
    await clamd.pause();
    try {
      const before = await scans(server);
      const { location, res } = await send('held.txt', Buffer.from('sent while the scanner was down\n'));
      assert.equal(res.status, 503, await res.clone().text());
      assert.ok(Number(res.headers.get('retry-after')) > 0, `Retry-After: ${res.headers.get('retry-after')}`);
      const body = (await res.json()) as { data: { reason: string } };
      assert.equal(body.data.reason, 'scanner_unavailable');
      assert.deepEqual(await inbox(), ['report.txt'], 'not accepted unscanned');
      const retry = await server.fetch(location, { method: 'HEAD', headers: TUS });
      assert.equal(retry.status, 503, 'a tus client\'s retry (HEAD) is held as well');
      assert.deepEqual(await inbox(), ['report.txt']);
      assert.ok((await scans(server)).failed >= before.failed + 2);
      await clamd.resume();
      // The upload was kept: the client's next retry (or the reclaimer) scans and places it.
      let head = await server.fetch(location, { method: 'HEAD', headers: TUS });
      for (let i = 0; i < 50 && head.status !== 200 && head.status !== 404; i++) {
        await sleep(100);
        head = await server.fetch(location, { method: 'HEAD', headers: TUS });
      }
      assert.deepEqual(await inbox(), ['held.txt', 'report.txt']);
    } finally {
      await clamd.resume();
    }
  });

  it('the owner\'s own uploads are not scanned by default (CIRRUS_CLAMAV_SCAN=links)', async () => {
    const before = await scans(server);
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent('/eicar-of-my-own.txt')}`, { token: owner.token, body: EICAR });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await scans(server), before);
  });
});

describe('CIRRUS_CLAMAV_SCAN=all scans every upload (issue 32)', { skip }, () => {
  let clamd: Clamd;
  let server: InjectedServer;
  let api: Api;
  let token: string;

  before(async () => {
    clamd = await Clamd.start();
    server = await startInjectedServer({ CIRRUS_CLAMAV: clamd.socket, CIRRUS_CLAMAV_SCAN: 'all', CIRRUS_METRICS_TOKEN: METRICS });
    api = new Api(server);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, `av-all-${process.pid}@example.com`)).token.access_token;
  });
  after(async () => {
    await server?.close();
    await clamd?.stop();
  });

  async function names(): Promise<string[]> {
    const res = await api.get<{ files: { name: string }[] }>('/api/v4/file?path=/', { token });
    return res.body.data.files.map((f) => f.name).sort();
  }

  it('a normal upload (PUT /file/content, tus) of EICAR is refused too; a clean one is stored', async () => {
    const put = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent('/eicar.com')}`, { token, body: EICAR });
    assert.equal(put.status, 403, put.text);
    assert.equal((put.body as { data: { reason: string } }).data.reason, 'infected');
    const created = await api.raw('POST', '/api/v4/file/upload', { token, headers: { ...TUS, 'upload-length': String(EICAR.length), 'upload-metadata': `filename ${b64('eicar2.com')}` } });
    assert.equal(created.status, 201, created.text);
    const patched = await api.raw('PATCH', created.headers.get('location')!.replace(/^https?:\/\/[^/]+/, ''), { token, headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: EICAR });
    assert.equal(patched.status, 403, patched.text);
    const clean = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent('/notes.txt')}`, { token, body: Buffer.from('fine\n') });
    assert.equal(clean.status, 200, clean.text);
    assert.deepEqual(await names(), ['notes.txt']);
    const counted = await scans(server);
    assert.deepEqual([counted.infected, counted.clean], [2, 1]);
  });
});

describe('a file past clamd\'s StreamMaxLength is not taken for clean (issue 32)', { skip }, () => {
  let clamd: Clamd;
  let server: InjectedServer;
  let api: Api;
  let token: string;

  before(async () => {
    clamd = await Clamd.start('64K');
    server = await startInjectedServer({ CIRRUS_CLAMAV: `unix:${clamd.socket}`, CIRRUS_CLAMAV_SCAN: 'all', CIRRUS_METRICS_TOKEN: METRICS });
    api = new Api(server);
    const admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    token = (await createUser(api, admin, `av-big-${process.pid}@example.com`)).token.access_token;
  });
  after(async () => {
    await server?.close();
    await clamd?.stop();
  });

  it('"INSTREAM size limit exceeded" refuses the upload (413, reason too_large_to_scan) and counts a failure', async () => {
    const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent('/big.bin')}`, { token, body: Buffer.alloc(512 * 1024, 1) });
    assert.equal(res.status, 413, res.text);
    assert.equal((res.body as { data: { reason: string } }).data.reason, 'too_large_to_scan');
    const listed = await api.get<{ files: unknown[] }>('/api/v4/file?path=/', { token });
    assert.equal(listed.body.data.files.length, 0);
    assert.equal((await scans(server)).failed, 1);
  });
});
