// The audit log says how a person signed in (issue 34, api-contract §17): a
// Cirrus password is `password`; a directory's password through the same
// route is `ldap` with the directory's provider id; the OpenID Connect code
// exchange is `oidc` with the provider's id (it was not recorded at all
// before, and a directory sign-in read as `password`). Against a real slapd
// and oidc-provider, on SQLite or PostgreSQL (CIRRUS_TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { freePort } from '../../src/ops/free-port.js';
import { slapdSkip, startSlapd, type Slapd } from './slapd.js';
import { Browser, startOidcProvider, type OidcProviderHandle } from './upstreams.js';

interface Row {
  actor_id?: string;
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('audit: how a person signed in', { skip: slapdSkip }, () => {
  let server: TestServer;
  let api: Api;
  let admin: string;
  let adminId: string;
  let dir: Slapd;
  let idp: OidcProviderHandle;
  let ldapId: string;
  let oidcId: string;

  /** The sign-in rows for `userId` once the writer has put at least `count` there (it writes after the answer). */
  const signIns = async (userId: string, count = 1): Promise<Row[]> => {
    for (let i = 0; ; i++) {
      const res = await api.get<{ items: Row[] }>('/api/v4/admin/audit?action=session.sign_in', { token: admin });
      assert.equal(res.status, 200, res.text);
      const rows = res.body.data.items.filter((r) => r.target_id === userId);
      if (rows.length >= count || i > 100) return rows;
      await sleep(50);
    }
  };

  before(async () => {
    const idpPort = await freePort('127.0.0.1');
    [server, dir] = await Promise.all([startServer(), startSlapd({ people: [{ uid: 'ana', mail: 'ana@example.org', cn: 'Ana', password: 'ana-directory-pw' }], groups: [] })]);
    api = new Api(server.url);
    const signedIn = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
    admin = signedIn.token.access_token;
    adminId = signedIn.user.id;
    const ldap = await api.put<{ id: string }>(
      '/api/v4/admin/identity-providers',
      { type: 'ldap', name: 'Directory', url: dir.url, bind_dn: dir.rootDn, bind_password: dir.rootPassword, user_base: dir.peopleDn, user_filter: '(&(objectClass=inetOrgPerson)(uid={login}))', create_accounts: true },
      { token: admin },
    );
    assert.equal(ldap.status, 200, ldap.text);
    ldapId = ldap.body.data.id;
    const oidc = await api.put<{ id: string }>(
      '/api/v4/admin/identity-providers',
      { type: 'oidc', name: 'SSO', issuer: `http://127.0.0.1:${idpPort}`, client_id: 'audit-client', client_secret: 'audit-secret-31b7', create_accounts: true },
      { token: admin },
    );
    assert.equal(oidc.status, 200, oidc.text);
    oidcId = oidc.body.data.id;
    idp = await startOidcProvider({ port: idpPort, clientId: 'audit-client', clientSecret: 'audit-secret-31b7', redirectUri: `${server.url}/api/v4/session/sso/${oidcId}/callback` });
  });
  after(async () => {
    await idp?.close();
    await server?.close();
    await dir?.close();
  });

  it('a Cirrus password is recorded as password', async () => {
    const rows = await signIns(adminId);
    assert.deepEqual(rows[0]!.detail, { method: 'password', email: ADMIN_EMAIL.toLowerCase() });
  });

  it("a directory's password is recorded as ldap, with the directory", async () => {
    const res = await api.post<{ user: { id: string } }>('/api/v4/session/token', { email: 'ana', password: 'ana-directory-pw' });
    assert.equal(res.status, 200, res.text);
    const rows = await signIns(res.body.data.user.id);
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.detail, { method: 'ldap', provider_id: ldapId, email: 'ana' });
    assert.equal(rows[0]!.actor_id, res.body.data.user.id);
  });

  it('an OpenID Connect sign-in is recorded as oidc, with the provider', async () => {
    idp.person = { sub: 'audit-person', email: 'audit-person@example.org', email_verified: true, name: 'Audit Person' };
    const { url } = await new Browser().follow(`${server.url}/api/v4/session/sso/${oidcId}?return_to=/files`, (u) => u.origin === server.url && u.pathname === '/session/sso');
    const code = url.searchParams.get('code');
    assert.ok(code, url.toString());
    const res = await api.post<{ user: { id: string } }>('/api/v4/session/sso/exchange', { code });
    assert.equal(res.status, 200, res.text);
    const rows = await signIns(res.body.data.user.id);
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.detail, { method: 'oidc', provider_id: oidcId });
    assert.equal(rows[0]!.actor_id, res.body.data.user.id);

    // A spent code is refused, and the refusal is recorded as an oidc one.
    const again = await api.post('/api/v4/session/sso/exchange', { code });
    assert.equal(again.status, 401, again.text);
    for (let i = 0; i < 100; i++) {
      const failed = await api.get<{ items: Row[] }>('/api/v4/admin/audit?action=session.sign_in_failed', { token: admin });
      const row = failed.body.data.items.find((r) => r.detail.method === 'oidc');
      if (row) {
        assert.equal(row.detail.code, again.body.code);
        return;
      }
      await sleep(50);
    }
    assert.fail('no failed oidc sign-in recorded');
  });
});
