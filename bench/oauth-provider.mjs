// oidc-provider 9 in a process of its own for bench/oauth.mjs, configured as
// close to Cirrus's authorization server as it allows (see docs/benchmarks.md,
// "OAuth token endpoint vs oidc-provider"). Started with fork(): it answers
// {type:'ready', url} once listening, then mints authorization codes on
// request ({type:'mint', n}) so that no code is minted inside a timed window.
// `storage` picks its adapter: {kind:'memory'}, {kind:'sqlite', file} or
// {kind:'postgres', url} (bench/oauth-provider-adapters.mjs).
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';
// The default in-memory adapter, given a larger store: the default one is an
// LRU of 1,000 entries, which would evict the codes minted before a window.
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import { postgresAdapter, sqliteAdapter } from './oauth-provider-adapters.mjs';

const { port, clientId, clientSecret, redirectUri, accountId, codeChallenge, nonce, scope, storage = { kind: 'memory' } } = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;

// Cirrus signs id_tokens with ES256 (server/src/oauth/id-tokens.ts): so does this side.
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: 'bench-es256' };

const store = new LRU({ maxSize: 2_000_000 });
const durable = storage.kind === 'sqlite' ? sqliteAdapter(storage.file) : storage.kind === 'postgres' ? await postgresAdapter(storage.url) : null;

const provider = new Provider(issuer, {
  adapter: durable ? durable.Adapter : (model) => new MemoryAdapter(model, store, 0),
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'ES256',
    },
  ],
  jwks: { keys: [jwk] },
  // Cirrus looks the user up on every exchange and refresh; the account here is a constant.
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  scopes: ['openid', 'offline_access'],
  claims: { openid: ['sub'] },
  pkce: { required: () => true },
  rotateRefreshToken: true,
  issueRefreshToken: async (_ctx, client, source) => client.grantTypeAllowed('refresh_token') && source.scopes.has('offline_access'),
  // Cirrus's defaults: access 1 h, refresh 90 days, codes 5 min.
  ttl: { AccessToken: 3600, IdToken: 3600, AuthorizationCode: 300, RefreshToken: 90 * 86400, Grant: 90 * 86400 },
  // DPoP (RFC 9449) needs no switch in oidc-provider 9: it is always on (the DPoP refresh case of bench/oauth.mjs).
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['bench-cookie-key-not-secret-0123456789'] },
});
// Errors are counted by the load generator; stay quiet like Cirrus at CIRRUS_LOG_LEVEL=warn.
provider.on('server_error', (_ctx, err) => console.error('oidc-provider server_error', err));

const client = await provider.Client.find(clientId);

/** One authorization as the authorization endpoint would record it: a Grant and its code. */
async function mintCode() {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const code = new provider.AuthorizationCode({
    accountId,
    client,
    grantId,
    scope,
    redirectUri,
    codeChallenge,
    codeChallengeMethod: 'S256',
    nonce,
    authTime: Math.floor(Date.now() / 1000),
    expiresWithSession: false,
  });
  return code.save();
}

const server = http.createServer(provider.callback());
server.listen(port, '127.0.0.1', () => process.send({ type: 'ready', url: issuer }));

process.on('message', async (msg) => {
  if (msg.type === 'mint') {
    // A few at a time, as concurrent authorizations would be (Cirrus's are minted 8 at a time too).
    const codes = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (codes.length < msg.n) {
          const i = codes.push(null) - 1;
          codes[i] = await mintCode();
        }
      }),
    );
    process.send({ type: 'codes', id: msg.id, codes });
  } else if (msg.type === 'stop') {
    server.close(async () => {
      await durable?.close();
      process.exit(0);
    });
    server.closeAllConnections();
  }
});
