// Cross-origin access for browser apps (issue 11; policy in docs/security.md,
// "Cross-origin requests (CORS)"; headers in docs/api.md). A route's policy:
//
// - 'public': discovery documents and the JWKS. Anyone may read them
//   (`Access-Control-Allow-Origin: *`); they hold nothing private.
// - 'client': the token and revocation endpoints. Only an origin of a
//   registered redirect URI of the client the request names (client_id in the
//   form, or the Basic user name); of any enabled client when it names none.
// - 'registered': userinfo and every Bearer-authenticated /api/v4 route (the
//   default for those). Only an origin of a registered redirect URI of some
//   enabled client; the token itself decides what the request may do.
// - false: no CORS headers at all (introspection, which is for resource
//   servers, not browsers; first-party-only routes, which no app token may
//   use; every route without a token).
//
// Never `Access-Control-Allow-Credentials`: Cirrus authenticates API calls
// with the Authorization header, and a cross-origin page must never ride on
// anything the browser attaches by itself. Origins are compared exactly
// (scheme, host, port): the any-port rule of RFC 8252 §7.3 is for native apps
// receiving redirects, not for web origins.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isFirstPartyOnly } from './auth.js';

export type CorsPolicy = 'public' | 'client' | 'registered';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Unset: 'registered' for token-authenticated /api/v4 routes, none otherwise. */
    cors?: CorsPolicy | false;
  }
}

/** Where the allowed origins come from (the OAuth feature's registered clients). */
export interface CorsOrigins {
  /** Origins of the registered redirect URIs of every enabled client. */
  registered(): Promise<ReadonlySet<string>>;
  /** Those of one enabled client; empty for an unknown or disabled one. */
  ofClient(clientId: string): Promise<ReadonlySet<string>>;
}

const API_REQUEST_HEADERS = [
  'Authorization', 'DPoP', 'Content-Type', 'Range', 'If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'If-Range',
  // tus 1.0 (resumable uploads, /api/v4/file/upload)
  'Tus-Resumable', 'Upload-Length', 'Upload-Offset', 'Upload-Metadata', 'Upload-Defer-Length', 'Upload-Concat',
].join(', ');
const API_EXPOSED_HEADERS = [
  'WWW-Authenticate', 'DPoP-Nonce', 'Retry-After', 'Content-Disposition', 'Content-Range', 'Accept-Ranges', 'ETag', 'Location',
  'Tus-Resumable', 'Tus-Version', 'Tus-Extension', 'Tus-Max-Size', 'Upload-Offset', 'Upload-Length', 'Upload-Metadata', 'Upload-Expires',
].join(', ');
// DPoP (RFC 9449 §4.1, §8): browser apps send proofs and read server nonces.
const CLIENT_REQUEST_HEADERS = 'Authorization, Content-Type, DPoP';
const CLIENT_EXPOSED_HEADERS = 'WWW-Authenticate, Retry-After, DPoP-Nonce';
/** How long a browser may reuse a preflight answer. Actual answers are checked every time. */
const PREFLIGHT_MAX_AGE = '600';

function policyOf(config: FastifyContextConfig, url: string): CorsPolicy | false {
  if (config.cors !== undefined) return config.cors;
  if (!url.startsWith('/api/v4/') || (config.auth ?? 'required') === 'none' || isFirstPartyOnly(config)) return false;
  return 'registered';
}

function addVaryOrigin(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const values = current === undefined ? [] : String(current).split(',').map((v) => v.trim()).filter(Boolean);
  if (!values.some((v) => v.toLowerCase() === 'origin' || v === '*')) values.push('Origin');
  reply.header('Vary', values.join(', '));
}

/** A Fastify URL pattern as a regular expression over request paths. */
function patternRegExp(url: string): RegExp {
  let source = '';
  for (const part of url.split(/(:[A-Za-z0-9_]+|\*)/)) {
    if (part === '*') source += '.*';
    else if (part.startsWith(':')) source += '[^/]+';
    else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The client a token or revocation request names: Basic user name first, else client_id in the form. */
function namedClient(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined && /^Basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    }
  }
  const body = request.body;
  if (body instanceof Map) {
    const values = body.get('client_id') as unknown;
    if (Array.isArray(values) && typeof values[0] === 'string') return values[0];
  }
  return undefined;
}

export function registerCors(app: FastifyInstance, origins: CorsOrigins): void {
  /** Routes with a policy, for preflights (which are routed to no handler of theirs). */
  const table: { pattern: RegExp; method: string; policy: CorsPolicy }[] = [];

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    const policy = policyOf(config, route.url);
    if (policy === false) return;
    const pattern = patternRegExp(route.url);
    for (const method of [route.method].flat()) if (method !== 'OPTIONS') table.push({ pattern, method, policy });
  });

  const allowed = async (policy: CorsPolicy, origin: string, client?: string): Promise<boolean> => {
    if (policy === 'public') return true;
    if (policy === 'client' && client !== undefined) return (await origins.ofClient(client)).has(origin);
    return (await origins.registered()).has(origin);
  };

  // Preflight (Fetch standard, "CORS protocol"): answered before the route's own
  // hooks, since a browser sends it without the Authorization header.
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (request.method === 'OPTIONS') {
      const wanted = request.headers['access-control-request-method'];
      if (typeof wanted !== 'string') return;
      const path = request.url.split('?')[0]!;
      const matches = table.filter((r) => r.pattern.test(path));
      const target = matches.find((r) => r.method === wanted);
      // Not a route with a policy: the route's own OPTIONS (tus, WebDAV) or a 404 answers.
      if (!target) return;
      if (target.policy !== 'public') addVaryOrigin(reply);
      if (await allowed(target.policy, origin)) {
        const methods = [...new Set(matches.filter((r) => r.policy === target.policy).map((r) => r.method))];
        reply
          .header('Access-Control-Allow-Origin', target.policy === 'public' ? '*' : origin)
          .header('Access-Control-Allow-Methods', methods.join(', '))
          .header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
        // Public documents are read with safelisted headers only; nothing else is offered.
        if (target.policy !== 'public') reply.header('Access-Control-Allow-Headers', target.policy === 'registered' ? API_REQUEST_HEADERS : CLIENT_REQUEST_HEADERS);
      }
      return reply.code(204).header('Cache-Control', 'no-store').send();
    }
    const policy = policyOf(request.routeOptions.config, request.routeOptions.url ?? '');
    if (policy === false) return;
    if (policy === 'public') {
      reply.header('Access-Control-Allow-Origin', '*');
      return;
    }
    addVaryOrigin(reply);
    // The client of a token request is in its body, read later (preHandler below).
    if (policy === 'registered' && (await allowed(policy, origin))) {
      reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Expose-Headers', API_EXPOSED_HEADERS);
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || policyOf(request.routeOptions.config, request.routeOptions.url ?? '') !== 'client') return;
    if (await allowed('client', origin, namedClient(request))) {
      reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Expose-Headers', CLIENT_EXPOSED_HEADERS);
    }
  });
}
