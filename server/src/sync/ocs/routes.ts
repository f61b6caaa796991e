// OCS routes the clients read (api-contract §14): cloud/capabilities,
// cloud/user and cloud/users/<id> (self), and the deletion of the app
// password a client signed in with. Any other OCS route answers as a
// disabled Nextcloud app does: 404 with statuscode 998.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toDomainError } from '../../http/error-handler.js';
import { DavError, fromAppError } from '../../webdav/errors.js';
import type { DavAuthenticator, DavPrincipal } from '../../webdav/auth.js';
import type { SyncService } from '../service.js';
import { capabilities } from './capabilities.js';
import { OCS_NOT_FOUND, OCS_UNAUTHORIZED, sendOcs } from './envelope.js';

const PREFIXES = ['/ocs/v1.php', '/ocs/v2.php'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

function ocsError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const dav = err instanceof DavError ? err : fromAppError(toDomainError(err));
  for (const [name, value] of Object.entries(dav.headers)) reply.header(name, value);
  if (dav.status === 401) return sendOcs(request, reply, [], OCS_UNAUTHORIZED);
  if (dav.status >= 500) {
    request.log.error({ err }, 'OCS request failed');
    return sendOcs(request, reply, [], { statuscode: 996, http: 500, message: 'Internal server error' });
  }
  return sendOcs(request, reply, [], { statuscode: dav.status === 404 ? 998 : dav.status, http: dav.status, message: dav.message });
}

export function ocsRoutes(app: FastifyInstance, auth: DavAuthenticator, sync: SyncService): void {
  const who = (request: FastifyRequest): Promise<DavPrincipal> =>
    auth.authenticate(request.headers.authorization, request.ip, request.method !== 'GET', { method: request.method, url: request.url, proof: request.headers.dpop });

  void app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => ocsError(request, reply, err));
    for (const prefix of PREFIXES) {
      scope.get(`${prefix}/cloud/capabilities`, { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
        return sendOcs(request, reply, await capabilities(sync));
      });
      const user = async (request: FastifyRequest, reply: FastifyReply, id?: string): Promise<FastifyReply> => {
        const principal = await who(request);
        // Only oneself: another person's id is as unknown as no one's.
        if (id !== undefined && id !== principal.userId) return sendOcs(request, reply, [], { statuscode: 404, http: 404, message: 'User does not exist' });
        const p = await sync.person(principal.userId);
        if (!p) return sendOcs(request, reply, [], OCS_UNAUTHORIZED);
        return sendOcs(request, reply, {
          enabled: true,
          id: p.id,
          'display-name': p.displayName,
          displayname: p.displayName,
          email: p.email,
          quota: { free: p.quota.free, used: p.quota.used, total: p.quota.total, relative: p.quota.relative, quota: p.quota.total },
        });
      };
      scope.get(`${prefix}/cloud/user`, { config: { auth: 'none' }, schema: { hide: true } }, (request, reply) => user(request, reply));
      scope.get<{ Params: { id: string } }>(`${prefix}/cloud/users/:id`, { config: { auth: 'none' }, schema: { hide: true } }, (request, reply) => user(request, reply, request.params.id));
      scope.delete(`${prefix}/core/apppassword`, { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
        const principal = await who(request);
        // Only an app password can delete itself; a token has none to delete.
        if (!(await sync.deleteAppPassword(principal))) return sendOcs(request, reply, [], { statuscode: 403, http: 403, message: 'Only an app password can be deleted this way' });
        return sendOcs(request, reply, []);
      });
      scope.route({ method: [...METHODS], url: `${prefix}/*`, config: { auth: 'none' }, schema: { hide: true }, handler: (request, reply) => sendOcs(request, reply, [], OCS_NOT_FOUND) });
    }
  });
}
