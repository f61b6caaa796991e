// The one auth guard. Every route declares `config.auth` ('none' | 'required'
// | 'optional'; a route that declares nothing is 'required') and may declare
// `config.scopes` (checked for OAuth tokens; first-party tokens are unscoped)
// and `config.firstPartyOnly` (tokens obtained through OAuth are refused).
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode } from '../core/errors.js';
import { HttpError } from './errors.js';
import { missingScopes } from '../core/scopes.js';
import { InvalidToken, type AuthContext, type TokenVerifier } from '../core/identity.js';

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
  }
}

const REALM = 'Bearer realm="cirrus"';

function loginRequired(): HttpError {
  return new HttpError(ErrorCode.LoginRequired, 'Login required', { 'WWW-Authenticate': REALM });
}

function invalidToken(description: string): HttpError {
  const safe = description.replace(/["\\]/g, '');
  return new HttpError(ErrorCode.LoginRequired, 'Invalid or expired access token', {
    'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${safe}"`,
  });
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
 */
export function registerAuthGuard(app: FastifyInstance, verifier: TokenVerifier): void {
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    const mode: AuthMode = config.auth ?? 'required';
    if (mode === 'none') return;
    const guard = async (request: FastifyRequest): Promise<void> => {
      const header = request.headers.authorization;
      if (header === undefined) {
        if (mode === 'required') throw loginRequired();
        return;
      }
      const match = BEARER.exec(header);
      if (!match) throw invalidToken('malformed Authorization header');
      try {
        request.auth = await verifier.verify(match[1]!);
      } catch (err) {
        if (err instanceof InvalidToken) throw invalidToken(err.message);
        throw err;
      }
      if (config.firstPartyOnly && request.auth.clientId !== null) {
        throw new DomainError(ErrorCode.Forbidden, 'This operation needs a first-party sign-in, not an application token');
      }
      if (config.scopes?.length) requireScopes(request, ...config.scopes);
      if (config.admin && !request.auth.user.isAdmin) throw new DomainError(ErrorCode.Forbidden, 'Administrators only');
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [guard] : [guard, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)\s*$/i;
