// Unit tests of oauth/authorization-request.ts: the one validator of an
// authorization request (RFC 6749 §4.1.1, §4.1.2.1, §3.1; RFC 7636 §4.3;
// OIDC Core §3.1.2.1; api-contract §5), with an in-memory client lookup.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '../../src/oauth/clients.js';
import { MAX_STATE_LENGTH, checkAuthorizationRequest, errorLocation, type AuthorizationCheck } from '../../src/oauth/authorization-request.js';
import { paramsFromObject, paramsFromQuery } from '../../src/oauth/params.js';
import { s256 } from '../../src/oauth/pkce.js';

const ISSUER = 'https://cirrus.example';
const CHALLENGE = s256('v'.repeat(43));

function client(overrides: Partial<Client> = {}): Client {
  return {
    id: '6f1c3a52-1f0e-4a57-9a53-2b8a3e0c4d11',
    name: 'App',
    icon: 'cloud',
    homepageUrl: null,
    description: '',
    redirectUris: ['https://app.example/cb', 'https://app.example/cb2?tenant=a', 'http://127.0.0.1/native'],
    scopes: ['openid', 'profile', 'offline_access', 'Files.Write', 'UserInfo.Read'],
    secretHash: 'hash',
    isPublic: false,
    isEnabled: true,
    refreshTokenTtl: null,
    grantTypes: ['authorization_code', 'refresh_token'],
    requirePar: false,
    requireDpop: false,
    postLogoutRedirectUris: [],
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

const CONFIDENTIAL = client();
const PUBLIC = client({ id: '0b6f6e0e-8f4e-4d0c-9a0e-5d3f7c2b1a99', isPublic: true, secretHash: null });

/** The lookup the routes give the validator: enabled clients by id; records each call. */
function lookup(...clients: Client[]) {
  const calls: string[] = [];
  const find = async (id: string) => {
    calls.push(id);
    return clients.find((c) => c.id === id && c.isEnabled);
  };
  return { find, calls };
}

const VALID: Record<string, string> = {
  response_type: 'code',
  client_id: CONFIDENTIAL.id,
  redirect_uri: 'https://app.example/cb',
  scope: 'openid Files.Read',
  state: 'st-1',
};

const query = (params: Record<string, string | string[] | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  }
  return q.toString();
};

async function check(params: Record<string, string | string[] | undefined>, clients: Client[] = [CONFIDENTIAL, PUBLIC]): Promise<AuthorizationCheck> {
  return checkAuthorizationRequest(paramsFromQuery(query(params)), lookup(...clients).find, ISSUER);
}

/** The query of an error answer's redirect. */
function redirected(result: AuthorizationCheck): URLSearchParams {
  assert.equal(result.kind, 'error', JSON.stringify(result));
  return new URL((result as { location: string }).location).searchParams;
}

function assertError(result: AuthorizationCheck, error: string, description: RegExp, state: string | null = 'st-1'): URLSearchParams {
  const params = redirected(result);
  assert.equal(params.get('error'), error);
  assert.match(params.get('error_description') ?? '', description);
  assert.equal(params.get('state'), state);
  assert.equal(params.get('iss'), ISSUER, 'RFC 9207: iss on every authorization response');
  return params;
}

function assertInvalid(result: AuthorizationCheck, message: RegExp): void {
  assert.equal(result.kind, 'invalid', JSON.stringify(result));
  assert.match((result as { message: string }).message, message);
}

describe('checkAuthorizationRequest: a valid request', () => {
  it('RFC 6749 §4.1.1: returns the client, the redirect URI, the scopes and the state', async () => {
    const result = await check(VALID);
    assert.equal(result.kind, 'valid');
    assert.deepEqual((result as Extract<AuthorizationCheck, { kind: 'valid' }>).request, {
      client: CONFIDENTIAL,
      redirectUri: 'https://app.example/cb',
      scopes: ['openid', 'Files.Read'],
      state: 'st-1',
      codeChallenge: null,
      nonce: null,
      prompt: [],
      pushed: null,
      dpopJkt: null,
    });
  });

  it('api-contract §5: state is optional, and returned unchanged when sent (up to 4096 characters)', async () => {
    const none = await check({ ...VALID, state: undefined });
    assert.equal(none.kind === 'valid' && none.request.state, undefined);
    const odd = 'a b+c&d=e/%ü'.repeat(10);
    const sent = await check({ ...VALID, state: odd });
    assert.equal(sent.kind === 'valid' && sent.request.state, odd);
    const max = await check({ ...VALID, state: 's'.repeat(MAX_STATE_LENGTH) });
    assert.equal(max.kind, 'valid');
  });

  it('RFC 7636 §4.3: a challenge with method S256 is kept; without a method it means S256 (api-contract §5)', async () => {
    for (const method of ['S256', undefined]) {
      const result = await check({ ...VALID, code_challenge: CHALLENGE, code_challenge_method: method });
      assert.equal(result.kind === 'valid' && result.request.codeChallenge, CHALLENGE, String(method));
    }
  });

  it('api-contract §5: a .Write grant of the client covers a .Read request, and duplicates collapse', async () => {
    const result = await check({ ...VALID, scope: 'Files.Read Files.Write  Files.Read openid' });
    assert.deepEqual(result.kind === 'valid' && result.request.scopes, ['Files.Read', 'Files.Write', 'openid']);
  });

  it('OIDC Core §3.1.2.1: nonce and prompt are kept; prompt=consent is supported', async () => {
    const result = await check({ ...VALID, nonce: 'n-0S6_WzA2Mj', prompt: 'consent' });
    assert.equal(result.kind, 'valid');
    if (result.kind === 'valid') {
      assert.equal(result.request.nonce, 'n-0S6_WzA2Mj');
      assert.deepEqual(result.request.prompt, ['consent']);
    }
  });

  it('a public client with PKCE is valid', async () => {
    const result = await check({ ...VALID, client_id: PUBLIC.id, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    assert.equal(result.kind, 'valid');
  });

  it('RFC 8252 §7.3: a loopback redirect URI with another port is the registered one', async () => {
    const result = await check({ ...VALID, redirect_uri: 'http://127.0.0.1:49152/native' });
    assert.equal(result.kind === 'valid' && result.request.redirectUri, 'http://127.0.0.1:49152/native');
  });

  it('RFC 6749 §3.1: unknown parameters are ignored, even repeated', async () => {
    const result = await check({ ...VALID, foo: ['1', '2'], ui_locales: 'de' });
    assert.equal(result.kind, 'valid');
  });

  it('RFC 6749 §3.1: an empty parameter counts as omitted', async () => {
    const result = await check({ ...VALID, nonce: '', prompt: '' });
    assert.equal(result.kind, 'valid');
    const required = await check({ ...VALID, response_type: '' });
    assertError(required, 'invalid_request', /^response_type: is required$/);
  });

  it('the consent API path (a JSON body through paramsFromObject) gets the same answer', async () => {
    const result = await checkAuthorizationRequest(paramsFromObject({ ...VALID, extra: 3 }), lookup(CONFIDENTIAL).find, ISSUER);
    assert.equal(result.kind, 'valid');
  });
});

describe('checkAuthorizationRequest: client_id and redirect_uri first (RFC 6749 §4.1.2.1: never redirect)', () => {
  it('a missing client_id is an error page', async () => {
    assertInvalid(await check({ ...VALID, client_id: undefined }), /^client_id: is required$/);
  });

  it('a repeated client_id is an error page', async () => {
    assertInvalid(await check({ ...VALID, client_id: [CONFIDENTIAL.id, CONFIDENTIAL.id] }), /^client_id: must be sent once$/);
  });

  it('an unknown or disabled client is an error page', async () => {
    assertInvalid(await check({ ...VALID, client_id: '00000000-0000-0000-0000-000000000000' }), /no such application, or it is disabled/);
    assertInvalid(await check(VALID, [client({ isEnabled: false })]), /no such application/);
  });

  it('an over-long client_id is refused without a lookup', async () => {
    const l = lookup(CONFIDENTIAL);
    const result = await checkAuthorizationRequest(paramsFromQuery(query({ ...VALID, client_id: 'x'.repeat(129) })), l.find, ISSUER);
    assertInvalid(result, /no such application/);
    assert.deepEqual(l.calls, []);
    await checkAuthorizationRequest(paramsFromQuery(query({ ...VALID, client_id: 'x'.repeat(128) })), l.find, ISSUER);
    assert.deepEqual(l.calls, ['x'.repeat(128)]);
  });

  it('a missing, repeated or unregistered redirect_uri is an error page', async () => {
    assertInvalid(await check({ ...VALID, redirect_uri: undefined }), /^redirect_uri: is required$/);
    assertInvalid(await check({ ...VALID, redirect_uri: ['https://app.example/cb', 'https://app.example/cb'] }), /^redirect_uri: must be sent once$/);
    for (const uri of ['https://evil.example/cb', 'https://app.example/cb/', 'https://app.example/cb?x=1', 'https://app.example/cb2', 'http://127.0.0.1:8080/other']) {
      assertInvalid(await check({ ...VALID, redirect_uri: uri }), /^redirect_uri: is not registered for this application$/);
    }
  });

  it('every other problem together with a bad redirect_uri still gives the page, never a redirect', async () => {
    const result = await check({ client_id: CONFIDENTIAL.id, redirect_uri: 'https://evil.example/cb', response_type: 'token', scope: '"', state: ['a', 'b'] });
    assertInvalid(result, /redirect_uri/);
  });
});

describe('checkAuthorizationRequest: errors redirected to the client (RFC 6749 §4.1.2.1)', () => {
  it('the redirect keeps the registered query and carries error, error_description, state and iss', async () => {
    const result = await check({ ...VALID, redirect_uri: 'https://app.example/cb2?tenant=a', response_type: 'token' });
    assert.equal(result.kind, 'error');
    const location = (result as { location: string }).location;
    assert.ok(location.startsWith('https://app.example/cb2?tenant=a&'), location);
    const params = assertError(result, 'unsupported_response_type', /only code/);
    assert.equal(params.get('tenant'), 'a');
    assert.equal(params.has('code'), false);
  });

  it('§3.1: a defined parameter sent twice is invalid_request', async () => {
    for (const name of ['response_type', 'scope', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'response_mode']) {
      const value = VALID[name] ?? (name === 'code_challenge' ? CHALLENGE : name === 'code_challenge_method' ? 'S256' : name === 'prompt' ? 'consent' : name === 'response_mode' ? 'query' : 'x');
      assertError(await check({ ...VALID, [name]: [value, value] }), 'invalid_request', new RegExp(`^${name}: must not be sent more than once$`));
    }
  });

  it('a repeated state is refused, and no state is echoed (which one would it be?)', async () => {
    assertError(await check({ ...VALID, state: ['a', 'b'] }), 'invalid_request', /^state: must not be sent more than once$/, null);
  });

  it('a state over 4096 characters is refused and not echoed', async () => {
    assertError(await check({ ...VALID, state: 's'.repeat(MAX_STATE_LENGTH + 1) }), 'invalid_request', /^state: must be at most 4096 characters$/, null);
  });

  it('OIDC Core §6: request and request_uri are not supported', async () => {
    assertError(await check({ ...VALID, request: 'eyJ...' }), 'request_not_supported', /request objects/);
    assertError(await check({ ...VALID, request_uri: 'https://app.example/r' }), 'request_uri_not_supported', /request_uri/);
  });

  it('§4.1.1: response_type is required and must be code', async () => {
    assertError(await check({ ...VALID, response_type: undefined }), 'invalid_request', /^response_type: is required$/);
    for (const rt of ['token', 'code id_token', 'id_token', 'CODE', 'code ']) {
      assertError(await check({ ...VALID, response_type: rt }), 'unsupported_response_type', /only code/, 'st-1');
    }
  });

  it('OAuth 2.0 Multiple Response Types §2.1: only response_mode=query', async () => {
    assert.equal((await check({ ...VALID, response_mode: 'query' })).kind, 'valid');
    for (const mode of ['fragment', 'form_post']) assertError(await check({ ...VALID, response_mode: mode }), 'invalid_request', /only query/);
  });

  it('§3.3: scope is required, well formed, known, and allowed for the client', async () => {
    assertError(await check({ ...VALID, scope: undefined }), 'invalid_scope', /^scope: is required$/);
    assertError(await check({ ...VALID, scope: '   ' }), 'invalid_scope', /^scope: is malformed$/);
    assertError(await check({ ...VALID, scope: 'openid "Files.Read"' }), 'invalid_scope', /^scope: is malformed$/);
    assertError(await check({ ...VALID, scope: 'openid files.read' }), 'invalid_scope', /^scope: files\.read is not a known scope$/);
    assertError(await check({ ...VALID, scope: 'openid Admin.Read' }), 'invalid_scope', /^scope: this application may not request Admin\.Read$/);
    assertError(await check({ ...VALID, scope: 'UserInfo.Write' }), 'invalid_scope', /may not request UserInfo\.Write/, 'st-1');
  });

  it('RFC 7636 §4.3: only S256; a method needs a challenge; a challenge must be 43 base64url characters', async () => {
    assertError(await check({ ...VALID, code_challenge: CHALLENGE, code_challenge_method: 'plain' }), 'invalid_request', /only S256/);
    assertError(await check({ ...VALID, code_challenge: CHALLENGE, code_challenge_method: 's256' }), 'invalid_request', /only S256/);
    assertError(await check({ ...VALID, code_challenge_method: 'S256' }), 'invalid_request', /^code_challenge: is required with code_challenge_method$/);
    for (const bad of [CHALLENGE.slice(1), CHALLENGE + 'A', CHALLENGE.slice(1) + '=', 'v'.repeat(43).replace('v', '+'), 'v'.repeat(128)]) {
      assertError(await check({ ...VALID, code_challenge: bad }), 'invalid_request', /code_challenge: must be a base64url SHA-256 value/, 'st-1');
    }
  });

  it('RFC 9700 §2.1.1 / api-contract §5: a public client must send a challenge', async () => {
    assertError(await check({ ...VALID, client_id: PUBLIC.id }), 'invalid_request', /public clients must use PKCE/);
  });

  it('nonce is at most 512 characters', async () => {
    assert.equal((await check({ ...VALID, nonce: 'n'.repeat(512) })).kind, 'valid');
    assertError(await check({ ...VALID, nonce: 'n'.repeat(513) }), 'invalid_request', /nonce: must be at most 512 characters/);
  });

  it('OIDC Core §3.1.2.1: prompt values are none or consent; none stands alone', async () => {
    assertError(await check({ ...VALID, prompt: 'login' }), 'invalid_request', /^prompt: login is not supported$/);
    assertError(await check({ ...VALID, prompt: 'consent select_account' }), 'invalid_request', /select_account is not supported/);
    assertError(await check({ ...VALID, prompt: 'none consent' }), 'invalid_request', /none cannot be combined/);
    const none = await check({ ...VALID, prompt: 'none' });
    assert.deepEqual(none.kind === 'valid' && none.request.prompt, ['none']);
  });

  it('the order of the checks: response_type before scope before PKCE', async () => {
    const result = await check({ ...VALID, client_id: PUBLIC.id, response_type: 'token', scope: 'bogus', code_challenge_method: 'plain' });
    assertError(result, 'unsupported_response_type', /only code/);
    const scopeFirst = await check({ ...VALID, client_id: PUBLIC.id, scope: 'bogus', code_challenge_method: 'plain' });
    assertError(scopeFirst, 'invalid_scope', /bogus/);
  });
});

describe('errorLocation', () => {
  it('builds the error redirect and leaves out an undefined state', () => {
    assert.equal(
      errorLocation('https://app.example/cb', ISSUER, 'access_denied', 'the user said no', undefined),
      'https://app.example/cb?error=access_denied&error_description=the+user+said+no&iss=https%3A%2F%2Fcirrus.example',
    );
    assert.equal(
      errorLocation('https://app.example/cb?a=1', ISSUER, 'invalid_request', 'x', 's'),
      'https://app.example/cb?a=1&error=invalid_request&error_description=x&state=s&iss=https%3A%2F%2Fcirrus.example',
    );
  });
});
