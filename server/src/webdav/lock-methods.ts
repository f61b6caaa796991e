// LOCK and UNLOCK (RFC 4918 §9.10, §9.11).
import type { FastifyReply } from 'fastify';
import { FOLDER } from '../files/rows.js';
import { DavError } from './errors.js';
import { DavContext, parentPath } from './context.js';
import { activeLockXml, covering, MAX_OWNER_BYTES, parseTimeout } from './locks.js';
import { DAV_NS, XML_HEADER, child, elements, parseXml, serializeElement } from './xml.js';
import type { LockRow } from './repository.js';

function lockAnswer(ctx: DavContext, reply: FastifyReply, lock: LockRow, status: number): FastifyReply {
  const body = `${XML_HEADER}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, ctx.hrefOfTreePath(lock.path, false), ctx.lockService.clock.now())}</D:lockdiscovery></D:prop>\n`;
  return reply.code(status).header('Lock-Token', `<${lock.token}>`).type('application/xml; charset=utf-8').send(body);
}

export async function lock(ctx: DavContext, reply: FastifyReply, body: string): Promise<FastifyReply> {
  const timeout = parseTimeout(ctx.header('timeout'));
  const locks = await ctx.locks();
  if (body.trim() === '') {
    // §9.10.2 refresh: the If header names the lock; nothing else may change.
    const submitted = ctx.submitted();
    const held = covering(locks, ctx.path).filter((l) => submitted.has(l.token));
    if (submitted.size === 0) throw new DavError(400, 'A lock refresh needs the lock token in the If header');
    if (held.length === 0) throw new DavError(412, 'No lock of this resource matches the If header', '<D:lock-token-matches-request-uri/>');
    await ctx.checkIf();
    const refreshed = await ctx.lockService.refresh(held[0]!, timeout);
    reply.header('Lock-Token', `<${refreshed.token}>`);
    return lockAnswer(ctx, reply, refreshed, 200);
  }
  const info = await parseXml(body);
  if (info.ns !== DAV_NS || info.local !== 'lockinfo') throw new DavError(400, 'The body must be a DAV:lockinfo element');
  const scope = child(info, DAV_NS, 'lockscope');
  const type = child(info, DAV_NS, 'locktype');
  const scopeEl = scope ? elements(scope)[0] : undefined;
  if (!scopeEl || scopeEl.ns !== DAV_NS || (scopeEl.local !== 'exclusive' && scopeEl.local !== 'shared')) throw new DavError(400, 'lockscope must be exclusive or shared');
  if (!type || !child(type, DAV_NS, 'write')) throw new DavError(400, 'Only write locks exist');
  const owner = child(info, DAV_NS, 'owner');
  const ownerXml = owner ? serializeElement(owner) : null;
  // Stored with the lock and returned by every lockdiscovery: bounded like dead properties (issue 19).
  if (ownerXml !== null && Buffer.byteLength(ownerXml, 'utf8') > MAX_OWNER_BYTES) throw new DavError(507, `The lock owner is limited to ${MAX_OWNER_BYTES} bytes`);
  const depthHeader = ctx.header('depth')?.toLowerCase();
  if (depthHeader !== undefined && depthHeader !== '0' && depthHeader !== 'infinity') throw new DavError(400, 'LOCK takes Depth 0 or infinity');
  let entry = await ctx.tryResolve();
  await ctx.checkIf();
  let status = 200;
  if (!entry) {
    // §7.3: locking an unmapped URL creates an empty resource.
    if (ctx.names.length === 0) throw new DavError(409, 'The folder does not exist');
    const parent = await ctx.tryResolve(parentPath(ctx.path));
    if (!parent || parent.row.kind !== FOLDER) throw new DavError(409, 'The parent folder does not exist');
    ctx.requireTokens(covering(locks, parentPath(ctx.path)));
    entry = await ctx.files.create(ctx.userId, ctx.path, 'file');
    status = 201;
  }
  const created = await ctx.lockService.create(
    ctx.userId,
    {
      path: entry.path,
      depth: depthHeader === '0' || entry.row.kind !== FOLDER ? 0 : -1,
      exclusive: scopeEl.local === 'exclusive',
      ownerXml,
      timeoutS: timeout,
    },
    locks,
  );
  return lockAnswer(ctx, reply, created, status);
}

export async function unlock(ctx: DavContext): Promise<number> {
  const raw = ctx.request.headers['lock-token'];
  const m = typeof raw === 'string' ? /^\s*<([^>]+)>\s*$/.exec(raw) : null;
  if (!m) throw new DavError(400, 'The Lock-Token header is required');
  const held = covering(await ctx.locks(), ctx.path).find((l) => l.token === m[1]);
  // §9.11.1: the token must name a lock that applies to the request URI.
  if (!held) throw new DavError(409, 'No such lock on this resource', '<D:lock-token-matches-request-uri/>');
  await ctx.lockService.remove(ctx.userId, held.token);
  return 204;
}
