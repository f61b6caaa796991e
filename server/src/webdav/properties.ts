// PROPFIND (RFC 4918 §9.1) and PROPPATCH (§9.2). Live properties come from
// the file row; quota ones (RFC 4331) from the person's storage counters;
// dead properties from dav_properties. A Depth 1 listing is written as a
// stream, one page of PAGE rows at a time, so a 10,000-entry folder never
// sits in memory as one document.
import { Readable } from 'node:stream';
import { FILE, FOLDER } from '../files/rows.js';
import type { Entry } from '../files/tree.js';
import { DavError } from './errors.js';
import type { DavContext } from './context.js';
import { activeLockXml, covering, SUPPORTED_LOCK_XML } from './locks.js';
import type { DavRepository, LockRow, PropertyRow, PropertySizes } from './repository.js';
import { DAV_NS, XML_HEADER, clark, elements, emptyProperty, escapeXml, parseXml, serializeElement } from './xml.js';

const D = (local: string) => `{DAV:}${local}`;
const QUOTA_AVAILABLE = D('quota-available-bytes');
const QUOTA_USED = D('quota-used-bytes');
/** Live properties returned by allprop (§9.1: RFC 4331 quota properties only when asked for by name). */
const ALLPROP_LIVE = ['creationdate', 'displayname', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'resourcetype', 'supportedlock', 'lockdiscovery'].map(D);
const LIVE = new Set([...ALLPROP_LIVE, QUOTA_AVAILABLE, QUOTA_USED]);
/**
 * Characters of responses per piece of the body (see generate()): about 100
 * entries, and under V8's large-object size even as two-byte text.
 */
const PIECE_CHARS = 48 * 1024;
/**
 * Rows per page of a Depth 1 listing. A page's rows live while its text is
 * written, which allocates several MB; with 1,000 rows they outlived two
 * scavenges and were promoted (a 10,000-entry listing under 4 connections
 * grew the peak by 18-28 MB in bench/memory.mjs); with 250 by none, at the
 * same or better req/s (docs/benchmarks.md, session 15).
 */
const PAGE = 250;
const NO_PROPERTIES: PropertyRow[] = [];
/**
 * A Depth 1 listing reads its members' dead properties before its first page
 * when they hold at most this many bytes together (PROPERTY_LIMITS bounds
 * one resource's to 64 KiB); past it, with each page.
 */
const CHILD_PROPERTIES_AT_ONCE = 1024 * 1024;

/**
 * Dead properties are stored for the person, so they are bounded like
 * storage (issue 19: 3 MB of properties on an empty file, multiplied by
 * COPY, with a 64 KiB quota). Sizes are UTF-8 bytes of name and stored XML.
 * Past a limit the change is refused with 507 Insufficient Storage (RFC 4918
 * §9.2.1, §9.8.5, §11.5) and nothing is applied; a change that shrinks is
 * always allowed.
 */
export const PROPERTY_LIMITS = {
  /** All dead properties of one file or folder together. */
  resourceBytes: 64 * 1024,
  /** All dead properties of one person, copies included. */
  userBytes: 16 * 1024 * 1024,
} as const;

/** The `admit` check of DavRepository's property writes. */
export function admitProperties(sizes: PropertySizes): void {
  if (sizes.change <= 0) return;
  if (sizes.resource > PROPERTY_LIMITS.resourceBytes) throw new DavError(507, `The dead properties of one resource are limited to ${PROPERTY_LIMITS.resourceBytes} bytes`);
  if (sizes.user > PROPERTY_LIMITS.userBytes) throw new DavError(507, `The dead properties of one person are limited to ${PROPERTY_LIMITS.userBytes} bytes in all`);
}

/** What a PROPFIND (or a SEARCH's select) asks for. */
export type PropertyRequest = { kind: 'allprop'; include: string[] } | { kind: 'propname' } | { kind: 'prop'; names: string[] };
type Request = PropertyRequest;

