// DPoP replay across instances (RFC 9449 §11.1, api-contract §12): two real
// instances on one PostgreSQL database and one Redis, behind one public URL;
// a proof accepted by one is refused by the other.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Api, createUser, signIn } from '../helpers/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/harness.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { instancesSkipReason, startInstances, type Instances } from '../helpers/instances.js';
import { REDIRECT_URI, pkcePair } from '../oauth/helpers.js';
import { HandKey, sha256 } from '../oauth/dpop-keys.js';

/** The one public URL both instances serve (CIRRUS_BASE_URL): proofs name it, whichever instance receives them. */
const PUBLIC_URL = 'https://cirrus.example';
const TOKEN_PATH = '/api/v4/session/oauth/token';
const USERINFO_PATH = '/api/v4/session/oauth/userinfo';

const skip = await instancesSkipReason();

describe('DPoP replay cache shared through Redis', { skip }, () => {
  let redis: TestRedis;
  let site: Instances;
  let a: Api;
  let b: Api;

  before(async () => {
    redis = await startRedis();
    site = await startInstances(2, { CIRRUS_REDIS_URL: redis.url, CIRRUS_BASE_URL: PUBLIC_URL });
    a = new Api(site.list[0]!.url);
    b = new Api(site.list[1]!.url);
  });
  after(async () => {
    await site?.close();
    await redis?.close();
  });

  it('RFC 9449 §11.1: a proof used at one instance is refused at the other, at the token endpoint and at a protected route', async () => {
    const admin = (await signIn(a, ADMIN_EMAIL, ADMIN_PASSWORD)).token.access_token;
    const created = await a.put<{ id: string; secret: string }>('/api/v4/admin/oauthClient', { client: { name: 'Two', icon: 'cloud', redirect_uris: [REDIRECT_URI], scopes: ['openid', 'UserInfo.Read'] } }, { token: admin });
    assert.equal(created.status, 200, created.text);
    const app = created.body.data;
    const user = await createUser(a, admin, `dpop-two-${process.pid}@example.com`);
    const code = async () => {
      const { verifier, challenge } = pkcePair();
      const decided = await a.post<{ redirect_uri: string }>('/api/v4/session/oauth/consent', { response_type: 'code', client_id: app.id, redirect_uri: REDIRECT_URI, scope: 'openid UserInfo.Read', code_challenge: challenge, code_challenge_method: 'S256' }, { token: user.token.access_token });
      assert.equal(decided.status, 200, decided.text);
      return { grant_type: 'authorization_code', code: new URL(decided.body.data.redirect_uri).searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: app.id, client_secret: app.secret };
    };
    const key = new HandKey();
    const tokenProof = key.proof({ htm: 'POST', htu: `${PUBLIC_URL}${TOKEN_PATH}` });
    const first = await a.raw('POST', TOKEN_PATH, { form: await code(), headers: { dpop: tokenProof } });
    assert.equal(first.status, 200, first.text);
    const replayed = await b.raw('POST', TOKEN_PATH, { form: await code(), headers: { dpop: tokenProof } });
    assert.equal(replayed.status, 400);
    assert.equal((replayed.body as { error: string }).error, 'invalid_dpop_proof');

    const token = (first.body as { access_token: string }).access_token;
    const proof = key.proof({ htm: 'GET', htu: `${PUBLIC_URL}${USERINFO_PATH}`, ath: sha256(token) });
    const headers = { authorization: `DPoP ${token}`, dpop: proof };
    assert.equal((await b.raw('GET', USERINFO_PATH, { headers })).status, 200);
    const again = await a.raw('GET', USERINFO_PATH, { headers });
    assert.equal(again.status, 401);
    assert.match(again.headers.get('www-authenticate') ?? '', /^DPoP error="invalid_dpop_proof"/);
  });
});
