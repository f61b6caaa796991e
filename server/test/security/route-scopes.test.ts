// Issue 19, defect 5: every route that takes a token says which scope an
// OAuth token needs (its `x-cirrus-auth` in the OpenAPI document, and the
// `security` requirement's scope list), and the guard holds every OAuth
// token to it. A route that declares no scope refuses OAuth tokens. The walk
// reads the document, so a route added later is covered without touching
// this file. RFC 6750 §3.1: insufficient_scope is 403 (contract code 40089).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { approve, createApp, exchange, startOAuthServer, type OAuthTestContext } from '../oauth/helpers.js';
import { concretePath, describe_, operations, type Operation } from './openapi-walk.js';

/** The rule of api-contract §5, written out here independently of the server's: a `.Write` grant covers its `.Read`. */
function grants(scope: string, required: string): boolean {
  return scope === required || (required.endsWith('.Read') && scope === `${required.slice(0, -'.Read'.length)}.Write`);
}

describe('issue 19 #5: every route is held to its declared scope (RFC 6750 §3.1)', () => {
  let ctx: OAuthTestContext;
  let ops: Operation[];
  let scopes: string[];
  const tokens = new Map<string, string>();

  before(async () => {
    // Over a socket: an admitted change-feed stream never ends, and only a real connection can be let go after its headers.
    ctx = await startOAuthServer({ transport: 'socket' });
    ops = await operations(ctx.api);
    // The scopes the server knows, from its discovery document (RFC 8414 §2 scopes_supported).
    const discovery = await ctx.api.raw('GET', '/.well-known/oauth-authorization-server');
    scopes = (discovery.body as { scopes_supported: string[] }).scopes_supported;
    assert.ok(scopes.includes('Files.Read') && scopes.includes('Admin.Write'), discovery.text);
    // One app allowed every scope; one real token per single scope, through consent and the token endpoint.
    // The tokens belong to the administrator, so that admin routes are refused for their scope alone.
    const app = await createApp(ctx, { scopes });
    for (const scope of scopes) {
      const res = await exchange(ctx, app, await approve(ctx, ctx.adminToken, app, { scope }));
      assert.equal(res.status, 200, `${scope}: ${res.text}`);
      assert.equal(res.body.scope, scope);
      tokens.set(scope, res.body.access_token!);
    }
  });
  after(() => ctx.server.close());

  /**
   * Sends the operation with a token. Requests that may change something carry
   * a body of a media type nothing parses: the guard (onRequest) decides
   * before the body is read, and a request it admits stops at 415, so the
   * walk changes nothing whatever it reaches.
   */
  function probe(op: Operation, token: string) {
    const inert = op.method !== 'GET' && op.method !== 'HEAD' && op.method !== 'OPTIONS';
    return ctx.api.raw(op.method, concretePath(op), {
      token,
      ...(inert ? { body: '?', headers: { 'content-type': 'application/x-cirrus-probe' } } : {}),
    });
  }

  it('every operation that takes a token documents what it asks of OAuth tokens (x-cirrus-auth and security scopes)', () => {
    for (const op of ops) {
      assert.ok(op.auth, `${describe_(op)} has no x-cirrus-auth`);
      if (op.auth.mode === 'none') continue;
      // The guard closes an undeclared route to OAuth tokens, but each route must say what it wants.
      assert.ok(op.auth.declared, `${describe_(op)} declares neither config.scopes nor config.firstPartyOnly (http/auth.ts)`);
      assert.ok(op.auth.first_party_only || op.auth.scopes.length > 0, `${describe_(op)}: neither scopes nor first-party-only`);
      assert.deepEqual(op.security?.[0]?.bearer, op.auth.scopes, `${describe_(op)}: security lists the scopes`);
      for (const s of op.auth.scopes) assert.ok(scopes.includes(s), `${describe_(op)}: ${s} is not a scope the server offers`);
    }
  });

  it('every OAuth token of a single scope is refused (403) on every route its scope does not cover, and admitted where it does', async () => {
    let refused = 0;
    let admitted = 0;
    for (const op of ops) {
      if (!op.auth || op.auth.mode === 'none') continue;
      for (const scope of scopes) {
        const res = await probe(op, tokens.get(scope)!);
        const what = `${describe_(op)} with a ${scope} token: ${res.status} ${res.text.slice(0, 200)}`;
        // A HEAD answer has no body: its status and WWW-Authenticate speak for it.
        const body = op.method === 'HEAD' ? { code: res.status === 403 ? (/insufficient_scope/.test(res.headers.get('www-authenticate') ?? '') ? 40089 : 403) : 0 } : (res.body as { code?: number });
        assert.notEqual(res.status, 401, `the token is valid: ${what}`);
        if (op.auth.first_party_only) {
          assert.equal(res.status, 403, what);
          assert.equal(body.code, 403, what);
          refused++;
        } else if (op.auth.scopes.every((r) => grants(scope, r))) {
          assert.ok(!(res.status === 403 && (body.code === 40089 || body.code === 403)), `admitted: ${what}`);
          admitted++;
        } else {
          assert.equal(res.status, 403, what);
          assert.equal(body.code, 40089, what);
          assert.match(res.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="[^"]+"/, what);
          refused++;
        }
      }
    }
    assert.ok(refused > 500 && admitted > 20, `refused ${refused}, admitted ${admitted}`);
  });

  it('a first-party session token is never refused for scope on any route', async () => {
    for (const op of ops) {
      if (!op.auth || op.auth.mode === 'none') continue;
      const res = await probe(op, ctx.adminToken);
      const body = res.body as { code?: number };
      assert.ok(res.status !== 401 && !(res.status === 403 && body.code === 40089), `${describe_(op)}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  });

  it('PATCH /api/v4/user/setting {} with a Files.Read token is 403 and shows no profile', async () => {
    const res = await ctx.api.patch('/api/v4/user/setting', {}, { token: tokens.get('Files.Read')! });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 40089);
    assert.doesNotMatch(res.text, /admin@example\.com|is_admin/);
    const allowed = await ctx.api.patch('/api/v4/user/setting', {}, { token: tokens.get('UserInfo.Write')! });
    assert.equal(allowed.status, 200, allowed.text);
  });
});
