// What every HTML page the server sends carries (the web app's index and the
// authorization page's redirects), shared by web.ts and the OAuth routes.
import type { FastifyReply } from 'fastify';

/**
 * The pages' Content-Security-Policy: only our own resources. Images may also
 * be `blob:` URLs the app makes itself (file thumbnails fetched with the
 * token, the picture being cropped into an avatar), `data:` URLs, https: (the
 * icons OAuth apps register), and `extraImg` (the map tile origin an
 * administrator set, which may be plain http on a local network).
 */
export function pageCsp(extraImg: readonly string[] = []): string {
  const img = ["'self'", 'data:', 'blob:', 'https:', ...extraImg].join(' ');
  return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src ${img}; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/** Headers of every HTML page: no framing, no referrer, the policy above. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': pageCsp(),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** Sends the single-page app's HTML with PAGE_HEADERS (a 404 envelope when the web app is not built). */
export type PageSender = (reply: FastifyReply, status?: number) => Promise<FastifyReply>;

