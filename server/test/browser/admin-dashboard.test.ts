// The administrator dashboard in Debian Chromium, checked against the API:
// the interface's path Dashboard → OAuth Apps → New OAuth App end to end with
// openid-client (authorization code + PKCE with the Client ID and Secret read
// from the page), own secret, regeneration, disabling, a bad redirect URI line,
// users, groups, shares and settings, an ordinary user kept out, axe-core on
// every page, and screenshots at desktop and phone sizes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, createUser, signIn, type TokenPair } from '../helpers/client.js';
import { browserSkip, launchBrowser, networkQuiet, openPage, PHONE, screenshot, startRedirectCatcher, type RedirectCatcher } from './support.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious or critical axe-core violations on the page as it is now. */
async function axeProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays as it is.
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('admin dashboard (browser)', { skip: browserSkip }, () => {
  let server: TestServer;
  let api: Api;
  let browser: Browser;
  let catcher: RedirectCatcher;
  let adminPair: TokenPair;
  let adminToken: string;

  before(async () => {
    server = await startServer();
    api = new Api(server.url);
    adminPair = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    adminToken = adminPair.access_token;
    browser = await launchBrowser();
    catcher = await startRedirectCatcher();
  });
  after(async () => {
    await browser?.close();
    await catcher?.close();
    await server?.close();
  });

  const asUser = async (page: Page, pair: TokenPair) => {
    await page.goto(server.url + '/');
    await page.evaluate((p) => localStorage.setItem('cirrus.session', JSON.stringify(p)), pair);
  };
  const secretWorks = async (id: string, secret: string) =>
    (await api.raw('POST', '/api/v4/session/oauth/introspect', { form: { token: 'x', client_id: id, client_secret: secret } })).status === 200;

  let firstApp: { id: string; accessToken: string };

  it('Dashboard → OAuth Apps → New OAuth App, then openid-client runs code + PKCE with the values from the page (RFC 6749 §4.1, RFC 7636)', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByLabel('E-mail', { exact: true }).fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'OAuth Apps' }).click();
    await page.getByRole('link', { name: 'New OAuth App' }).click();
    await page.getByRole('heading', { name: 'New OAuth App' }).waitFor();

    const redirectUri = `${catcher.origin}/callback`;
    await page.getByLabel('App Name').fill('Photo Backup');
    await page.getByLabel('App Icon').fill('cloud-upload');
    await page.getByTestId('icon-preview').locator('svg[aria-label="Photo Backup icon"]').waitFor();
    await page.getByLabel('Redirect URIs').fill(`${redirectUri}\nhttp://127.0.0.1/second`);
    for (const scope of ['openid', 'profile', 'Files.Read']) await page.getByRole('checkbox', { name: new RegExp(`^${scope.replace('.', '\\.')} `) }).check();
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText('Copy the Client Secret now').waitFor();
    const clientId = await page.getByLabel('Client ID', { exact: true }).first().inputValue();
    const clientSecret = await page.getByLabel('Client Secret', { exact: true }).inputValue();
    assert.match(clientId, /^[0-9a-f-]{36}$/);
    assert.ok(clientSecret.length >= 32);
    await page.getByLabel('Token URL', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Token URL', { exact: true }).inputValue(), `${server.url}/api/v4/session/oauth/token`);
    await screenshot(page, 'admin-app-created');

    const saved = await api.get<{ name: string; icon: string; redirect_uris: string[]; scopes: string[] }>(`/api/v4/admin/oauthClient/${clientId}`, { token: adminToken });
    assert.deepEqual(saved.body.data.redirect_uris, [redirectUri, 'http://127.0.0.1/second']);
    assert.deepEqual([...saved.body.data.scopes].sort(), ['Files.Read', 'openid', 'profile']);
    assert.equal(saved.body.data.icon, 'cloud-upload');

    const config = await oidc.discovery(new URL(server.url), clientId, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile Files.Read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    await page.goto(authUrl.href);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
    assert.ok(tokens.access_token);
    assert.equal(tokens.claims()?.aud, clientId);
    const allowed = await api.get('/api/v4/file?path=/', { token: tokens.access_token });
    assert.equal(allowed.status, 200, allowed.text);
    const refused = await api.get('/api/v4/admin/summary', { token: tokens.access_token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 40089);
    firstApp = { id: clientId, accessToken: tokens.access_token };
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('own secret, a bad redirect URI line, regenerate (old secret refused) and disable (tokens stop)', async () => {
    const { page, context } = await openPage(browser);
    await asUser(page, adminPair);
    await page.goto(server.url + '/admin/apps/new');
    await page.getByLabel('App Name').fill('Own Secret');
    await page.getByLabel('App Icon').fill('photo');
    await page.getByLabel('Redirect URIs').fill('https://ok.example/cb\nnot a url');
    await page.getByRole('checkbox', { name: /^openid / }).check();
    await page.getByRole('radio', { name: 'Supply my own secret' }).check();
    await page.locator('input[type="password"]').fill('my-own-secret-0123456789');
    // RFC 9449 (api-contract §12): the per-app switch, saved as require_dpop.
    await page.getByRole('checkbox', { name: /^Require DPoP/ }).check();
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText(/^Line 2: /).waitFor();
    await screenshot(page, 'admin-app-bad-redirect');
    await page.getByLabel('Redirect URIs').fill('https://ok.example/cb');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText('Copy the Client Secret now').waitFor();
    const id = await page.getByLabel('Client ID', { exact: true }).first().inputValue();
    assert.equal(await page.getByLabel('Client Secret', { exact: true }).inputValue(), 'my-own-secret-0123456789');
    assert.ok(await secretWorks(id, 'my-own-secret-0123456789'));
    assert.equal((await api.get<{ require_dpop: boolean }>(`/api/v4/admin/oauthClient/${id}`, { token: adminToken })).body.data.require_dpop, true);

    await page.getByRole('button', { name: 'Regenerate secret' }).click();
    await page.getByRole('dialog').getByText('The old secret stops working at once').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate secret' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const fresh = await page.getByLabel('Client Secret', { exact: true }).inputValue();
    assert.notEqual(fresh, 'my-own-secret-0123456789');
    assert.ok(await secretWorks(id, fresh));
    assert.equal(await secretWorks(id, 'my-own-secret-0123456789'), false, 'the old secret fails at the server');

    // Disabling the first app stops the token openid-client obtained.
    await page.goto(`${server.url}/admin/apps/${firstApp.id}`);
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByText(/every token it holds stops/).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Disabled', { exact: true }).first().waitFor();
    assert.equal((await api.get('/api/v4/file?path=/', { token: firstApp.accessToken })).status, 401);
    await context.close();
  });

  it('users, groups (with the refusals), shares and settings, each checked against the API', async () => {
    const { page, context, problems } = await openPage(browser);
    await asUser(page, adminPair);
    const owner = await createUser(api, adminToken, 'owner@example.com');
    await api.raw('PUT', '/api/v4/file/content?path=/report.pdf', { token: owner.token.access_token, body: 'pdf' });
    const share = await api.put<{ id: string }>('/api/v4/share', { path: '/report.pdf' }, { token: owner.token.access_token });
    assert.equal(share.status, 200, share.text);

    // Users: search, reset password (the one-time password signs in).
    await page.goto(server.url + '/admin/users');
    await page.getByLabel('Search by e-mail or nickname').fill('owner@');
    await page.getByRole('button', { name: 'Actions for owner@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Reset password' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset password' }).click();
    const oneTime = await page.getByLabel('One-time password', { exact: true }).inputValue();
    const ownerNow = (await signIn(api, 'owner@example.com', oneTime)).token.access_token;
    await page.getByRole('button', { name: 'Done' }).click();

    // Content search (api-contract §16): reindex one person from the users page; the overview shows the API's counts.
    type SearchStatus = { indexed: number; pending: number; failed: number; skipped: number; recent_failures: { name: string | null; reason: string }[] };
    assert.equal((await api.raw('PUT', '/api/v4/file/content?path=/notes.txt', { token: ownerNow, body: 'minutes of the meeting' })).status, 200);
    const settled = async (): Promise<SearchStatus> => {
      for (let i = 0; ; i++) {
        const st = (await api.get<SearchStatus>('/api/v4/admin/search/status', { token: adminToken })).body.data;
        if (st.pending === 0) return st;
        assert.ok(i < 200, `the index settles: ${JSON.stringify(st)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // Indexed (found by its text), not merely not pending yet.
    for (let i = 0; ; i++) {
      const found = await api.get<{ files: unknown[] }>('/api/v4/file/search?scope=content&q=minutes', { token: ownerNow });
      if (found.body.data.files.length === 1) break;
      assert.ok(i < 200, 'notes.txt is indexed');
      await new Promise((r) => setTimeout(r, 100));
    }
    await settled();
    await page.getByRole('button', { name: 'Actions for owner@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Reindex files for search' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reindex' }).click();
    // The owner's two files (the text and the "PDF" that is not one) are queued again, nobody else's.
    await page.getByText('2 documents queued for extraction.').waitFor();
    const st = await settled();
    assert.ok(st.recent_failures.some((f) => f.name === 'report.pdf'), JSON.stringify(st));
    await page.goto(server.url + '/admin');
    const card = page.getByRole('region', { name: 'Content search' });
    for (const key of ['indexed', 'pending', 'failed'] as const) {
      await card.locator(`[data-search-stat="${key}"]`).filter({ hasText: new RegExp(`^${st[key]}$`) }).waitFor();
    }
    await card.getByText('report.pdf').waitFor();
    await card.getByRole('button', { name: 'Reindex everything' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reindex' }).click();
    await page.getByText(`${st.indexed + st.failed + st.skipped} documents queued for extraction.`).waitFor();
    await screenshot(page, 'admin-search-index');
    await settled();
    await page.goto(server.url + '/admin/users');

    // Groups: create, then the refusals come back as the server's words.
    await page.goto(server.url + '/admin/groups');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Editors');
    await page.getByRole('dialog').getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('cell', { name: 'Editors' }).first().waitFor();
    const groups = (await api.get<{ name: string; id: number }[]>('/api/v4/admin/group', { token: adminToken })).body.data;
    assert.ok(groups.some((g) => g.name === 'Editors'));
    await page.getByRole('button', { name: 'Delete Administrators' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText(/still has 1 user/).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Administrators' }).click();
    await page.getByRole('dialog').getByRole('checkbox', { name: 'Administrators' }).uncheck();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').getByText(/last active administrators/).waitFor();
    await screenshot(page, 'admin-groups-refusal');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    // A Chinese reader gets the same refusal in Chinese, with no English from the server in it.
    await page.evaluate(() => localStorage.setItem('cirrus.lang', 'zh-CN'));
    await page.reload();
    await page.getByRole('button', { name: '编辑 Administrators' }).click();
    await page.getByRole('dialog').getByRole('checkbox', { name: '管理员组' }).uncheck();
    await page.getByRole('dialog').getByRole('button', { name: '保存' }).click();
    const refusal = page.getByRole('dialog').getByText(/最后的在用管理员/);
    await refusal.waitFor();
    assert.doesNotMatch(await refusal.innerText(), /[A-Za-z]{3,}/);
    await screenshot(page, 'admin-groups-refusal-zh');
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();
    await page.evaluate(() => localStorage.setItem('cirrus.lang', 'en'));
    await page.reload();

    // Shares: take one down.
    await page.goto(server.url + '/admin/shares');
    await page.getByRole('cell', { name: /^\/report\.pdf/ }).waitFor();
    await page.getByRole('button', { name: 'Take down the share of /report.pdf' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Take down' }).click();
    await page.getByText('No shares.').waitFor();
    const shares = await api.post<{ pagination: { total: number } }>('/api/v4/admin/share', {}, { token: adminToken });
    assert.equal(shares.body.data.pagination.total, 0);

    // Settings: an out-of-range lifetime is refused on its field; a valid change is saved.
    await page.goto(server.url + '/admin/settings');
    await page.getByLabel('Site name').fill('Team Cloud');
    await page.getByRole('textbox', { name: 'Access-token lifetime' }).fill('48');
    await page.getByRole('combobox', { name: 'Unit of Access-token lifetime' }).click();
    await page.getByRole('option', { name: 'hours' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Access-token lifetime' }).getAttribute('aria-invalid'), 'true');
    await page.getByRole('textbox', { name: 'Access-token lifetime' }).fill('2');
    // How long file activity is kept (issue 37): an empty field is refused on the field, a number is saved.
    const activityDays = page.getByRole('textbox', { name: 'Keep file activity for (days)' });
    assert.equal(await activityDays.inputValue(), '365');
    await activityDays.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal(await activityDays.getAttribute('aria-invalid'), 'true');
    await page.getByText('Enter a whole number of days from 0 to 36,500').waitFor();
    await activityDays.fill('30');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved.').waitFor();
    await screenshot(page, 'admin-settings-saved');
    const settings = await api.get<{ site_name: string; access_token_ttl: number; activity_retention_days: number }>('/api/v4/admin/settings', { token: adminToken });
    assert.deepEqual([settings.body.data.site_name, settings.body.data.access_token_ttl, settings.body.data.activity_retention_days], ['Team Cloud', 7200, 30]);
    // No console error and no CSP violation (Chromium reports both on the console) on any of these pages,
    // besides the browser's note of the refusals this test provokes on purpose (409 and 403, checked above).
    assert.deepEqual(problems.filter((p) => !/^Failed to load resource: the server responded with a status of (403|409) /.test(p)), []);
    await context.close();
  });

  it('an ordinary user sees no Dashboard item, /admin says not allowed, and the admin API answers 403', async () => {
    const { page, context } = await openPage(browser);
    const user = await createUser(api, adminToken, 'plain@example.com');
    await asUser(page, user.token);
    await page.goto(server.url + '/files');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    assert.equal(await page.getByRole('menuitem', { name: 'Dashboard' }).count(), 0);
    await page.goto(server.url + '/admin/users');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    assert.equal((await api.post('/api/v4/admin/user', {}, { token: user.token.access_token })).status, 403);
    assert.equal((await api.get('/api/v4/admin/summary', { token: user.token.access_token })).status, 403);
    await screenshot(page, 'admin-not-allowed');
    await context.close();
  });

  it('Audit log: rows newest first, a filter, Verify, a CSV export and the retention, checked against the API (issue 37)', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await asUser(page, adminPair);
    await page.goto(server.url + '/admin');
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const latest = (await api.get<{ items: { seq: number; action: string }[] }>('/api/v4/admin/audit?page_size=1', { token: adminToken })).body.data.items[0]!;
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByRole('row').nth(1).getByRole('cell').first().filter({ hasText: String(latest.seq) }).waitFor();
    await page.getByRole('textbox', { name: 'Action' }).fill('session.');
    // The list follows the filter once it has settled (typing is debounced).
    let actions: string[] = [];
    for (let i = 0; i < 50; i++) {
      actions = await table.getByRole('row').locator('td:nth-child(3)').allTextContents();
      if (actions.length > 0 && actions.every((a) => a.startsWith('session.'))) break;
      await page.waitForTimeout(100);
    }
    assert.ok(actions.length > 0 && actions.every((a) => a.startsWith('session.')), actions.join(','));
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByText('Chain intact').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    assert.match(file.suggestedFilename(), /^cirrus-audit-\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8').split('\r\n');
    assert.equal(csv[0], 'seq,at,actor_id,ip,user_agent,instance,action,target_type,target_id,detail,hash');
    assert.ok(csv.slice(1, -1).every((line) => /^\d+,[^,]+,[^,]*,[^,]*,.*,session\./.test(line)), 'the export has the filter of the page');
    await page.getByRole('textbox', { name: 'Keep audit rows for (days)' }).fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').first().waitFor();
    assert.equal((await api.get<{ audit_retention_days: number }>('/api/v4/admin/settings', { token: adminToken })).body.data.audit_retention_days, 90);
    await screenshot(page, 'admin-audit-filtered');
    await context.close();
  });

  it('every dashboard page has no serious or critical axe-core violation, at desktop and phone sizes', async () => {
    const pages: [string, string][] = [
      ['overview', '/admin'],
      ['users', '/admin/users'],
      ['groups', '/admin/groups'],
      ['apps', '/admin/apps'],
      ['app', `/admin/apps/${firstApp.id}`],
      ['new-app', '/admin/apps/new'],
      ['shares', '/admin/shares'],
      ['audit', '/admin/audit'],
      ['settings', '/admin/settings'],
    ];
    for (const [device, size] of [[{ viewport: { width: 1280, height: 800 } }, 'desktop'], [PHONE, 'phone']] as const) {
      const { page, context } = await openPage(browser, device);
      await asUser(page, adminPair);
      for (const [name, path] of pages) {
        await page.goto(server.url + path);
        await page.locator('main h1').first().waitFor();
        await networkQuiet(page);
        const problems = await axeProblems(page);
        assert.deepEqual(problems, [], `${name} at ${size}`);
        await screenshot(page, `admin-${name}-${size}`);
      }
      // The refusal dialog too, in Chinese: its longer sentence must fit and keep its names.
      await page.evaluate(() => localStorage.setItem('cirrus.lang', 'zh-CN'));
      await page.goto(server.url + '/admin/groups');
      await page.getByRole('button', { name: '编辑 Administrators' }).click();
      await page.getByRole('dialog').getByRole('checkbox', { name: '管理员组' }).uncheck();
      await page.getByRole('dialog').getByRole('button', { name: '保存' }).click();
      await page.getByRole('dialog').getByText(/最后的在用管理员/).waitFor();
      assert.deepEqual(await axeProblems(page), [], `the groups refusal dialog in Chinese at ${size}`);
      await screenshot(page, `admin-groups-refusal-zh-${size}`);
      await page.goto(server.url + '/admin/audit');
      await page.getByRole('heading', { level: 1, name: '审计日志' }).waitFor();
      await page.getByRole('table', { name: '审计日志' }).waitFor();
      assert.deepEqual(await axeProblems(page), [], `the audit log in Chinese at ${size}`);
      await screenshot(page, `admin-audit-zh-${size}`);
      await context.close();
    }
  });
});
