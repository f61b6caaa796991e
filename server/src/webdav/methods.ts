// The WebDAV methods that read and change the tree (RFC 4918 §9.3–9.9, RFC
// 9110 for GET/HEAD/PUT), each through the file service: one tree with the
// API, the same name rules, quota (507 here) and trash (DELETE and
// overwriting MOVE/COPY move the old item to the trash).
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { Entry } from '../files/tree.js';
import { DomainError } from '../core/errors.js';
import { FOLDER } from '../files/rows.js';
import type { SpooledBody, UploadService } from '../files/uploads.js';
import { fileSendable, sendBytes } from '../files/send.js';
import { accountHolder } from '../files/transfers.js';
import { DavError, fromAppError } from './errors.js';
import { DavContext, parentPath } from './context.js';
import { below, covering } from './locks.js';
import type { DavRepository } from './repository.js';
import { admitProperties } from './properties.js';

function hasBody(ctx: DavContext): boolean {
  const h = ctx.request.headers;
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
}

/** The parent folder must exist (RFC 4918 §9.7.1 PUT, §9.3.1 MKCOL: 409 otherwise). */
function requireParent(parentFolder: boolean): void {
  if (!parentFolder) throw new DavError(409, 'The parent folder does not exist');
}

export async function get(ctx: DavContext, reply: FastifyReply): Promise<FastifyReply> {
  const entry = await ctx.resolve();
  if (entry.row.kind === FOLDER) {
    // Folders have no body of their own; browsers get a hint instead of an error.
    await ctx.prepare([entry]);
    reply.header('ETag', ctx.etag(entry)).type('text/plain; charset=utf-8');
    return reply.send(ctx.request.method === 'HEAD' ? undefined : 'This is a WebDAV folder: open it with a WebDAV client.\n');
  }
  return sendBytes(ctx.request, reply, fileSendable(ctx.files, entry), { hold: () => ctx.files.transfers.take('downloads', accountHolder(ctx.userId)) });
}

/**
 * `source`: the body as it is stored (the sync mount passes it through a
 * checksum check, or the chunks of a chunked upload, maybe as their spool); `declared`: its length
 * when it is not the request's body; `modifiedAt`: the modification time to
 * keep (the sync clients' X-OC-Mtime), else now.
 */
export async function put(ctx: DavContext, uploads: UploadService, source: Readable | SpooledBody = ctx.request.raw, declared?: number, modifiedAt?: number): Promise<{ status: number; entry: Entry }> {
  if (ctx.names.length === 0) throw new DavError(405, 'The root folder cannot be written');
  // RFC 9110 §14.5: a partial PUT is refused rather than stored as the whole content.
  if (ctx.request.headers['content-range'] !== undefined) throw new DavError(400, 'Content-Range is not supported on PUT');
  const { entry: existing, parentFolder } = await ctx.probe();
  if (existing?.row.kind === FOLDER) throw new DavError(405, 'A folder cannot be overwritten with PUT');
  if (!existing) requireParent(parentFolder);
  const h = ctx.request.headers;
  if (h['if-none-match'] === '*' && existing) throw new DavError(412, 'The resource exists');
  const ifMatch = h['if-match'];
  if (typeof ifMatch === 'string' && (!existing || (ifMatch.trim() !== '*' && !ifMatch.split(',').map((s) => s.trim()).includes(ctx.etag(existing))))) {
    throw new DavError(412, 'If-Match does not hold');
  }
  await ctx.checkIf();
  const locks = await ctx.locks();
  ctx.requireTokens(existing ? covering(locks, ctx.path) : covering(locks, parentPath(ctx.path)));
  const chunked = h['transfer-encoding'] !== undefined;
  const raw = h['content-length'];
  let length: number | null = declared ?? null;
  if (declared === undefined && !chunked) {
    if (raw !== undefined && !/^\d{1,16}$/.test(raw)) throw new DavError(400, 'Content-Length must be a non-negative integer');
    length = raw === undefined ? 0 : Number(raw);
  }
  // Versions record the device (WebDAV account) that wrote; a bearer token is just 'webdav'.
  const entry = await uploads.put(ctx.userId, ctx.path, source, length, ctx.principal.accountId ? `webdav:${ctx.principal.accountId}` : 'webdav', modifiedAt);
  return { status: existing ? 204 : 201, entry };
}

