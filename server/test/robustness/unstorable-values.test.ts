// Values no column can hold (api-contract §1): NUL characters in any string
// and integers beyond their column are refused at the boundary with 400 and
// the field's name (or the RFC 6749 §5.2 error at the token endpoints),
// never a 500 from PostgreSQL. The review's cases, one by one; the fuzz test
// covers the rest of the routes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, createUser, signIn, type ApiResponse, type Envelope } from '../helpers/client.js';

const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

function assertNamed(res: ApiResponse<Envelope>, field: string): void {
  assert.equal(res.status, 400, `${field}: ${res.status} ${res.text.slice(0, 200)}`);
  assert.equal(res.body.code, 40001);
  assert.equal(res.body.data, null);
  assert.match(res.body.msg, new RegExp(`^${field}\\b`), `the message names ${field}: ${res.body.msg}`);
}

describe('values the database cannot store are refused at the boundary', () => {
  let server: InjectedServer;
  let api: Api;
  let admin: string;
  let aliceId: string;
  let alice: string;

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const a = await createUser(api, admin, 'nul-alice@example.com');
    aliceId = a.user.id;
    alice = a.token.access_token;
  });
  after(() => server.close());

  it('RFC 6749 §5.2: NUL in client_id at the token and introspection endpoints is invalid_request', async () => {
    for (const path of ['/api/v4/session/oauth/token', '/api/v4/session/oauth/introspect', '/api/v4/session/oauth/revoke']) {
      const res = await api.raw('POST', path, {
        body: 'grant_type=authorization_code&client_id=abc%00def&code=x&token=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      const body = res.body as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_request', path);
      assert.match(body.error_description, /^client_id\b/, path);
    }
  });

  it('RFC 6749 §2.3.1: NUL in Basic client credentials is invalid_client, not a database error', async () => {
    const basic = Buffer.from('abc\u0000def:secret').toString('base64');
    const res = await api.raw('POST', '/api/v4/session/oauth/token', {
      body: 'grant_type=authorization_code&code=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    assert.equal(res.status, 401, res.text);
    assert.equal((res.body as { error: string }).error, 'invalid_client');
    const encoded = Buffer.from('abc%00def:secret').toString('base64');
    const res2 = await api.raw('POST', '/api/v4/session/oauth/introspect', {
      body: 'token=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${encoded}` },
    });
    assert.equal(res2.status, 401, res2.text);
  });

  it('RFC 7617 §2: NUL in WebDAV Basic credentials is 401, not a database error', async () => {
    for (const pair of ['a\u0000b@example.com:secret-password', 'nul-alice@example.com:pass\u0000word']) {
      const res = await server.fetch(`/dav/`, { method: 'PROPFIND', headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}`, depth: '0' } });
      assert.equal(res.status, 401, `${JSON.stringify(pair)}: ${await res.text()}`);
    }
  });

  it('NUL in client_id at the authorization endpoint, the app lookup and grant revocation', async () => {
    const authorize = await api.call('GET', '/session/authorize?response_type=code&client_id=abc%00def&redirect_uri=https%3A%2F%2Fa.example%2Fcb&scope=openid');
    assertNamed(authorize, 'client_id');
    assertNamed(await api.call('GET', '/api/v4/session/oauth/app/abc%00', { token: alice }), 'client_id');
    assertNamed(await api.call('DELETE', '/api/v4/session/oauth/grant/%00', { token: alice }), 'client_id');
    assertNamed(await api.call('GET', '/api/v4/admin/oauthClient/a%00b', { token: admin }), 'id');
  });

  it('NUL in a JSON body field or key: the 2FA session_id, a sign-in e-mail, a key', async () => {
    assertNamed(await api.post('/api/v4/session/token/2fa', { session_id: 'abc\u0000def', otp: '123456' }), 'session_id');
    assertNamed(await api.post('/api/v4/session/token', { email: 'a\u0000@example.com', password: 'whatever-123' }), 'email');
    const key = await api.raw('POST', '/api/v4/session/token', { body: '{"\\u0000":1,"email":"a@example.com","password":"x"}', headers: { 'content-type': 'application/json' } });
    assert.equal(key.status, 400, key.text);
    assert.match((key.body as Envelope).msg, /NUL/);
  });

  it('crafted next_page_tokens holding NUL are "not a token from this listing"', async () => {
    const root = await api.get<{ parent: { id: string } }>('/api/v4/file?path=/', { token: alice });
    assert.equal(root.status, 200, root.text);
    const folderId = root.body.data.parent.id;
    const files = await api.get(`/api/v4/file?path=/&next_page_token=${b64u(JSON.stringify([folderId, 1, 'a\u0000']))}`, { token: alice });
    assertNamed(files, 'next_page_token');
    assertNamed(await api.get(`/api/v4/file/trash?next_page_token=${b64u(JSON.stringify([1, 'a\u0000']))}`, { token: alice }), 'next_page_token');
    assertNamed(await api.get(`/api/v4/share?next_page_token=${b64u(JSON.stringify([1, 'a\u0000']))}`, { token: alice }), 'next_page_token');
  });

  it('integers beyond their column: group_id >= 2^31, storage_quota >= 2^63, default_group_id', async () => {
    assertNamed(await api.put('/api/v4/admin/user', { email: 'big@example.com', password: 'user-password-123', group_id: 2 ** 31 }, { token: admin }), 'group_id');
    assertNamed(await api.put(`/api/v4/admin/user/${aliceId}`, { group_id: 2 ** 31 }, { token: admin }), 'group_id');
    assertNamed(await api.put(`/api/v4/admin/user/${aliceId}`, { storage_quota: 2 ** 63 }, { token: admin }), 'storage_quota');
    assertNamed(await api.patch('/api/v4/admin/settings', { default_group_id: 2 ** 31 }, { token: admin }), 'default_group_id');
    // In bounds but unknown: the ordinary answer, not a schema error.
    const unknown = await api.put(`/api/v4/admin/user/${aliceId}`, { group_id: 2 ** 31 - 1 }, { token: admin });
    assert.ok(unknown.status === 400 || unknown.status === 404, `${unknown.status} ${unknown.text}`);
    const ok = await api.put(`/api/v4/admin/user/${aliceId}`, { storage_quota: 2 ** 40 }, { token: admin });
    assert.equal(ok.status, 200, ok.text);
  });
});
