// The sync clients' chunked uploads (api-contract §14) at
// /remote.php/dav/uploads/<uid>/<transfer>/<chunk>: MKCOL of the transfer,
// PUT of each chunk, PROPFIND to resume, MOVE of <transfer>/.file to the
// Destination, DELETE to abort. The rules are in chunked.ts; the file is
// stored through the same path as a PUT on /remote.php/dav/files/ (storeFile).
import type { FastifyReply, FastifyRequest, FastifyInstance } from 'fastify';
import { DavContext } from '../webdav/context.js';
import { DavError } from '../webdav/errors.js';
import { admit, davScope, isRead, options, readXmlBody, type DavRouteDeps } from '../webdav/routes.js';
import { decodeSegment, uriPathOf } from '../webdav/paths.js';
import { escapeXml } from '../webdav/xml.js';
import type { DavPrincipal } from '../webdav/auth.js';
import { FILES_ROOT, LEGACY_ROOT, storeFile } from './dav-routes.js';
import { validChunkName, validTransferName, type ChunkedUploads } from './chunked.js';
import type { ChunkRow, TransferRow } from './repository.js';
import type { SyncService } from './service.js';

export const UPLOADS_ROOT = '/remote.php/dav/uploads';
const ALLOW = 'OPTIONS, PROPFIND, MKCOL, PUT, MOVE, DELETE';
/** The name a client MOVEs to assemble a transfer. */
const ASSEMBLE = '.file';

/** OC-Total-Length: undefined without it, 400 when it is not a byte count. */
function totalLengthOf(request: FastifyRequest): number | null {
  const raw = request.headers['oc-total-length'];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw.trim())) throw new DavError(400, 'OC-Total-Length must be a byte count');
  return Number(raw.trim());
}

function hasBody(request: FastifyRequest): boolean {
  const h = request.headers;
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
}

function contentLengthOf(request: FastifyRequest): number | null {
  if (request.headers['transfer-encoding'] !== undefined) return null;
  const raw = request.headers['content-length'];
  if (raw === undefined) return 0;
  if (!/^\d{1,16}$/.test(raw)) throw new DavError(400, 'Content-Length must be a non-negative integer');
  return Number(raw);
}

function response(href: string, props: string): string {
  return `<D:response><D:href>${escapeXml(href)}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
}

function folderProps(at: number, etag: string): string {
  return `<D:resourcetype><D:collection/></D:resourcetype><D:getlastmodified>${new Date(at).toUTCString()}</D:getlastmodified><D:getetag>"${escapeXml(etag)}"</D:getetag>`;
}

function chunkProps(c: ChunkRow): string {
  return `<D:resourcetype/><D:getcontentlength>${c.size}</D:getcontentlength><D:getlastmodified>${new Date(c.created_at).toUTCString()}</D:getlastmodified><D:getetag>"${escapeXml(c.storage_key)}"</D:getetag>`;
}

function multistatus(parts: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${parts.join('')}</D:multistatus>`;
}

/**
 * The DAV context of a MOVE's Destination on the person's files mount: a
 * path or a full URL under /remote.php/dav/files/<their uid>/ or /remote.php/webdav/.
 */
function destinationContext(request: FastifyRequest, principal: DavPrincipal, dav: DavRouteDeps, sync: SyncService, raw: unknown = request.headers.destination): DavContext {
  if (typeof raw !== 'string' || raw === '') throw new DavError(400, 'The Destination header is required');
  const uriPath = uriPathOf(raw, request.headers.host);
  let prefix: string;
  if (uriPath.startsWith(`${FILES_ROOT}/`)) {
    const segment = /^[^/]*/.exec(uriPath.slice(FILES_ROOT.length + 1))![0];
    if (decodeSegment(segment) !== principal.userId) throw new DavError(403, 'The Destination is not in your files');
    prefix = `${FILES_ROOT}/${segment}`;
  } else if (uriPath === LEGACY_ROOT || uriPath.startsWith(`${LEGACY_ROOT}/`)) {
    prefix = LEGACY_ROOT;
  } else {
    throw new DavError(400, `The Destination must be under ${FILES_ROOT}/<id>/`);
  }
  return new DavContext(request, principal, dav.files, dav.locks, sync.mount(prefix, principal), uriPath);
}