export async function parsePropfind(body: string): Promise<Request> {
  if (body.trim() === '') return { kind: 'allprop', include: [] };
  const root = await parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'propfind') throw new DavError(400, 'The body must be a DAV:propfind element');
  const kids = elements(root);
  const first = kids[0];
  if (!first || first.ns !== DAV_NS) throw new DavError(400, 'DAV:propfind needs prop, propname or allprop');
  if (first.local === 'propname') return { kind: 'propname' };
  if (first.local === 'allprop') {
    const include = kids.find((k) => k.ns === DAV_NS && k.local === 'include');
    return { kind: 'allprop', include: include ? elements(include).map(clark) : [] };
  }
  if (first.local === 'prop') return { kind: 'prop', names: elements(first).map(clark) };
  throw new DavError(400, 'DAV:propfind needs prop, propname or allprop');
}

interface Quota {
  used: number;
  available: number;
}

/** Writes DAV:response elements; synchronous per entry, so a 10,000-entry listing costs no promise per property. */
export class PropertyWriter {
  /** The names answered for every entry (allprop: the live ones and the included ones), worked out once per request. */
  private readonly names: readonly string[];

  private constructor(
    private readonly ctx: DavContext,
    private readonly quota: Quota | null,
    req: Request,
  ) {
    this.names = req.kind === 'allprop' ? [...ALLPROP_LIVE, ...req.include.filter((n) => !ALLPROP_LIVE.includes(n))] : req.kind === 'prop' ? req.names : [];
  }

  /** Reads the quota up front only when the request names a quota property. */
  static async create(ctx: DavContext, req: Request): Promise<PropertyWriter> {
    const wantsQuota = req.kind === 'prop' && req.names.some((n) => n === QUOTA_AVAILABLE || n === QUOTA_USED);
    const c = wantsQuota ? await ctx.files.capacity(ctx.userId) : null;
    return new PropertyWriter(ctx, c ? { used: c.used, available: Math.max(0, c.total - c.used) } : null, req);
  }

  /** The value (inner XML) of a live property, or undefined when the resource has none. */
  private live(name: string, entry: Entry, locks: LockRow[]): string | undefined {
    const row = entry.row;
    const file = row.kind === FILE;
    switch (name) {
      case D('creationdate'):
        return new Date(row.created_at).toISOString();
      case D('displayname'):
        // The name the person addresses it by: a shared item's is its label under "Shared with me".
        return escapeXml(entry.path.slice(entry.path.lastIndexOf('/') + 1) || row.name);
      case D('getcontentlength'):
        return file ? String(row.size) : undefined;
      case D('getcontenttype'):
        return file ? escapeXml(row.mime_type ?? 'application/octet-stream') : undefined;
      case D('getetag'):
        return escapeXml(this.ctx.etag(entry));
      case D('getlastmodified'):
        return new Date(row.updated_at).toUTCString();
      case D('resourcetype'):
        return file ? '' : '<D:collection/>';
      case D('supportedlock'):
        return SUPPORTED_LOCK_XML;
      case D('lockdiscovery'):
        // Most listings hold no lock: no filtered array per entry then.
        if (locks.length === 0) return '';
        return covering(locks, entry.path)
          .map((l) => activeLockXml(l, this.ctx.hrefOfTreePath(l.path, false), this.ctx.lockService.clock.now()))
          .join('');
      case QUOTA_AVAILABLE:
        return this.quota ? String(this.quota.available) : undefined;
      case QUOTA_USED:
        return this.quota ? String(this.quota.used) : undefined;
      default:
        return undefined;
    }
  }

