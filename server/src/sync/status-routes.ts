// /status.php (api-contract §14): the first thing every client asks. The
// version is one current Nextcloud clients accept (they refuse old servers).
import type { FastifyInstance } from 'fastify';
import { NEXTCLOUD_VERSION, type SyncService } from './service.js';

export function statusRoutes(app: FastifyInstance, sync: SyncService): void {
  const answer = async () => ({
    installed: true,
    maintenance: false,
    needsDbUpgrade: false,
    version: NEXTCLOUD_VERSION.join('.'),
    versionstring: NEXTCLOUD_VERSION.slice(0, 3).join('.'),
    edition: '',
    productname: await sync.siteName(),
    extendedSupport: false,
  });
  for (const url of ['/status.php', '/owncloud/status.php']) {
    app.get(url, { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => reply.header('Cache-Control', 'no-store').send(await answer()));
  }
}
