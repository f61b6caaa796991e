// Avatars as the Nextcloud apps ask for them (api-contract §14):
//   GET /index.php/avatar/<uid>/<size>        (desktop, Android, iOS)
//   GET /index.php/avatar/<uid>/<size>/dark   (the same picture: Cirrus keeps one)
// with the credentials of /remote.php/. The picture is the one set in the web
// app (accounts/avatars.ts), sent as a PNG of size × size: the desktop client
// decodes with Qt, which reads WebP only with an optional plugin. Anyone
// signed in may fetch anyone's avatar by uid, as /api/v4/user/avatar/<id>
// allows without signing in (a picture is what the person chose to show).
// Someone with no picture, or no one, is 404: the apps then draw the initials
// themselves, which is what Nextcloud's generated avatar would show.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { USER_CONTENT_HEADERS } from '../http/baseline-headers.js';
import { DavError } from '../webdav/errors.js';
import { sendDavError, type DavRouteDeps } from '../webdav/routes.js';
import type { SyncService } from './service.js';

/** The web app's avatars (accounts/avatars.ts): a 256-pixel picture, or a not-found error. */
export interface AvatarSource {
  get(userId: string): Promise<{ image: Buffer; updatedAt: number }>;
}

export const AVATAR_ROUTE = '/index.php/avatar/:uid/:size';
/** Nextcloud serves up to 1024; Cirrus keeps 256 pixels, so larger would only be blown up. */
const MAX_EDGE = 512;

export function syncAvatarRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService, avatars: AvatarSource): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, false, { method: request.method, url: request.url, proof: request.headers.dpop });
    sync.seen({ ...who, root: await dav.files.anchoredPath(who.userId, who.root) }, request.headers['user-agent']);
    const { uid, size: rawSize } = request.params as { uid: string; size: string };
    if (!/^\d{1,5}$/.test(rawSize) || Number(rawSize) === 0) throw new DavError(400, 'size must be a positive whole number');
    const size = Math.min(Number(rawSize), MAX_EDGE);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) throw new DavError(404, 'No avatar');
    // No picture, or no such person (or a banned one): the service's not-found, 404 through sendDavError.
    const found = await avatars.get(uid);
    const etag = `"avatar-${found.updatedAt}-${size}"`;
    reply.headers(USER_CONTENT_HEADERS).header('ETag', etag).header('Cache-Control', 'private, max-age=3600').header('X-NC-IsCustomAvatar', '1');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    // sharp (libvips, ~30 MB resident) is loaded with the first picture, not at start-up (the 200 MB peak target).
    const { default: sharp } = await import('sharp');
    const png = await sharp(found.image).resize(size, size).png().toBuffer();
    reply.type('image/png');
    return request.method === 'HEAD' ? reply.header('Content-Length', String(png.length)).send() : reply.send(png);
  };

  void app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => sendDavError(request, reply, err));
    for (const url of [AVATAR_ROUTE, `${AVATAR_ROUTE}/dark`]) scope.route({ method: ['GET', 'HEAD'], url, config: { auth: 'none' }, schema: { hide: true }, exposeHeadRoute: false, handler });
  });
}
