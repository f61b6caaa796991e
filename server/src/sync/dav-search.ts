// WebDAV SEARCH on /remote.php/dav/ (RFC 5323 basicsearch, as Nextcloud
// serves it; api-contract §14, docs/features/sync.md "SEARCH"): the mobile
// apps' file search, their photo timeline (image/ and video/ types by date)
// and "recent" lists. The scope is a folder of the person's files
// (/files/<uid>/…); a search of their whole tree also looks inside what is
// shared with them and their team folders, at the paths they see. Answered
// as a PROPFIND is, with the same properties (PropertyWriter and the sync
// mount), so a hit looks exactly as it does in a listing.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FOLDER } from '../files/rows.js';
import type { Entry } from '../files/tree.js';
import { DavContext } from '../webdav/context.js';
import { DavError } from '../webdav/errors.js';
import { decodeSegment } from '../webdav/paths.js';
import { PropertyWriter, needsDead } from '../webdav/properties.js';
import { admit, davScope, readXmlBody, type DavRouteDeps } from '../webdav/routes.js';
import { XML_HEADER, escapeXml } from '../webdav/xml.js';
import { FILES_ROOT } from './dav-routes.js';
import { DavSearchRepository, type ResolvedCondition, type SearchSeed } from './dav-search-repository.js';
import { parseDavSearch, type Condition } from './dav-search-query.js';
import type { SyncService } from './service.js';

export const DAV_ROOT = '/remote.php/dav';
/** The most results one SEARCH answers; a search without a limit that matches more says so (RFC 5323's 507 DAV:number-of-matches-within-limits). */
export const MAX_RESULTS = 1000;
/** firstresult beyond this is refused as a page too deep to be useful (and costly: OFFSET walks the rows it skips). */
const MAX_OFFSET = 100_000;
/** Levels walked below the scope for Depth: infinity (a path holds at most 4096 bytes; real trees are far shallower). */
const MAX_LEVELS = 256;

/**
 * The scope href (`/files/<uid>/a/b`, or with /remote.php/dav, or a whole
 * URL) as a URI path under the person's files, and the prefix of those files.
 */
function scopeOf(href: string, userId: string): { uriPath: string; prefix: string } {
  let path = href;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || '/';
  if (path === DAV_ROOT || path.startsWith(`${DAV_ROOT}/`)) path = path.slice(DAV_ROOT.length);
  const m = /^\/files\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) throw new DavError(400, 'SEARCH: the scope must be a folder under /files/<user>/');
  // Another person's files are never a scope: the same answer as for no such folder.
  if (decodeSegment(m[1]!) !== userId) throw new DavError(404, 'SEARCH: the scope does not exist');
  const prefix = `${FILES_ROOT}/${m[1]}`;
  return { uriPath: `${prefix}${m[2] ?? ''}`, prefix };
}

/** The condition with every oc:fileid number mapped to the item it names ('' for none). */
async function resolveIds(c: Condition, sync: SyncService): Promise<ResolvedCondition> {
  switch (c.op) {
    case 'and':
    case 'or':
      return { op: c.op, of: await Promise.all(c.of.map((x) => resolveIds(x, sync))) };
    case 'not':
      return { op: 'not', of: await resolveIds(c.of, sync) };
    case 'all':
    case 'folder':
      return c;
    default:
      if (c.prop !== 'fileid') return c;
      return { ...c, value: (await sync.fileNumbers.fileOf(String(c.value))) ?? '' };
  }
}

export function syncSearchRoutes(app: FastifyInstance, dav: DavRouteDeps, sync: SyncService, repo: DavSearchRepository): void {
  const allow = 'OPTIONS, SEARCH';
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('DAV', '1, 2');
    if (request.method === 'OPTIONS') {
      // RFC 5323 §3.2: the grammars a resource can be searched with.
      return reply.code(200).header('Allow', allow).header('DASL', '<DAV:basicsearch>').header('Content-Length', '0').send();
    }
    if (request.method !== 'SEARCH') throw new DavError(405, 'Method not allowed', undefined, { Allow: allow });
    const who = await dav.auth.authenticate(request.headers.authorization, request.ip, false, { method: 'SEARCH', url: request.url, proof: request.headers.dpop });
    const principal = { ...who, root: await dav.files.anchoredPath(who.userId, who.root) };
    const query = await parseDavSearch(await readXmlBody(request.raw), MAX_RESULTS, MAX_OFFSET);
    const { uriPath, prefix } = scopeOf(query.scope, principal.userId);
    const ctx = new DavContext(request, principal, dav.files, dav.locks, sync.mount(prefix, principal), uriPath);
    await admit(ctx, dav);
    sync.seen(principal, request.headers['user-agent']);
    const scope = await ctx.tryResolve();
    if (!scope) throw new DavError(404, 'SEARCH: the scope does not exist');
    if (scope.row.kind !== FOLDER && query.depth !== '0') throw new DavError(400, 'SEARCH: the scope of a search with depth 1 or infinity must be a folder');

    const seeds: SearchSeed[] = [{ id: scope.row.id, path: scope.path, itself: query.depth === '0', levels: query.depth === '0' ? 0 : query.depth === '1' ? 1 : MAX_LEVELS }];
    // The whole of the person's tree: what others shared with them and their team folders too, at their paths.
    if (query.depth === 'infinity' && scope.row.parent_id === null && scope.row.owner_id === principal.userId && scope.path === '/') {
      for (const root of await dav.files.reachable(principal.userId)) seeds.push({ id: root.row.id, path: root.path, itself: true, levels: MAX_LEVELS });
    }
    const wanted = query.limit ?? MAX_RESULTS;
    // One more than asked: whether a search without a limit was cut.
    const found = await repo.find(seeds, await resolveIds(query.where, sync), query.orderBy, wanted + (query.limit === null ? 1 : 0), query.offset);
    const cut = query.limit === null && found.length > wanted;
    // An item reached through two seeds (a share inside a shared folder) is answered once, at the first path.
    const seen = new Set<string>();
    const entries: Entry[] = found.slice(0, wanted).filter((e) => !seen.has(e.row.id) && seen.add(e.row.id));

    const writer = await PropertyWriter.create(ctx, query.select);
    const locks = await ctx.locks();
    await ctx.prepare(entries);
    const dead = needsDead(query.select) && entries.length ? await dav.repo.properties(entries.map((e) => e.row.id)) : null;
    let body = `${XML_HEADER}<D:multistatus xmlns:D="DAV:"${ctx.mount.extras?.namespaces ?? ''}>\n`;
    for (const entry of entries) {
      const href = ctx.hrefOfTreePath(entry.path, entry.row.kind === FOLDER);
      // Outside the account's folder (an account rooted in a subfolder never sees above it).
      if (href === null) continue;
      body = writer.response(entry, href, query.select, dead?.get(entry.row.id) ?? [], locks, body);
    }
    if (cut) {
      // RFC 5323: more matched than the server answers, said as a 507 response for the scope.
      const scopeHref = ctx.hrefOfTreePath(scope.path, true) ?? ctx.rootHref;
      body += `<D:response><D:href>${escapeXml(scopeHref)}</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status><D:error><D:number-of-matches-within-limits/></D:error></D:response>\n`;
    }
    body += '</D:multistatus>\n';
    return reply.code(207).type('application/xml; charset=utf-8').send(body);
  };
  davScope(app, [DAV_ROOT, `${DAV_ROOT}/`], handler, ['SEARCH']);
}
