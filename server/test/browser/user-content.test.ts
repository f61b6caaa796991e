// Issue 19, defect 9, in Chromium: an uploaded .js (or .mjs, or .css) reached
// through the URLs a page could name without a token (a signed link, a share
// link) is on the app's own origin, which the app's CSP allows scripts from;
// it must still never run or apply in the app's page. The server sends it as
// application/octet-stream with nosniff, so the browser refuses it (Fetch
// standard §3.5). The HTTP side is server/test/security/user-content.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { browserSkip, launchBrowser, openPage } from './support.js';

const SCRIPT = 'window.__pwned = (window.__pwned || 0) + 1; document.title = "pwned";';

describe('issue 19 #9: an upload never loads as a script or stylesheet of the app', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let token: string;
  let browser: Browser;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    token = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    for (const [path, text] of [['/evil.js', SCRIPT], ['/evil.mjs', SCRIPT], ['/evil.css', 'body { background-color: rgb(255, 0, 0) !important; }']]) {
      const res = await api.raw('PUT', `/api/v4/file/content?path=${encodeURIComponent(path!)}`, { token, body: text, headers: { 'content-type': 'text/javascript' } });
      assert.equal(res.status, 200, res.text);
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.close();
  });

  async function signed(path: string): Promise<string> {
    const res = await api.post<{ url: string }>('/api/v4/file/url', { path, inline: true }, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.data.url;
  }

  async function shareLink(path: string): Promise<string> {
    const res = await api.put<{ id: string; url: string }>('/api/v4/share', { path }, { token });
    assert.equal(res.status, 200, res.text);
    return `${res.body.data.url}?download=1`;
  }

  it('<script src>, <script type=module> and <link rel=stylesheet> of signed and share links do nothing in the app page', async () => {
    const urls = {
      script: [await signed('/evil.js'), await shareLink('/evil.js')],
      module: [await signed('/evil.mjs'), await shareLink('/evil.mjs')],
      style: [await signed('/evil.css'), await shareLink('/evil.css')],
    };
    for (const list of Object.values(urls)) for (const url of list) assert.ok(url.startsWith(server.url), `${url} is on the app's origin`);
    const { page, context } = await openPage(browser);
    try {
      const blocked: string[] = [];
      page.on('console', (msg) => {
        if (/MIME type|strict MIME/i.test(msg.text())) blocked.push(msg.text());
      });
      await page.goto(`${server.url}/`);
      const csp = (await page.evaluate(async () => (await fetch('/')).headers.get('content-security-policy'))) ?? '';
      assert.match(csp, /script-src 'self'/, 'the app allows scripts from its own origin');
      // A string, not a function: tsx would wrap the helpers' names in a function the page lacks.
      const outcome = (await page.evaluate(`(async (u) => {
        const load = (el) => new Promise((resolve) => {
          el.onload = () => resolve('load');
          el.onerror = () => resolve('error');
          document.head.appendChild(el);
        });
        const results = {};
        for (const src of u.script) {
          const s = document.createElement('script');
          s.src = src;
          results['script ' + src] = await load(s);
        }
        for (const src of u.module) {
          const s = document.createElement('script');
          s.type = 'module';
          s.src = src;
          results['module ' + src] = await load(s);
        }
        for (const href of u.style) {
          const l = document.createElement('link');
          l.rel = 'stylesheet';
          l.href = href;
          results['style ' + href] = await load(l);
        }
        return { results, pwned: window.__pwned ?? 0, title: document.title, background: getComputedStyle(document.body).backgroundColor };
      })(${JSON.stringify(urls)})`)) as { results: Record<string, string>; pwned: number; title: string; background: string };
      assert.equal(outcome.pwned, 0, `no upload ran: ${JSON.stringify(outcome)}`);
      assert.notEqual(outcome.title, 'pwned');
      assert.notEqual(outcome.background, 'rgb(255, 0, 0)', 'no upload applied as a stylesheet');
      for (const [what, result] of Object.entries(outcome.results)) assert.equal(result, 'error', `${what} is refused by the browser`);
      assert.ok(blocked.length >= 4, `the browser names the MIME type as the reason: ${blocked.join(' | ')}`);
    } finally {
      await context.close();
    }
  });
});
