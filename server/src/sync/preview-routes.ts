// Previews as the Nextcloud apps ask for them (api-contract §14):
//   GET /index.php/core/preview?fileId=<n>&x=&y=&a=&mode=&forceIcon=   (Android, desktop, iOS)
//   GET /index.php/core/preview.png?file=<path>&x=&y=&a=                (older clients)
// with the credentials of /remote.php/. They serve the thumbnails of the web
// app (files/thumbnails.ts) after the same checks: the item is one the
// person reaches (own, team folder, shared with them) and inside the folder
// the account is limited to. Nextcloud's answers: 400 for a zero or
// unreadable size, 404 when the item is unknown, not the caller's, or has no
// preview (a folder, another type, none made yet: the apps then show the
// type's icon and ask again later). The image is WebP, which every client decodes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';
import { DavError } from '../webdav/errors.js';
import { sendDavError, type DavRouteDeps } from '../webdav/routes.js';
import { treePath } from '../webdav/paths.js';
import type { DavPrincipal } from '../webdav/auth.js';
import type { Thumbnails } from '../files/thumbnails.js';
import { toDomainError } from '../http/error-handler.js';
import type { SyncService } from './service.js';

export const PREVIEW_ROUTE = '/index.php/core/preview';
export const PREVIEW_PNG_ROUTE = '/index.php/core/preview.png';
/** Nextcloud's default edge when x or y is left out. */
const DEFAULT_EDGE = 32;
const MAX_EDGE = 4096;

type Query = Record<string, string | string[] | undefined>;

function one(query: Query, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** x or y: a positive whole number (Nextcloud refuses 0 and what is no number with 400). */
function edge(query: Query, name: string): number {
  const raw = one(query, name);
  if (raw === undefined || raw === '') return DEFAULT_EDGE;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) === 0) throw new DavError(400, `${name} must be a positive whole number`);
  return Math.min(Number(raw), MAX_EDGE);
}

/** Whether an If-None-Match header names this ETag (RFC 9110 §13.1.2: weak comparison, a list, or *). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** The path inside the person's tree of `file` (relative to the account's folder, as clients send it); null for one that leaves it. */
function pathOfFile(principal: DavPrincipal, file: string): string | null {
  const names = file.split('/').filter((n) => n !== '');
  if (names.some((n) => n === '.' || n === '..' || n.includes('\0'))) return null;
  return treePath(principal.root, names);
}

function within(root: string, path: string): boolean {
  return root === '/' || path === root || path.startsWith(`${root}/`);
}

export function syncPreviewRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService, thumbs: Pick<Thumbnails, 'get'>): void {
  const notFound = () => new DavError(404, 'No preview for this item');

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const query = request.query as Query;
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, false, { method: request.method, url: request.url, proof: request.headers.dpop });
    const principal = { ...who, root: await dav.files.anchoredPath(who.userId, who.root) };
    sync.seen(principal, request.headers['user-agent']);
    const size = Math.max(edge(query, 'x'), edge(query, 'y'));
    let path: string | null = null;
    const fileId = one(query, 'fileId');
    const file = one(query, 'file');
    if (request.routeOptions.url === PREVIEW_ROUTE && fileId !== undefined) {
      const id = await sync.fileNumbers.fileOf(fileId);
      // Not reachable by this person (another's, deleted, unknown) is as unknown as no item.
      const entry = id ? await dav.files.getById(principal.userId, id).catch(() => null) : null;
      path = entry ? entry.path : null;
    } else if (file !== undefined && file !== '') {
      path = pathOfFile(principal, file);
    } else throw new DavError(400, request.routeOptions.url === PREVIEW_ROUTE ? 'fileId or file is needed' : 'file is needed');
    if (path === null || !within(principal.root, path)) throw notFound();
    let thumb: Awaited<ReturnType<Thumbnails['get']>>;
    try {
      thumb = await thumbs.get(principal.userId, path, size);
    } catch (err) {
      // A folder, another type, an unreadable or oversized picture: no preview, as Nextcloud says it.
      const domain = toDomainError(err);
      if (domain.kind === 'internal' || domain.kind === 'unavailable') throw err;
      throw notFound();
    }
    // Being made (media/): the apps do not wait on 202; they show the icon and ask again.
    if ('pending' in thumb) throw new DavError(404, 'The preview is being made', undefined, { 'Retry-After': String(thumb.retryAfterSeconds), 'Cache-Control': 'no-store' });
    reply.headers(USER_CONTENT_HEADERS).header('ETag', thumb.etag).header('Cache-Control', 'private, max-age=86400');
    if (matches(request.headers['if-none-match'], thumb.etag)) return reply.code(304).send();
    reply.type('image/webp');
    return request.method === 'HEAD' ? reply.header('Content-Length', String(thumb.body.length)).send() : reply.send(thumb.body);
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => sendDavError(request, reply, err));
    for (const url of [PREVIEW_ROUTE, PREVIEW_PNG_ROUTE]) scope.route({ method: ['GET', 'HEAD'], url, config: { auth: 'none' }, schema: { hide: true }, exposeHeadRoute: false, handler });
  });
}
