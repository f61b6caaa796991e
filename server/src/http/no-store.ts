// Answers that carry a credential (tokens, one-time passwords, client or
// WebDAV secrets, TOTP secrets, authorization codes, signed URLs) must never
// be kept by a browser or a shared cache: RFC 6749 §5.1 requires
// `Cache-Control: no-store` and `Pragma: no-cache` at the token endpoint, and
// the same reasoning holds for every other route that hands one out
// (docs/security.md, "Caching of credentials"). A route opts in with
// `config.issuesCredentials`; the headers are set before the handler runs so
// that error answers of those routes carry them too.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    issuesCredentials?: boolean;
  }
}

export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!((route.config ?? {}) as FastifyContextConfig).issuesCredentials) return;
    const hook = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      noStore(reply);
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