  /**
   * One DAV:response for an entry, added to `out`. Written by concatenation
   * into the caller's string: no array of property strings per entry to
   * join, and no closure per call (a 10,000-entry listing made 10,000 of
   * each; issue 19, less garbage per entry).
   */
  response(entry: Entry, href: string, req: Request, dead: PropertyRow[], locks: LockRow[], out = ''): string {
    let found = '';
    let missing = '';
    let anyFound = false;
    if (req.kind === 'propname') {
      for (const name of ALLPROP_LIVE) {
        if (this.live(name, entry, locks) === undefined) continue;
        found += `<D:${name.slice(6)}/>`;
        anyFound = true;
      }
      for (const p of dead) {
        found += emptyProperty(p.name);
        anyFound = true;
      }
    } else {
      const deadByName = dead.length ? new Map(dead.map((p) => [p.name, p.value])) : null;
      const extras = this.ctx.mount.extras;
      for (const name of this.names) {
        const value = LIVE.has(name) ? this.live(name, entry, locks) : extras?.names.has(name) ? extras.value(name, entry) : deadByName?.get(name);
        if (value === undefined) {
          if (req.kind === 'prop') missing += emptyProperty(name);
          continue;
        }
        anyFound = true;
        if (!LIVE.has(name)) found += value;
        else {
          // Live names are all `{DAV:}local`.
          const local = name.slice(6);
          found += value === '' ? `<D:${local}/>` : `<D:${local}>${value}</D:${local}>`;
        }
      }
      if (req.kind === 'allprop') {
        for (const p of dead) {
          if (req.include.includes(p.name)) continue;
          found += p.value;
          anyFound = true;
        }
      }
    }
    out += `<D:response><D:href>${escapeXml(href)}</D:href>`;
    if (anyFound || missing === '') out += `<D:propstat><D:prop>${found}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`;
    if (missing !== '') out += `<D:propstat><D:prop>${missing}</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>`;
    return `${out}</D:response>\n`;
  }
}

/** Whether answering `req` needs the dead properties read. */
export function needsDead(req: Request): boolean {
  return req.kind !== 'prop' || req.names.some((n) => !LIVE.has(n));
}

/** PROPFIND: a 207 multistatus of the resource and, for Depth 1, its members, streamed. */
export async function propfind(ctx: DavContext, repo: DavRepository, body: string): Promise<Readable> {
  const depth = ctx.header('depth');
  // §9.1: no Depth header means infinity, which we refuse like Apache does by default.
  if (depth !== '0' && depth !== '1') throw new DavError(403, 'PROPFIND with Depth: infinity is not supported', '<D:propfind-finite-depth/>');
  const req = await parsePropfind(body);
  const entry = await ctx.resolve();
  const locks = await ctx.locks();
  const writer = await PropertyWriter.create(ctx, req);
  const folder = entry.row.kind === FOLDER;
  const selfHref = ctx.hrefOfTreePath(entry.path, folder) ?? ctx.rootHref;
  await ctx.prepare([entry]);
  const dead = needsDead(req);
  const first = writer.response(entry, selfHref, req, dead ? ((await repo.properties([entry.row.id])).get(entry.row.id) ?? []) : [], locks);
  const files = ctx.files;
  // The members' dead properties, read once before the pages when they are few (null: with each page).
  const childProperties = dead && folder && depth === '1' ? await repo.propertiesOfChildren(entry.row.id, CHILD_PROPERTIES_AT_ONCE) : null;
  /**
   * One page of members as bytes, made before the next await: the page's
   * rows die young (a scavenge frees them) instead of living while the
   * socket drains and being promoted. Pieces of PIECE_CHARS characters keep
   * each string small: a string of a whole page would go to V8's
   * large-object space, which only a full collection frees. With the
   * properties read up front, nothing is awaited between the page's query
   * and its text: under a PROPFIND load, pages held across a property query
   * were promoted and filled the old generation (220 MB peak, session 14).
   */
  const renderPage = async (token: string | undefined): Promise<{ pieces: Buffer[]; next: string | undefined }> => {
    const page = await files.list(entry, PAGE, token);
    // Members mounted from elsewhere (team folders, shares), or all of them without the read above: read now.
    const elsewhere = !dead ? [] : childProperties ? page.entries.filter((e) => e.row.parent_id !== entry.row.id) : page.entries;
    const read = elsewhere.length ? await repo.properties(elsewhere.map((e) => e.row.id)) : null;
    await ctx.prepare(page.entries);
    const pieces: Buffer[] = [];
    let text = '';
    for (const child of page.entries) {
      // The last name of the member's path, not its row's: a shared item is addressed by its label.
      const href = selfHref + encodeURIComponent(child.path.slice(child.path.lastIndexOf('/') + 1)) + (child.row.kind === FOLDER ? '/' : '');
      text = writer.response(child, href, req, read?.get(child.row.id) ?? childProperties?.get(child.row.id) ?? NO_PROPERTIES, locks, text);
      if (text.length >= PIECE_CHARS) {
        pieces.push(Buffer.from(text));
        text = '';
      }
    }
    if (text !== '') pieces.push(Buffer.from(text));
    return { pieces, next: page.nextPageToken ?? undefined };
  };
  async function* generate(): AsyncGenerator<Buffer> {
    yield Buffer.from(`${XML_HEADER}<D:multistatus xmlns:D="DAV:"${ctx.mount.extras?.namespaces ?? ''}>\n${first}`);
    if (folder && depth === '1') {
      let token: string | undefined;
      do {
        const { pieces, next } = await renderPage(token);
        // Handed on one by one, so each piece is free once the socket has it.
        for (let piece = pieces.shift(); piece; piece = pieces.shift()) yield piece;
        token = next;
      } while (token);
      // At the top of the person's whole tree: "Shared with me" (and what else other features mount there).
      if (entry.path === '/' && entry.row.parent_id === null && entry.row.owner_id === ctx.userId) {
        const extras = await files.atRoot(ctx.userId);
        await ctx.prepare(extras);
        if (extras.length) yield Buffer.from(extras.map((e) => writer.response(e, selfHref + encodeURIComponent(e.path.slice(1)) + '/', req, NO_PROPERTIES, locks)).join(''));
      }
    }
    yield Buffer.from('</D:multistatus>\n');
  }
  return Readable.from(generate(), { objectMode: false });
}

