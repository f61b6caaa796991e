// Upstream identity providers for the identity tests: oidc-provider (a
// certified OpenID Provider) started in-process, a tiny provider of our own
// whose token endpoint hands out the id_token a test forges (to prove the
// callback refuses each defect), and a browser with a cookie jar that
// follows redirects the way Chromium does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { freePort } from '../../src/ops/free-port.js';

export interface Person {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

/** A browser: cookies per host (path-scoped, as the SSO cookie is), redirects followed by hand. */
export class Browser {
  private readonly jar = new Map<string, { value: string; path: string }>();
  readonly accept = 'text/html,application/xhtml+xml';

  cookieHeader(url: URL): string {
    return [...this.jar.entries()]
      .filter(([key, c]) => key.startsWith(`${url.host}|`) && url.pathname.startsWith(c.path))
      .map(([key, c]) => `${key.split('|')[1]}=${c.value}`)
      .join('; ');
  }

  store(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const pathAttr = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='));
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      const key = `${url.host}|${name}`;
      if (expired) this.jar.delete(key);
      else this.jar.set(key, { value, path: pathAttr ? pathAttr.slice(5) : '/' });
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    headers.set('accept', headers.get('accept') ?? this.accept);
    const cookie = this.cookieHeader(u);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(u, { ...init, headers, redirect: 'manual' });
    this.store(u, res);
    return res;
  }

  /** Follows redirects from `url` until `stop(url)` says so (or a non-redirect answer); returns the last URL and response. */
  async follow(url: string, stop: (u: URL) => boolean, init: RequestInit = {}): Promise<{ url: URL; res: Response | null }> {
    let current = new URL(url);
    let res: Response | null = null;
    for (let i = 0; i < 20; i++) {
      if (stop(current)) return { url: current, res };
      res = await this.request(current.toString(), i === 0 ? init : {});
      const loc = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !loc) return { url: current, res };
      await res.arrayBuffer();
      current = new URL(loc, current);
    }
    throw new Error('too many redirects');
  }
}

export interface OidcProviderHandle {
  issuer: string;
  /** Who signs in at the next interaction. */
  person: Person;
  privateKey: CryptoKey;
  kid: string;
  provider: Provider;
  close(): Promise<void>;
}

/**
 * oidc-provider on a loopback port (the interaction is ours, the protocol is the library's).
 * The person is signed in and consents at once; with `loginPrompt`, the provider first shows
 * a sign-in page of its own whenever it has no session, as a real provider does, so a test
 * can tell a silent sign-in from a fresh one. `postLogoutRedirectUri` registers where
 * RP-Initiated Logout may send the browser back to.
 */
export async function startOidcProvider(opts: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  backchannelUri?: string;
  port?: number;
  loginPrompt?: boolean;
  postLogoutRedirectUri?: string;
}): Promise<OidcProviderHandle> {
  const port = opts.port ?? (await freePort('127.0.0.1'));
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
  const handle = { issuer, person: { sub: 'nobody' } as Person, privateKey, kid: 'idp-key-1' } as OidcProviderHandle;
  const config: Configuration = {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        post_logout_redirect_uris: opts.postLogoutRedirectUri ? [opts.postLogoutRedirectUri] : [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
        ...(opts.backchannelUri ? { backchannel_logout_uri: opts.backchannelUri, backchannel_logout_session_required: true } : {}),
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // The library's own page, less its web font (the tests have no network beyond loopback).
        logoutSource: (ctx: { body: string }, form: string) => {
          ctx.body =
            `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign out</title></head><body><main><h1>Sign out of the upstream provider?</h1>${form}` +
            `<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>` +
            `<button type="submit" form="op.logoutForm">No, stay signed in</button></main></body></html>`;
        },
      },
    },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const p = handle.person;
      if (p.sub !== sub) return undefined;
      return { accountId: sub, claims: async () => ({ ...p }) };
    },
  };
  const provider = new Provider(issuer, config);
  handle.provider = provider;
  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (opts.loginPrompt && details.prompt.name === 'login' && req.method !== 'POST') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(
            `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Upstream sign-in</title></head>` +
              `<body><main><h1>Sign in to the upstream provider</h1><form method="post" action="/interaction/${details.uid}">` +
              `<button type="submit">Continue as ${handle.person.sub.replace(/[^\w@.-]/g, '')}</button></form></main></body></html>`,
          );
          return;
        }
        const accountId = handle.person.sub;
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    void callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  handle.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return handle;
}

