// The headers every answer carries, whatever sent it: routes, errors (the
// envelope, the OAuth error bodies, 404 and framework errors), the docs page
// and its assets, the web app, WebDAV, metrics (issue 19). A route may set its
// own value first (pages set a wider CSP, user content a sandbox); only what
// is missing is added, in one onSend hook registered before every route.
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * No MIME sniffing (an answer is only what its Content-Type says), no
 * Referer leaking a URL that may hold a signed link or a share id, and, for
 * answers that set no policy of their own (JSON, XML, errors), a CSP under
 * which a browser that opens the answer runs and embeds nothing and no page
 * frames it.
 */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/**
 * What every answer that carries a user's bytes (file content, signed links,
 * share downloads, WebDAV GET, thumbnails, avatars) sets instead of the
 * baseline CSP: a sandbox, so that even opened as a page it has an opaque
 * origin and runs nothing, and no sniffing (issue 19).
 */
export const USER_CONTENT_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
};

/** The same as raw header lines, for answers written on the socket (http/client-errors.ts). */
export function baselineHeaderLines(): string {
  return Object.entries(BASELINE_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

function addBaseline(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(BASELINE_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
}

export function registerBaselineHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    addBaseline(reply);
    done(null, payload);
  });
}