export async function mkcol(ctx: DavContext): Promise<number> {
  // §9.3: a body we do not understand is 415.
  if (hasBody(ctx)) throw new DavError(415, 'MKCOL with a body is not supported');
  if (ctx.names.length === 0) throw new DavError(405, 'The resource already exists');
  const { entry, parentFolder } = await ctx.probe();
  if (entry) throw new DavError(405, 'The resource already exists');
  requireParent(parentFolder);
  await ctx.checkIf();
  ctx.requireTokens(covering(await ctx.locks(), parentPath(ctx.path)));
  await ctx.files.create(ctx.userId, ctx.path, 'folder');
  return 201;
}

export async function remove(ctx: DavContext): Promise<number> {
  if (ctx.names.length === 0) throw new DavError(403, 'The root folder cannot be deleted');
  const depth = ctx.header('depth');
  if (depth !== undefined && depth.toLowerCase() !== 'infinity') throw new DavError(400, 'DELETE takes Depth: infinity only');
  const entry = await ctx.resolve();
  await ctx.checkIf();
  const locks = await ctx.locks();
  ctx.requireTokens([...covering(locks, parentPath(ctx.path)), ...covering(locks, ctx.path), ...below(locks, ctx.path)]);
  const [result] = await ctx.files.remove(ctx.userId, [entry.path], false);
  if (result && 'error' in result && result.error) throw fromAppError(result.error);
  await ctx.lockService.dropAt(ctx.userId, locks, ctx.path);
  return 204;
}

export async function copyOrMove(ctx: DavContext, repo: DavRepository, copy: boolean): Promise<number> {
  const h = ctx.request.headers;
  const destination = h.destination;
  if (typeof destination !== 'string' || destination === '') throw new DavError(400, 'The Destination header is required');
  const dst = ctx.pathOfUri(destination);
  const overwriteHeader = (h.overwrite ?? 'T').toString().toUpperCase();
  if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw new DavError(400, 'Overwrite must be T or F');
  const depth = ctx.header('depth')?.toLowerCase();
  if (depth !== undefined && depth !== 'infinity' && !(copy && depth === '0')) throw new DavError(400, `${copy ? 'COPY takes Depth 0 or infinity' : 'MOVE takes Depth: infinity only'}`);
  if (ctx.names.length === 0) throw new DavError(403, 'The root folder cannot be moved or copied');
  if (dst.path === ctx.path) throw new DavError(403, 'The source and the destination are the same');
  const source = await ctx.resolve();
  const target = await ctx.tryResolve(dst.path);
  await ctx.checkIf();
  const locks = await ctx.locks();
  const applicable = [...covering(locks, parentPath(dst.path))];
  if (target) applicable.push(...covering(locks, dst.path), ...below(locks, dst.path));
  if (!copy) applicable.push(...covering(locks, parentPath(ctx.path)), ...covering(locks, ctx.path), ...below(locks, ctx.path));
  ctx.requireTokens(applicable);
  const shallow = copy && depth === '0' && source.row.kind === FOLDER;
  if (copy) {
    // §9.8.5: the copies' dead properties count for the person too; 507 before anything is copied.
    const added = await repo.propertyBytesOf(shallow ? [source.row.id] : await ctx.files.subtreeIds(ctx.userId, source.path));
    if (added > 0) admitProperties({ resource: 0, user: (await repo.userPropertyBytes(ctx.userId)) + added, change: added });
  }
  let result;
  try {
    result = await ctx.files.relocate(ctx.userId, source.path, dst.path, { copy, overwrite: overwriteHeader === 'T', shallow });
  } catch (err) {
    if (err instanceof DomainError) throw fromAppError(err);
    throw err;
  }
  // Checked again as they are written: a parallel change may have taken the room meanwhile (then the copy stays, without its properties, and the answer is 507).
  if (copy) await repo.copyProperties(ctx.userId, result.copies, admitProperties);
  if (!copy) await ctx.lockService.dropAt(ctx.userId, locks, ctx.path);
  if (result.replaced) await ctx.lockService.dropAt(ctx.userId, locks, dst.path);
  return result.replaced ? 204 : 201;
}
