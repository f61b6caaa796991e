// Trash and versions over DAV, as Nextcloud serves them to its apps
// (api-contract §14), over the same trash and version services as the API:
//   /remote.php/dav/trashbin/<uid>/trash/            PROPFIND lists the trash; DELETE empties it
//   /remote.php/dav/trashbin/<uid>/trash/<item>      PROPFIND; DELETE purges; MOVE to …/restore/<name> restores
//   /remote.php/dav/versions/<uid>/versions/<fileid>/           PROPFIND lists the older versions
//   /remote.php/dav/versions/<uid>/versions/<fileid>/<version>  GET reads; MOVE to …/restore/target restores; DELETE
// Same rules as the API: a write recipient may restore a version but not delete one
// (issue 32); another person's item, version or id is 404. An item's href segment
// is "<name>.<fileid>.d<deletion seconds>": Nextcloud's "<name>.d<seconds>" with the
// number that finds it again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FILE, FOLDER } from '../files/rows.js';
import type { Entry } from '../files/tree.js';
import type { TrashService } from '../files/trash.js';
import type { VersionService } from '../files/versions.js';
import { sendBytes } from '../files/send.js';
import { accountHolder } from '../files/transfers.js';
import { DavError, fromAppError } from '../webdav/errors.js';
import { davScope, isRead, options, readXmlBody, type DavRouteDeps } from '../webdav/routes.js';
import { decodeSegment, uriPathOf } from '../webdav/paths.js';
import { escapeXml } from '../webdav/xml.js';
import type { DavPrincipal } from '../webdav/auth.js';
import { NC_NS, OC_NS } from './dav-mount.js';
import type { SyncService } from './service.js';

export const TRASHBIN_ROOT = '/remote.php/dav/trashbin';
export const VERSIONS_ROOT = '/remote.php/dav/versions';
const TRASH_PAGE = 500;
const ITEM_SEGMENT = /\.(\d{1,16})\.d\d+$/;

export interface History {
  trash: Pick<TrashService, 'list' | 'restore' | 'purge' | 'empty'>;
  versions: Pick<VersionService, 'list' | 'authorNames' | 'get' | 'sendable' | 'restore' | 'remove'>;
}

/** The segments after `root` (the first is the user id); a trailing slash is allowed, an empty segment elsewhere is not. */
function segmentsOf(url: string, root: string): string[] {
  const path = /^[^?#]*/.exec(url.slice(root.length + 1))![0];
  const segments = path.split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => s === '')) throw new DavError(404, 'Not found');
  return segments.map(decodeSegment);
}

function response(href: string, props: string): string {
  return `<D:response><D:href>${escapeXml(href)}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
}

function multistatus(parts: readonly string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" xmlns:oc="${OC_NS}" xmlns:nc="${NC_NS}">${parts.join('')}</D:multistatus>`;
}

function collection(at = 0): string {
  return `<D:resourcetype><D:collection/></D:resourcetype><D:getlastmodified>${new Date(at).toUTCString()}</D:getlastmodified>`;
}

function sendMultistatus(reply: FastifyReply, parts: readonly string[]): FastifyReply {
  return reply.code(207).type('application/xml; charset=utf-8').send(multistatus(parts));
}

/** The Destination's URI path, which must be `expected` or lie below it. */
function destinationUnder(request: FastifyRequest, expected: string): string {
  const raw = request.headers.destination;
  if (typeof raw !== 'string' || raw === '') throw new DavError(400, 'The Destination header is required');
  const path = uriPathOf(raw, request.headers.host);
  if (path !== expected && !path.startsWith(`${expected}/`)) throw new DavError(400, `The Destination must be ${expected}`);
  return path;
}

/** Throws the error of a one-item batch (restore, purge) as DAV's. */
function raiseBatch(items: readonly { error?: unknown }[]): void {
  const err = items[0]?.error;
  if (err) throw fromAppError(err as Parameters<typeof fromAppError>[0]);
}