/** PROPPATCH: all instructions succeed together or none is applied (§9.2). */
export async function proppatch(ctx: DavContext, repo: DavRepository, body: string): Promise<string> {
  const root = await parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'propertyupdate') throw new DavError(400, 'The body must be a DAV:propertyupdate element');
  const entry = await ctx.resolve();
  // Applied in document order: a later instruction on the same name wins.
  const final = new Map<string, string | null>();
  const forbidden: string[] = [];
  for (const op of elements(root)) {
    if (op.ns !== DAV_NS || (op.local !== 'set' && op.local !== 'remove')) throw new DavError(400, 'DAV:propertyupdate holds only set and remove');
    const prop = elements(op).find((e) => e.ns === DAV_NS && e.local === 'prop');
    if (!prop) throw new DavError(400, `DAV:${op.local} needs a DAV:prop`);
    for (const p of elements(prop)) {
      const name = clark(p);
      if (LIVE.has(name)) forbidden.push(name);
      else final.set(name, op.local === 'set' ? serializeElement(p) : null);
    }
  }
  const href = ctx.hrefOfTreePath(entry.path, entry.row.kind === FOLDER) ?? ctx.rootHref;
  const names = (list: string[]) => list.map(emptyProperty).join('');
  let inner: string;
  if (forbidden.length) {
    inner =
      `<D:propstat><D:prop>${names(forbidden)}</D:prop><D:status>HTTP/1.1 403 Forbidden</D:status><D:error><D:cannot-modify-protected-property/></D:error></D:propstat>` +
      (final.size ? `<D:propstat><D:prop>${names([...final.keys()])}</D:prop><D:status>HTTP/1.1 424 Failed Dependency</D:status></D:propstat>` : '');
  } else {
    const set = [...final].filter(([, v]) => v !== null).map(([name, value]) => ({ name, value: value! }));
    const remove = [...final].filter(([, v]) => v === null).map(([name]) => name);
    try {
      await repo.patchProperties(ctx.userId, entry.row.id, set, remove, admitProperties);
      inner = `<D:propstat><D:prop>${names([...final.keys()])}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`;
    } catch (err) {
      if (!(err instanceof DavError) || err.status !== 507) throw err;
      // §9.2.1: 507 for the properties that could not be recorded, 424 for the rest of the request.
      const setNames = set.map((p) => p.name);
      inner =
        `<D:propstat><D:prop>${names(setNames)}</D:prop><D:status>HTTP/1.1 507 Insufficient Storage</D:status><D:responsedescription>${escapeXml(err.message)}</D:responsedescription></D:propstat>` +
        (remove.length ? `<D:propstat><D:prop>${names(remove)}</D:prop><D:status>HTTP/1.1 424 Failed Dependency</D:status></D:propstat>` : '');
    }
  }
  return `${XML_HEADER}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(href)}</D:href>${inner}</D:response></D:multistatus>\n`;
}