/** A logout token as a provider signs it (Back-Channel Logout 1.0 §2.4). */
export async function logoutToken(key: CryptoKey, kid: string, claims: { iss: string; aud: string; sub?: string; sid?: string; events?: unknown; nonce?: string }, alg = 'RS256'): Promise<string> {
  return new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} }, ...claims })
    .setProtectedHeader({ alg, kid, typ: 'logout+jwt' })
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .sign(key);
}

export type Forgery = (claims: Record<string, unknown>) => Promise<string>;

export interface FakeIdp {
  issuer: string;
  /** Signs claims with the provider's own key (published in its JWKS). */
  sign: Forgery;
  /** Makes the id_token the token endpoint hands out, from the claims a correct one would have (default: sign). */
  forge: Forgery;
  privateKey: CryptoKey;
  /** When set, every request waits this long before any answer (a slow provider). */
  stallMs: number;
  close(): Promise<void>;
}

/**
 * A minimal provider: discovery, JWKS, an authorization endpoint that sends
 * the browser straight back with a code, and a token endpoint whose id_token
 * the test forges. It exists to prove what the callback refuses.
 */
export async function startFakeIdp(clientId: string): Promise<FakeIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'fake-1', alg: 'RS256', use: 'sig' };
  const pending = new Map<string, { nonce: string; challenge: string; redirect: string }>();
  const idp = { stallMs: 0, privateKey } as FakeIdp;
  idp.sign = async (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'fake-1' }).sign(privateKey);
  idp.forge = idp.sign;
  const server = http.createServer((req, res) => {
    void (async () => {
      // unref: a stalled answer must not keep the test process alive after the test.
      if (idp.stallMs > 0) await new Promise((r) => setTimeout(r, idp.stallMs).unref());
      const url = new URL(req.url ?? '/', idp.issuer);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(200, {
          issuer: idp.issuer,
          authorization_endpoint: `${idp.issuer}/authorize`,
          token_endpoint: `${idp.issuer}/token`,
          jwks_uri: `${idp.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          // A careless provider that advertises `none` too: the allow-list must still refuse it.
          id_token_signing_alg_values_supported: ['RS256', 'none'],
          code_challenge_methods_supported: ['S256'],
        });
      }
      if (url.pathname === '/jwks') return json(200, { keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid: jwk.kid, alg: jwk.alg, use: 'sig' }] });
      if (url.pathname === '/authorize') {
        const code = crypto.randomUUID();
        pending.set(code, { nonce: url.searchParams.get('nonce') ?? '', challenge: url.searchParams.get('code_challenge') ?? '', redirect: url.searchParams.get('redirect_uri') ?? '' });
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        let body = '';
        for await (const chunk of req) body += chunk;
        const form = new URLSearchParams(body);
        const p = pending.get(form.get('code') ?? '');
        if (!p) return json(400, { error: 'invalid_grant', error_description: 'unknown code' });
        pending.delete(form.get('code')!);
        const now = Math.floor(Date.now() / 1000);
        const good = { iss: idp.issuer, aud: clientId, sub: 'fake-person', email: 'fake@example.org', email_verified: true, iat: now, exp: now + 300, nonce: p.nonce };
        return json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: await idp.forge(good) });
      }
      json(404, { error: 'not_found' });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  const port = await freePort('127.0.0.1');
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  idp.issuer = `http://127.0.0.1:${port}`;
  idp.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return idp;
}

export function portOf(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}
