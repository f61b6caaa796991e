// The one auth guard. Every route declares `config.auth` ('none' | 'required'
// | 'optional'; a route that declares nothing is 'required') and may declare
// `config.scopes` (checked for OAuth tokens; first-party tokens are unscoped)
// and `config.firstPartyOnly` (tokens obtained through OAuth are refused).
// A route that takes a token but declares no scope is first-party-only: an
// OAuth token reaches only what a scope was declared for (issue 19).
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode } from '../core/errors.js';
import { HttpError } from './errors.js';
import { missingScopes } from '../core/scopes.js';
import { InvalidToken, type AuthContext, type SignInMethod, type TokenVerifier } from '../core/identity.js';
import { boundKey, dpopChallenge, DpopRefusal, type ResourceProofCheck } from '../core/dpop.js';

export type AuthMode = 'none' | 'required' | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    scopes?: string[];
    firstPartyOnly?: boolean;
    admin?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** How a sign-in route proved the person (the audit log records it); set by the route that signed someone in. */
    signInMethod?: SignInMethod;
  }
}

const REALM = 'Bearer realm="cirrus"';

/**
 * Whether OAuth application tokens are refused on a route: it says so, or it
 * takes a token and declares no scope (so a route added without one is closed
 * to applications, never open to every scope).
 */
export function isFirstPartyOnly(config: FastifyContextConfig): boolean {
  if ((config.auth ?? 'required') === 'none') return false;
  return config.firstPartyOnly === true || !config.scopes?.length;
}

function loginRequired(): HttpError {
  return new HttpError(ErrorCode.LoginRequired, 'Login required', { 'WWW-Authenticate': REALM });
}

function invalidToken(description: string): HttpError {
  const safe = description.replace(/["\\]/g, '');
  return new HttpError(ErrorCode.LoginRequired, 'Invalid or expired access token', {
    'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${safe}"`,
  });
}

/** RFC 9449 §7.1: 401 with a DPoP challenge (and the nonce to use, §9). */
function dpopRefused(refusal: DpopRefusal): HttpError {
  const headers: Record<string, string> = { 'WWW-Authenticate': dpopChallenge(refusal) };
  if (refusal.nonce !== undefined) headers['DPoP-Nonce'] = refusal.nonce;
  return new HttpError(ErrorCode.LoginRequired, 'Invalid DPoP-bound access token or proof', headers);
}

/** RFC 6750 §3.1: insufficient_scope, 403, naming the scope needed. */
export function insufficientScope(scopes: string[]): HttpError {
  return new HttpError(ErrorCode.InsufficientScope, `This token lacks the scope ${scopes.join(' ')}`, {
    'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${scopes.join(' ')}"`,
  });
}

/** For checks that depend on the request (not expressible in route config). */
export function requireScopes(request: FastifyRequest, ...scopes: string[]): AuthContext {
  const auth = request.auth;
  if (!auth) throw loginRequired();
  const missing = missingScopes(auth.scopes, scopes);
  if (missing.length) throw insufficientScope(missing);
  return auth;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw loginRequired();
  return request.auth;
}

/**
 * Attaches the guard to each route as it is registered, according to its
 * declared config; routes with `auth: 'none'` get no hook at all.
 * `proofs` checks DPoP proofs (RFC 9449 §7): without it the DPoP scheme is
 * refused like any unknown one.
 */
export function registerAuthGuard(app: FastifyInstance, verifier: TokenVerifier, proofs?: ResourceProofCheck): void {
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    const mode: AuthMode = config.auth ?? 'required';
    if (mode === 'none') return;
    const firstPartyOnly = isFirstPartyOnly(config);
    const admit = (request: FastifyRequest, auth: AuthContext): void => {
      request.auth = auth;
      if (firstPartyOnly && auth.clientId !== null) {
        throw new DomainError(ErrorCode.Forbidden, 'This operation needs a first-party sign-in, not an application token');
      }
      if (config.scopes?.length) requireScopes(request, ...config.scopes);
      if (config.admin && !auth.user.isAdmin) throw new DomainError(ErrorCode.Forbidden, 'Administrators only');
    };
    const refuse = (err: unknown): Error => (err instanceof InvalidToken ? invalidToken(err.message) : err instanceof DpopRefusal ? dpopRefused(err) : (err as Error));
    /** §7.1: a DPoP-bound token with a proof of its key, for this method and URL, hashing this token. */
    const viaDpop = async (request: FastifyRequest, token: string): Promise<AuthContext> => {
      let auth: AuthContext;
      try {
        auth = await verifier.check(token);
      } catch (err) {
        throw err instanceof InvalidToken ? new DpopRefusal('invalid_token', err.message) : err;
      }
      const jkt = boundKey(auth.claims);
      if (jkt === null) throw new DpopRefusal('invalid_token', 'this access token is not DPoP-bound: send it as Bearer');
      await proofs!.checkResource({ method: request.method, url: request.url, proof: request.headers.dpop, token, jkt });
      return auth;
    };
    // Callback style, not async: when the verifier answers from memory (the
    // usual case) the request goes on in the same tick, without a promise and
    // its microtasks per request (the user/me hot path, docs/benchmarks.md).
    /** Admits a verified token and finishes the hook, with admit()'s refusal if it has one. */
    const admitted = (request: FastifyRequest, auth: AuthContext, done: (err?: Error) => void): void => {
      try {
        admit(request, auth);
      } catch (err) {
        return done(err as Error);
      }
      done();
    };
    const guard = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
      const header = request.headers.authorization;
      if (header === undefined) return done(mode === 'required' ? loginRequired() : undefined);
      const match = BEARER.exec(header);
      if (!match) {
        const dpop = proofs ? DPOP.exec(header) : null;
        if (!dpop) return done(invalidToken('malformed Authorization header'));
        viaDpop(request, dpop[1]!).then(
          (auth) => admitted(request, auth, done),
          (err: unknown) => done(refuse(err)),
        );
        return;
      }
      let verified: AuthContext | Promise<AuthContext>;
      try {
        verified = verifier.check(match[1]!);
      } catch (err) {
        return done(refuse(err));
      }
      if (!(verified instanceof Promise)) {
        // §7.2 of RFC 9449: a DPoP-bound token is no bearer token (one property read on the hot path).
        if (verified.claims.cnf !== undefined) return done(boundAsBearer());
        return admitted(request, verified, done);
      }
      verified.then(
        (auth) => {
          if (auth.claims.cnf !== undefined) return done(boundAsBearer());
          admitted(request, auth, done);
        },
        (err: unknown) => done(refuse(err)),
      );
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [guard] : [guard, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)\s*$/i;
const DPOP = /^DPoP +([A-Za-z0-9._~+/=-]+)\s*$/i;

const boundAsBearer = (): HttpError => dpopRefused(new DpopRefusal('invalid_token', 'this access token is DPoP-bound: send it with the DPoP scheme and a proof'));
