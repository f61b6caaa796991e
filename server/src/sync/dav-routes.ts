// The sync clients' WebDAV doors (api-contract §14): /remote.php/dav/files/<uid>/
// and the legacy /remote.php/webdav/, over the same WebDAV layer as /dav/
// (server/src/webdav), with the ownCloud headers: X-OC-Mtime kept,
// OC-Checksum verified, OC-FileId and OC-ETag on every write.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, type Readable } from 'node:stream';
import { DavContext } from '../webdav/context.js';
import { DavError } from '../webdav/errors.js';
import { decodeSegment } from '../webdav/paths.js';
import { admit, davScope, dispatch, isRead, options, type DavRouteDeps } from '../webdav/routes.js';
import { copyOrMove, put } from '../webdav/methods.js';
import { FILE } from '../files/rows.js';
import type { Entry } from '../files/tree.js';
import { formatChecksum, parseChecksum, verify, verifying } from './checksums.js';
import { isSpooled, type SpooledBody } from '../files/uploads.js';
import { earlyContinue } from './early-continue.js';
import type { SyncService } from './service.js';

export const FILES_ROOT = '/remote.php/dav/files';
export const LEGACY_ROOT = '/remote.php/webdav';
/** X-OC-Mtime in seconds: after 1970 and before 2200. */
const MAX_MTIME_S = 7_258_118_400;

async function fileHeaders(reply: FastifyReply, ctx: DavContext, sync: SyncService, entry: Entry): Promise<void> {
  const fileId = await sync.davFileId(entry);
  if (fileId) reply.header('OC-FileId', fileId);
  const etag = ctx.etag(entry);
  reply.header('OC-ETag', etag).header('ETag', etag);
}

/** The X-OC-Mtime header as Unix ms, undefined without it; 400 when it is no time. */
function mtimeOf(ctx: DavContext): number | undefined {
  const raw = ctx.header('x-oc-mtime');
  if (raw === undefined) return undefined;
  if (!/^\d{1,12}(\.\d+)?$/.test(raw.trim()) || Number(raw) > MAX_MTIME_S) throw new DavError(400, 'X-OC-Mtime must be Unix seconds');
  return Math.floor(Number(raw) * 1000);
}

async function syncPut(ctx: DavContext, dav: DavRouteDeps, sync: SyncService, reply: FastifyReply): Promise<FastifyReply> {
  // The old chunking (OC-Chunked, "<name>-chunking-<id>-<n>-<i>") is not built: storing
  // each chunk as a file of that name would leave fragments in the person's tree.
  // The body is not read: the connection is closed after the answer, so nothing waits on it.
  if (ctx.header('oc-chunked') !== undefined) throw new DavError(501, 'Chunked uploads (OC-Chunked) are not supported: use /remote.php/dav/uploads/', undefined, { Connection: 'close' });
  return reply.code(await storeFile(ctx, dav, sync, reply, ctx.request.raw)).send();
}

/**
 * Stores `body` as the file at `ctx.path` as a PUT does (every rule of the
 * WebDAV layer), with the ownCloud headers: OC-Checksum verified (a mismatch
 * stores nothing), X-OC-Mtime kept, OC-FileId / OC-ETag / ETag answered.
 * `declared`: the body's length when it is not the request's (chunked uploads,
 * whose body may be their spool: files/uploads.ts).
 * Sets the headers of the answer and resolves with its status; the caller sends it.
 */
export async function storeFile(ctx: DavContext, dav: DavRouteDeps, sync: SyncService, reply: FastifyReply, body: Readable | SpooledBody, declared?: number): Promise<number> {
  const checksum = parseChecksum(ctx.header('oc-checksum'));
  const mtime = mtimeOf(ctx);
  let source = body;
  if (checksum && isSpooled(body)) {
    // Stored already: its SHA-1 was computed as it arrived; otherwise it is read once to check it before
    // it becomes the file (a mismatch changes nothing).
    if (!(checksum.type === 'SHA1' && body.sha1 === checksum.hex)) await verify(body.read(), checksum);
  } else if (checksum) {
    // pipeline() listens for every error (the consumer sees the mismatch as the stream's failure).
    source = pipeline(body as Readable, verifying(checksum), () => undefined);
  }
  // The modification time is set as the file is placed, in the same transaction (no second one under the tree lock).
  const { status, entry } = await put(ctx, dav.uploads, source, declared, mtime);
  if (checksum && entry.row.blob_id) await sync.recordChecksum(entry.row.blob_id, formatChecksum(checksum));
  if (mtime !== undefined) reply.header('X-OC-MTime', 'accepted');
  await fileHeaders(reply, ctx, sync, entry);
  return status;
}

async function syncCopyOrMove(ctx: DavContext, dav: DavRouteDeps, sync: SyncService, reply: FastifyReply): Promise<FastifyReply> {
  const status = await copyOrMove(ctx, dav.repo, ctx.request.method === 'COPY');
  const moved = await ctx.tryResolve(ctx.pathOfUri(ctx.header('destination')!).path);
  if (moved) {
    await ctx.prepare([moved]);
    await fileHeaders(reply, ctx, sync, moved);
    if (moved.row.kind === FILE && ctx.header('x-oc-mtime') !== undefined) {
      await dav.files.setModified(ctx.userId, moved.path, mtimeOf(ctx)!);
      reply.header('X-OC-MTime', 'accepted');
    }
  }
  return reply.code(status).send();
}

export function syncDavRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = request.method;
    reply.header('DAV', '1, 2');
    if (method === 'OPTIONS') return options(reply);
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, !isRead(method), { method, url: request.url, proof: request.headers.dpop });
    // An account rooted inside a shared item stores the grant (shared:<id>/…), as on /dav/: its path now.
    const principal = { ...who, root: await dav.files.anchoredPath(who.userId, who.root) };
    let prefix = LEGACY_ROOT;
    if (request.url.startsWith(`${FILES_ROOT}/`)) {
      // The user id in the path must be the person's own (cloud/user's id); another's is 404, never their files.
      const segment = /^[^/?#]*/.exec(request.url.slice(FILES_ROOT.length + 1))![0];
      if (decodeSegment(segment) !== principal.userId) throw new DavError(404, 'Not found');
      prefix = `${FILES_ROOT}/${segment}`;
    }
    const ctx = new DavContext(request, principal, dav.files, dav.locks, sync.mount(prefix, principal));
    await admit(ctx, dav);
    sync.seen(principal, request.headers['user-agent']);
    switch (method) {
      case 'PUT':
        return syncPut(ctx, dav, sync, reply);
      case 'COPY':
      case 'MOVE':
        return syncCopyOrMove(ctx, dav, sync, reply);
      default:
        return dispatch(ctx, dav, reply);
    }
  };
  davScope(app, [`${FILES_ROOT}/:uid`, `${FILES_ROOT}/:uid/*`, LEGACY_ROOT, `${LEGACY_ROOT}/*`], handler, [], earlyContinue);
}