export function syncUploadRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService, chunked: ChunkedUploads): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = request.method;
    reply.header('DAV', '1, 2');
    if (method === 'OPTIONS') return options(reply, ALLOW);
    const write = !isRead(method);
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, write, { method, url: request.url, proof: request.headers.dpop });
    const principal = { ...who, root: await dav.files.anchoredPath(who.userId, who.root) };
    if (write && principal.readonly) throw new DavError(403, 'This WebDAV account is read-only');
    const path = /^[^?#]*/.exec(request.url.slice(UPLOADS_ROOT.length + 1))![0];
    const segments = path.split('/');
    // One trailing slash is allowed (a folder); an empty segment elsewhere is not.
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    if (segments.length > 3 || segments.some((s) => s === '')) throw new DavError(400, 'Not an upload path: /remote.php/dav/uploads/<id>/<transfer>/<chunk>');
    const [uid, transferName, chunkName] = segments.map(decodeSegment) as [string, string | undefined, string | undefined];
    // Another person's uploads do not exist for this one.
    if (uid !== principal.userId) throw new DavError(404, 'Not found');
    if (transferName !== undefined && !validTransferName(transferName)) throw new DavError(400, 'A transfer id is 1 to 200 letters, digits, ".", "_", "~" or "-", starting with a letter or digit');
    sync.seen(principal, request.headers['user-agent']);
    const base = `${UPLOADS_ROOT}/${encodeURIComponent(uid)}/`;

    if (transferName === undefined) {
      // The person's uploads folder: it exists, and lists their transfers.
      if (method !== 'PROPFIND') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND' });
      await readXmlBody(request.raw);
      const parts = [response(base, folderProps(0, 'uploads'))];
      // Depth 0 is the folder alone; the clients never list it deeper.
      return reply.code(207).type('application/xml; charset=utf-8').send(multistatus(parts));
    }

    const href = `${base}${encodeURIComponent(transferName)}/`;
    if (chunkName === undefined) {
      switch (method) {
        case 'MKCOL': {
          if (hasBody(request)) throw new DavError(415, 'MKCOL with a body is not supported');
          const destination = typeof request.headers.destination === 'string' ? request.headers.destination : null;
          // Chunking v2 names the file it makes from the start: it must be a place this person may write.
          if (destination !== null) await admit(destinationContext(request, principal, dav, sync), dav);
          if (!(await chunked.create(principal.userId, transferName, totalLengthOf(request), destination))) throw new DavError(405, 'The upload already exists');
          return reply.code(201).send();
        }
        case 'PROPFIND': {
          await readXmlBody(request.raw);
          const transfer = await chunked.find(principal.userId, transferName);
          const parts = [response(href, folderProps(transfer.updated_at, `${transfer.id}-${transfer.updated_at}`))];
          if (request.headers.depth !== '0') for (const c of await chunked.chunks(transfer)) parts.push(response(`${href}${encodeURIComponent(c.name)}`, chunkProps(c)));
          return reply.code(207).type('application/xml; charset=utf-8').send(multistatus(parts));
        }
        case 'DELETE':
          await chunked.abort(await chunked.find(principal.userId, transferName));
          return reply.code(204).send();
        default:
          throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND, MKCOL, DELETE' });
      }
    }

    const transfer: TransferRow = await chunked.find(principal.userId, transferName);
    if (chunkName === ASSEMBLE) {
      if (method !== 'MOVE') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, MOVE' });
      const ctx = destinationContext(request, principal, dav, sync);
      // Chunking v2 named its file at MKCOL: the MOVE may not put the chunks anywhere else (nothing is assembled; the transfer stays).
      if (transfer.destination !== null) {
        let announced: string | null = null;
        try {
          announced = destinationContext(request, principal, dav, sync, transfer.destination).path;
        } catch {
          // The MKCOL's Destination no longer names a place (the account's folder changed): no MOVE can match it.
        }
        if (announced !== ctx.path) throw new DavError(400, 'The Destination differs from the one given when the upload was created');
      }
      await admit(ctx, dav);
      const total = totalLengthOf(request);
      // Answered once the transfer is gone: a client that reads the answer finds no transfer left.
      const status = await chunked.assemble(transfer, total, (source, length) => storeFile(ctx, dav, sync, reply, source, length));
      return reply.code(status).send();
    }
    if (!validChunkName(chunkName, transfer.destination !== null)) {
      throw new DavError(400, transfer.destination !== null ? 'A chunk is numbered 1 to 10000' : 'A chunk is named by its zero-padded index or byte offset');
    }
    switch (method) {
      case 'PUT': {
        if (request.headers['content-range'] !== undefined) throw new DavError(400, 'Content-Range is not supported on PUT');
        const replaced = await chunked.putChunk(transfer, chunkName, request.raw, contentLengthOf(request));
        return reply.code(replaced ? 204 : 201).send();
      }
      case 'PROPFIND': {
        await readXmlBody(request.raw);
        const c = (await chunked.chunks(transfer)).find((x) => x.name === chunkName);
        if (!c) throw new DavError(404, 'No such chunk');
        return reply.code(207).type('application/xml; charset=utf-8').send(multistatus([response(`${href}${encodeURIComponent(c.name)}`, chunkProps(c))]));
      }
      case 'DELETE':
        if (!(await chunked.deleteChunk(transfer, chunkName))) throw new DavError(404, 'No such chunk');
        return reply.code(204).send();
      default:
        throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND, PUT, DELETE' });
    }
  };
  davScope(app, [`${UPLOADS_ROOT}/:uid`, `${UPLOADS_ROOT}/:uid/*`], async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (err) {
      // A chunk refused before its body was read: the connection is closed after the answer, so nothing waits on the body.
      if (request.method === 'PUT' && !request.raw.readableEnded) reply.header('Connection', 'close');
      throw err;
    }
  });
}
