// The /dav/ mount (api-contract §8): one Fastify scope whose content-type
// parser hands every body through unread (PUT streams it; XML methods read
// at most 1 MiB), whose error handler speaks WebDAV (status + text, or a
// DAV:error body) instead of the API envelope, and one route per URL shape
// that authenticates, then dispatches on the method.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Readable } from 'node:stream';
import { toDomainError } from '../http/error-handler.js';
import { DavError, fromAppError } from './errors.js';
import { DavContext } from './context.js';
import type { DavAuthenticator } from './auth.js';
import type { LockService } from './locks.js';
import type { DavRepository } from './repository.js';
import type { FilesService } from '../files/service.js';
import type { UploadService } from '../files/uploads.js';
import type { DavAccountService } from './accounts.js';
import { MOUNT } from './paths.js';
import { propfind, proppatch } from './properties.js';
import { copyOrMove, get, mkcol, put, remove } from './methods.js';
import { lock, unlock } from './lock-methods.js';
import { covering } from './locks.js';
import { MAX_XML_BYTES, errorBody } from './xml.js';

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;
// SEARCH (sync/dav-search.ts, on /remote.php/dav/ only) reads too.
const READS = new Set(['GET', 'HEAD', 'PROPFIND', 'OPTIONS', 'SEARCH']);
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

export async function readXmlBody(source: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > MAX_XML_BYTES) throw new DavError(413, `XML bodies are limited to ${MAX_XML_BYTES} bytes`, undefined, { Connection: 'close' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendDavError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  let dav: DavError;
  if (err instanceof DavError) dav = err;
  else {
    const domain = toDomainError(err);
    if (domain.kind === 'internal' || domain.kind === 'unavailable') request.log.error({ err: domain.detail ?? domain.message }, 'WebDAV request failed');
    dav = fromAppError(domain);
    // 5xx details stay in the log.
    if (dav.status >= 500 && dav.status !== 507) dav = new DavError(dav.status, 'Internal server error');
  }
  for (const [name, value] of Object.entries(dav.headers)) reply.header(name, value);
  reply.code(dav.status);
  if (request.method === 'HEAD') return reply.send();
  if (dav.condition) return reply.type('application/xml; charset=utf-8').send(errorBody(dav.condition));
  return reply.type('text/plain; charset=utf-8').send(`${dav.message}\n`);
}

/** What the routes use (module.ts's Dav provides it). */
export interface DavRouteDeps {
  auth: DavAuthenticator;
  repo: DavRepository;
  locks: LockService;
  files: FilesService;
  uploads: UploadService;
  /** Notes which client used which account (Settings → WebDAV shows it). */
  accounts: Pick<DavAccountService, 'seen'>;
}

/** Registers the methods and one WebDAV scope (unread bodies, WebDAV errors) serving `urls` with `handler`. */
/** `onRequest`: a route hook run before the handler (the sync mount's early 100 Continue). */
export function davScope(
  app: FastifyInstance,
  urls: readonly string[],
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
  methods: readonly string[] = [],
  onRequest?: onRequestHookHandler,
): void {
  for (const method of [...DAV_METHODS, ...methods]) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.setErrorHandler((err, request, reply) => sendDavError(request, reply, err));
    const all = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', ...DAV_METHODS, ...methods];
    for (const url of urls) scope.route({ method: all, url, config: { auth: 'none' }, exposeHeadRoute: false, handler, ...(onRequest ? { onRequest } : {}) });
  });
}

/** Whether a method only reads. */
export function isRead(method: string): boolean {
  return READS.has(method);
}

/** OPTIONS without credentials (Windows' Mini-Redirector probes so first of all). */
export function options(reply: FastifyReply, allow = ALLOW): FastifyReply {
  return reply.code(200).header('Allow', allow).header('Content-Length', '0').send();
}

/** The checks every request makes once it is authenticated: read-only accounts and view-only shares refuse writes; the account's folder exists. */
export async function admit(ctx: DavContext, dav: DavRouteDeps): Promise<void> {
  const write = !READS.has(ctx.request.method);
  if (write && ctx.principal.readonly) throw new DavError(403, 'This WebDAV account is read-only');
  // A folder shared with this person to view only refuses every change, properties and locks included.
  if (write) await dav.files.scope(ctx.userId, ctx.path, 'write');
  if (!(await ctx.rootExists())) throw new DavError(404, "The account's folder no longer exists");
}

/** One authenticated, admitted request, by method. */
export async function dispatch(ctx: DavContext, dav: DavRouteDeps, reply: FastifyReply): Promise<FastifyReply> {
  const request = ctx.request;
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      return get(ctx, reply);
    case 'PROPFIND': {
      const stream = await propfind(ctx, dav.repo, await readXmlBody(request.raw));
      return reply.code(207).type('application/xml; charset=utf-8').send(stream);
    }
    case 'PROPPATCH': {
      const body = await readXmlBody(request.raw);
      await ctx.checkIf();
      ctx.requireTokens(covering(await ctx.locks(), ctx.path));
      return reply.code(207).type('application/xml; charset=utf-8').send(await proppatch(ctx, dav.repo, body));
    }
    case 'PUT':
      return reply.code((await put(ctx, dav.uploads)).status).send();
    case 'MKCOL':
      return reply.code(await mkcol(ctx)).send();
    case 'DELETE':
      return reply.code(await remove(ctx)).send();
    case 'COPY':
    case 'MOVE':
      return reply.code(await copyOrMove(ctx, dav.repo, request.method === 'COPY')).send();
    case 'LOCK':
      return lock(ctx, reply, await readXmlBody(request.raw));
    case 'UNLOCK':
      return reply.code(await unlock(ctx)).send();
    default:
      throw new DavError(405, 'Method not allowed', undefined, { Allow: ALLOW });
  }
}

export function davRoutes(app: FastifyInstance, dav: DavRouteDeps): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = request.method;
    reply.header('DAV', '1, 2');
    reply.header('MS-Author-Via', 'DAV');
    if (method === 'OPTIONS') return options(reply);
    const write = !READS.has(method);
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, write, { method, url: request.url, proof: request.headers.dpop });
    // A folder inside a shared item is stored by its grant: its path now.
    const principal = { ...who, root: await dav.files.anchoredPath(who.userId, who.root) };
    const ctx = new DavContext(request, principal, dav.files, dav.locks);
    await admit(ctx, dav);
    dav.accounts.seen(principal.accountId, request.headers['user-agent']);
    return dispatch(ctx, dav, reply);
  };
  davScope(app, [MOUNT, `${MOUNT}/*`], handler);
}
