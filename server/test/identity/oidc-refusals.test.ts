// What the callback refuses (api-contract §15), with a provider of our own
// whose token endpoint hands out the id_token each test forges: every defect
// of OpenID Connect Core 1.0 §3.1.3.7 gets a clear refusal and no session.
// And a provider that does not answer stalls only the request that waits for it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/harness.js';
import { Api, signIn } from '../helpers/client.js';
import { Browser, startFakeIdp, type FakeIdp } from './upstreams.js';

const CLIENT_ID = 'cirrus-fake';
let server: TestServer;
let api: Api;
let admin: string;
let idp: FakeIdp;
let providerId: string;

before(async () => {
  server = await startServer();
  api = new Api(server);
  admin = (await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
  idp = await startFakeIdp(CLIENT_ID);
  const res = await api.put<{ id: string }>(
    '/api/v4/admin/identity-providers',
    { type: 'oidc', name: 'Forger', issuer: idp.issuer, client_id: CLIENT_ID, client_secret: 'fake-secret', create_accounts: true },
    { token: admin },
  );
  assert.equal(res.status, 200, res.text);
  providerId = res.body.data.id;
});

after(async () => {
  await idp?.close();
  await server?.close();
});

/** One round trip with the id_token `forge` makes from a correct one's claims; the page the browser lands on. */
async function roundTrip(forge: (good: Record<string, unknown>) => Promise<string>): Promise<URL> {
  const original = idp.forge;
  idp.forge = forge;
  try {
    const { url } = await new Browser().follow(`${server.url}/api/v4/session/sso/${providerId}`, (u) => u.origin === server.url && u.pathname === '/session/sso');
    return url;
  } finally {
    idp.forge = original;
  }
}

function assertRefused(landed: URL, reason: RegExp): void {
  assert.equal(landed.searchParams.get('code'), null, 'no one-time code, so no session');
  assert.match(landed.searchParams.get('error') ?? '', reason);
}

describe('OpenID Connect Core 1.0 §3.1.3.7: the id_token is verified in full', () => {
  test('a correct id_token signs in (the control case)', async () => {
    const landed = await roundTrip((good) => idp.sign(good));
    const code = landed.searchParams.get('code');
    assert.ok(code, landed.toString());
    const res = await api.post<{ user: { email: string } }>('/api/v4/session/sso/exchange', { code });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.user.email, 'fake@example.org');
  });

  test('§3.1.3.7 step 3: a wrong aud is refused', async () => {
    assertRefused(await roundTrip((good) => idp.sign({ ...good, aud: 'another-client' })), /aud/);
  });

  test('§3.1.3.7 step 2: a wrong iss is refused', async () => {
    assertRefused(await roundTrip((good) => idp.sign({ ...good, iss: 'https://evil.example' })), /iss/);
  });

  test('§3.1.3.7 step 9: an expired token is refused', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    assertRefused(await roundTrip((good) => idp.sign({ ...good, iat: past - 300, exp: past })), /exp/);
  });

  test('§3.1.3.7 step 11: a wrong nonce is refused', async () => {
    assertRefused(await roundTrip((good) => idp.sign({ ...good, nonce: 'not-the-one-sent' })), /nonce/);
  });

  test('a missing nonce is refused', async () => {
    assertRefused(await roundTrip((good) => idp.sign({ ...good, nonce: undefined })), /nonce/);
  });

  test('§3.1.3.7 step 7: alg none is refused even though the provider advertises it', async () => {
    const unsigned = async (good: Record<string, unknown>) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(good)).toString('base64url')}.`;
    assertRefused(await roundTrip(unsigned), /alg|JWS|JWT/i);
  });

  test('§3.1.3.7 step 6: a token signed by a key not in the JWKS is refused', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = (good: Record<string, unknown>) => new SignJWT(good).setProtectedHeader({ alg: 'RS256', kid: 'fake-1' }).sign(privateKey);
    assertRefused(await roundTrip(foreign), /signature|verif/i);
  });

  test('a token with an unknown kid is refused (the JWKS is read again at most once a minute)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const unknownKid = (good: Record<string, unknown>) => new SignJWT(good).setProtectedHeader({ alg: 'RS256', kid: 'rotated-away' }).sign(privateKey);
    assertRefused(await roundTrip(unknownKid), /key/i);
  });

  test('an HS256 token keyed with the client secret is refused (asymmetric algorithms only)', async () => {
    const hs = (good: Record<string, unknown>) => new SignJWT(good).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('fake-secret'));
    assertRefused(await roundTrip(hs), /alg/i);
  });
});

describe('a slow or unreachable provider', () => {
  test('stalls only the sign-in that waits for it, which ends in a refusal within the timeout', async () => {
    // A changed provider is discovered again: the stall applies from discovery on.
    await api.patch(`/api/v4/admin/identity-providers/${providerId}`, { name: 'Forger (slow)' }, { token: admin });
    idp.stallMs = 60_000;
    try {
      const started = Date.now();
      const pending = api.raw('GET', `/api/v4/session/sso/${providerId}`, { headers: { accept: 'application/json' } });
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      const ping = await api.get('/api/v4/site/ping');
      assert.equal(ping.status, 200);
      assert.ok(Date.now() - t0 < 1000, 'other requests are answered meanwhile');
      const res = await pending;
      const waited = Date.now() - started;
      assert.ok(res.status >= 400 && res.status < 500, `a refusal, not ${res.status}`);
      assert.match((res.body as { msg: string }).msg, /did not answer|cannot be reached/);
      assert.ok(waited < 15_000, `answered after ${waited} ms`);
    } finally {
      idp.stallMs = 0;
    }
  });
});
