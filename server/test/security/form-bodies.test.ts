// Issue 19, defect 6: the JSON API parses JSON only. A form
// (`application/x-www-form-urlencoded`, `multipart/form-data`) or `text/plain`
// body is what another site can send without a CORS preflight (Fetch
// standard, "CORS-safelisted request-header" Content-Type), so it is refused
// with 415 and the envelope everywhere except where a standard defines the
// body as a form. The walk reads the OpenAPI document: a route added later is
// covered, and a new form endpoint must be added to FORM_ENDPOINTS with the
// section of its RFC.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startInjectedServer, type InjectedServer } from '../helpers/inject.js';
import { Api, signIn } from '../helpers/client.js';
import { concretePath, describe_, operations, type Operation } from './openapi-walk.js';

/** Endpoints whose request body a standard defines as application/x-www-form-urlencoded. */
const FORM_ENDPOINTS: Record<string, string> = {
  'POST /api/v4/session/oauth/token': 'RFC 6749 §4.1.3, §6',
  'POST /api/v4/session/oauth/revoke': 'RFC 7009 §2.1',
  'POST /api/v4/session/oauth/introspect': 'RFC 7662 §2.1',
  'POST /api/v4/session/oauth/device_authorization': 'RFC 8628 §3.1',
  'POST /api/v4/session/oauth/par': 'RFC 9126 §2.1',
  'POST /api/v4/session/sso/{id}/backchannel-logout': 'OpenID Connect Back-Channel Logout 1.0 §2.5',
};

/** The CORS-simple media types (Fetch standard §3.2.3), each with a body a lenient parser would accept. */
const SIMPLE_BODIES: [string, string][] = [
  ['application/x-www-form-urlencoded', 'email=admin%40example.com&password=x&nickname=n&path=%2Fx&name=n'],
  ['multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nadmin@example.com\r\n--XyZ--\r\n'],
  ['text/plain', '{"email":"admin@example.com","password":"x"}'],
];

/** A body of bytes in any media type (file content): bytes are stored, never parsed. */
function takesAnyBytes(op: Operation): boolean {
  return op.bodyTypes.includes('*/*');
}

describe('issue 19 #6: only JSON reaches the JSON API; forms only where an RFC says so', () => {
  let server: InjectedServer;
  let api: Api;
  let token: string;
  let ops: Operation[];

  before(async () => {
    server = await startInjectedServer();
    api = new Api(server);
    token = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    ops = (await operations(api)).filter((op) => !['GET', 'HEAD', 'OPTIONS'].includes(op.method));
  });
  after(() => server.close());

  it('every operation that can carry a body answers 415/40001 to a form, multipart or text/plain body (except the RFC form endpoints)', async () => {
    let checked = 0;
    for (const op of ops) {
      const key = describe_(op);
      if (takesAnyBytes(op)) continue;
      for (const [type, body] of SIMPLE_BODIES) {
        if (FORM_ENDPOINTS[key] && type === 'application/x-www-form-urlencoded') continue;
        const res = await api.raw(op.method, concretePath(op), { token, body, headers: { 'content-type': type } });
        const what = `${key} with ${type}: ${res.status} ${res.text.slice(0, 200)}`;
        if (FORM_ENDPOINTS[key]) {
          // RFC 6749 §5.2: these endpoints answer in their own format, invalid_request (400).
          assert.equal(res.status, 400, what);
          assert.equal((res.body as { error?: string }).error, 'invalid_request', what);
        } else {
          assert.equal(res.status, 415, what);
          assert.equal((res.body as { code?: number }).code, 40001, what);
        }
        checked++;
      }
    }
    assert.ok(checked > 100, `checked ${checked}`);
  });

  it('a form posted to POST /api/v4/session/token does not sign in', async () => {
    const res = await api.raw('POST', '/api/v4/session/token', { form: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    assert.equal(res.status, 415, res.text);
    assert.equal((res.body as { code: number }).code, 40001);
    assert.doesNotMatch(res.text, /access_token/);
  });

  it('the allow-list is real: each RFC form endpoint still parses its form (RFC 6749 §4.1.3)', async () => {
    for (const key of Object.keys(FORM_ENDPOINTS)) {
      const op = ops.find((o) => describe_(o) === key);
      assert.ok(op, `${key} is in the document`);
      assert.ok(op.bodyTypes.includes('application/x-www-form-urlencoded'), `${key} documents its form body`);
      const res = await api.raw(op.method, op.path, { form: { grant_type: 'authorization_code', token: 'x', client_id: 'nobody' } });
      assert.notEqual(res.status, 415, `${key}: ${res.text}`);
      assert.ok((res.body as { error?: string; active?: boolean }).error !== undefined || res.status === 200, `${key}: ${res.text}`);
    }
  });

  it('the document says so: no operation outside the allow-list documents a form or multipart body', () => {
    for (const op of ops) {
      const forms = op.bodyTypes.filter((t) => t === 'application/x-www-form-urlencoded' || t.startsWith('multipart/') || t === 'text/plain');
      if (!FORM_ENDPOINTS[describe_(op)]) assert.deepEqual(forms, [], `${describe_(op)} documents ${forms.join(', ')}; add it to FORM_ENDPOINTS with its RFC section if a standard defines it`);
    }
  });
});