export function syncHistoryRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService, history: History): void {
  /** Who asks: their own id in the path (another's is 404), a whole-tree account (trash and versions are not a folder's). */
  const admit = async (request: FastifyRequest, reply: FastifyReply, uid: string): Promise<DavPrincipal> => {
    const method = request.method;
    const write = !isRead(method);
    const principal = await dav.auth.authenticate(request.headers.authorization, request.ip, write, { method, url: request.url, proof: request.headers.dpop });
    if (uid !== principal.userId) throw new DavError(404, 'Not found');
    if (principal.root !== '/') throw new DavError(403, "This WebDAV account is limited to a folder: the trash and versions are the whole account's");
    if (write && principal.readonly) throw new DavError(403, 'This WebDAV account is read-only');
    if (method === 'PROPFIND') await readXmlBody(request.raw);
    reply.header('DAV', '1, 2');
    sync.seen(principal, request.headers['user-agent']);
    return principal;
  };

  // ---- trash ----

  const trashItems = async (userId: string): Promise<Entry[]> => {
    const out: Entry[] = [];
    let token: string | undefined;
    do {
      const page = await history.trash.list(userId, TRASH_PAGE, token);
      out.push(...page.entries);
      token = page.nextPageToken ?? undefined;
    } while (token);
    return out;
  };

  const trashItemProps = (e: Entry, number: number | undefined): string => {
    const row = e.row;
    const deleted = Number(row.trashed_at ?? 0);
    const original = (row.trashed_path ?? e.path).replace(/^\/+/, '');
    let out = row.kind === FOLDER ? '<D:resourcetype><D:collection/></D:resourcetype>' : `<D:resourcetype/><D:getcontentlength>${Number(row.size)}</D:getcontentlength><D:getcontenttype>${escapeXml(row.mime_type ?? 'application/octet-stream')}</D:getcontenttype>`;
    out += `<D:getlastmodified>${new Date(Number(row.updated_at)).toUTCString()}</D:getlastmodified><D:getetag>"${escapeXml(`${row.id}-${deleted}`)}"</D:getetag>`;
    if (number !== undefined) out += `<oc:fileid>${number}</oc:fileid><oc:id>${sync.fileNumbers.format(number)}</oc:id>`;
    out += `<oc:size>${row.kind === FILE ? Number(row.size) : 0}</oc:size>`;
    out += `<nc:trashbin-filename>${escapeXml(row.name)}</nc:trashbin-filename><nc:trashbin-original-location>${escapeXml(original)}</nc:trashbin-original-location><nc:trashbin-deletion-time>${Math.floor(deleted / 1000)}</nc:trashbin-deletion-time>`;
    return out;
  };

  const itemSegment = (e: Entry, number: number | undefined): string => `${encodeURIComponent(e.row.name)}.${number ?? 0}.d${Math.floor(Number(e.row.trashed_at ?? 0) / 1000)}`;

  /** The item a segment names, among the trash the person sees; 404 otherwise. */
  const trashItem = async (userId: string, segment: string): Promise<{ entry: Entry; number: number }> => {
    const m = ITEM_SEGMENT.exec(segment);
    const id = m ? await sync.fileNumbers.fileOf(m[1]!) : undefined;
    if (id) {
      const entry = (await trashItems(userId)).find((e) => e.row.id === id);
      if (entry) return { entry, number: Number(m![1]) };
    }
    throw new DavError(404, 'No such item in the trash');
  };

  const trashHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = request.method;
    if (method === 'OPTIONS') return options(reply, 'OPTIONS, PROPFIND, MOVE, DELETE');
    const segments = segmentsOf(request.url, TRASHBIN_ROOT);
    const [uid, part, item, ...rest] = segments as [string, string | undefined, string | undefined, ...string[]];
    const principal = await admit(request, reply, uid);
    const userId = principal.userId;
    const base = `${TRASHBIN_ROOT}/${encodeURIComponent(uid)}/`;
    const depth = request.headers.depth === '0' ? 0 : 1;
    if (rest.length) throw new DavError(404, 'Not found');
    if (part === undefined) {
      if (method !== 'PROPFIND') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND' });
      const parts = [response(base, collection())];
      if (depth) parts.push(response(`${base}trash/`, collection()), response(`${base}restore/`, collection()));
      return sendMultistatus(reply, parts);
    }
    if (part === 'restore' && item === undefined && method === 'PROPFIND') return sendMultistatus(reply, [response(`${base}restore/`, collection())]);
    if (part !== 'trash') throw new DavError(404, 'Not found');
    if (item === undefined) {
      switch (method) {
        case 'PROPFIND': {
          const parts = [response(`${base}trash/`, collection())];
          if (depth) {
            const items = await trashItems(userId);
            const numbers = await sync.fileNumbers.of(items.map((e) => e.row.id));
            for (const e of items) {
              const n = numbers.get(e.row.id);
              parts.push(response(`${base}trash/${itemSegment(e, n)}${e.row.kind === FOLDER ? '/' : ''}`, trashItemProps(e, n)));
            }
          }
          return sendMultistatus(reply, parts);
        }
        case 'DELETE':
          await history.trash.empty(userId);
          return reply.code(204).send();
        default:
          throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND, DELETE' });
      }
    }
    const { entry, number } = await trashItem(userId, item);
    switch (method) {
      case 'PROPFIND':
        return sendMultistatus(reply, [response(`${base}trash/${itemSegment(entry, number)}${entry.row.kind === FOLDER ? '/' : ''}`, trashItemProps(entry, number))]);
      case 'DELETE':
        raiseBatch(await history.trash.purge(userId, [entry.row.id]));
        return reply.code(204).send();
      case 'MOVE':
        // Nextcloud restores to the original place whatever name follows restore/.
        destinationUnder(request, `${base}restore`);
        raiseBatch(await history.trash.restore(userId, [entry.row.id], 'rename'));
        return reply.code(201).send();
      default:
        throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND, MOVE, DELETE' });
    }
  };

  // ---- versions ----

  const versionsHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = request.method;
    if (method === 'OPTIONS') return options(reply, 'OPTIONS, GET, HEAD, PROPFIND, MOVE, DELETE');
    const segments = segmentsOf(request.url, VERSIONS_ROOT);
    const [uid, part, fileSegment, versionId, ...rest] = segments as [string, string | undefined, string | undefined, string | undefined, ...string[]];
    const principal = await admit(request, reply, uid);
    const userId = principal.userId;
    const base = `${VERSIONS_ROOT}/${encodeURIComponent(uid)}/`;
    if (rest.length) throw new DavError(404, 'Not found');
    if (part === undefined || (part === 'restore' && fileSegment === undefined)) {
      if (method !== 'PROPFIND') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND' });
      return sendMultistatus(reply, [response(part ? `${base}restore/` : base, collection())]);
    }
    if (part !== 'versions') throw new DavError(404, 'Not found');
    if (fileSegment === undefined) {
      if (method !== 'PROPFIND') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND' });
      return sendMultistatus(reply, [response(`${base}versions/`, collection())]);
    }
    // The file, as this person reaches it (own, or inside something shared with them); anything else is 404.
    const fileId = await sync.fileNumbers.fileOf(fileSegment);
    const file = fileId ? await dav.files.getById(userId, fileId).catch(() => null) : null;
    if (!file || file.row.kind !== FILE) throw new DavError(404, 'No such file');
    const folderHref = `${base}versions/${encodeURIComponent(fileSegment)}/`;
    if (versionId === undefined) {
      if (method !== 'PROPFIND') throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, PROPFIND' });
      const parts = [response(folderHref, collection(Number(file.row.updated_at)))];
      if (request.headers.depth !== '0') {
        const { versions } = await history.versions.list(userId, file.path);
        const authors = await history.versions.authorNames(versions.map((v) => v.author));
        for (const v of versions) {
          const author = authors(v.author);
          parts.push(
            response(
              `${folderHref}${encodeURIComponent(v.id)}`,
              `<D:resourcetype/><D:getcontentlength>${Number(v.size)}</D:getcontentlength><D:getcontenttype>${escapeXml(v.mime_type ?? 'application/octet-stream')}</D:getcontenttype>` +
                `<D:getlastmodified>${new Date(Number(v.created_at)).toUTCString()}</D:getlastmodified><D:getetag>"${escapeXml(v.blob_id ?? 'empty')}"</D:getetag>` +
                `<nc:version-label/>${author ? `<nc:version-author>${escapeXml(author)}</nc:version-author>` : ''}`,
            ),
          );
        }
      }
      return sendMultistatus(reply, parts);
    }
    const found = await history.versions.get(userId, versionId).catch(() => null);
    if (!found || found.version.file_id !== file.row.id) throw new DavError(404, 'No such version');
    switch (method) {
      case 'GET':
      case 'HEAD':
        return sendBytes(request, reply, history.versions.sendable(found.version, found.file), { hold: () => dav.files.transfers.take('downloads', accountHolder(userId)) });
      case 'PROPFIND': {
        const v = found.version;
        return sendMultistatus(reply, [
          response(
            `${folderHref}${encodeURIComponent(v.id)}`,
            `<D:resourcetype/><D:getcontentlength>${Number(v.size)}</D:getcontentlength><D:getlastmodified>${new Date(Number(v.created_at)).toUTCString()}</D:getlastmodified><D:getetag>"${escapeXml(v.blob_id ?? 'empty')}"</D:getetag>`,
          ),
        ]);
      }
      case 'MOVE':
        destinationUnder(request, `${base}restore`);
        await history.versions.restore(userId, file.path, versionId);
        return reply.code(201).send();
      case 'DELETE':
        await history.versions.remove(userId, versionId);
        return reply.code(204).send();
      default:
        throw new DavError(405, 'Method not allowed', undefined, { Allow: 'OPTIONS, GET, HEAD, PROPFIND, MOVE, DELETE' });
    }
  };

  davScope(app, [`${TRASHBIN_ROOT}/:uid`, `${TRASHBIN_ROOT}/:uid/*`], trashHandler);
  davScope(app, [`${VERSIONS_ROOT}/:uid`, `${VERSIONS_ROOT}/:uid/*`], versionsHandler);
}
