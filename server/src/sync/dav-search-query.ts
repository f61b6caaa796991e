// The body of a WebDAV SEARCH (RFC 5323 basicsearch) as the Nextcloud and
// ownCloud apps send it (api-contract §14, docs/features/sync.md "SEARCH"),
// read into a query Cirrus can run: which properties to answer, the scope
// (a folder and a depth), a condition tree over the properties it can
// search, an order and a limit. Anything else is a DavError 400 naming what
// is not supported: never a query that silently means something else.
import { DavError } from '../webdav/errors.js';
import { DAV_NS, child, clark, elements, parseXml, textOf, type XmlElement } from '../webdav/xml.js';
import { NC_NS, OC_NS } from './dav-mount.js';

/** The properties a condition or an order may name, by what they are of a row. */
export type SearchProperty = 'name' | 'type' | 'modified' | 'created' | 'size' | 'fileid' | 'favorite' | 'folder';

const PROPERTIES: ReadonlyMap<string, SearchProperty> = new Map([
  [`{${DAV_NS}}displayname`, 'name'],
  [`{${DAV_NS}}getcontenttype`, 'type'],
  [`{${DAV_NS}}getlastmodified`, 'modified'],
  [`{${DAV_NS}}getcontentlength`, 'size'],
  [`{${DAV_NS}}resourcetype`, 'folder'],
  [`{${OC_NS}}size`, 'size'],
  [`{${OC_NS}}fileid`, 'fileid'],
  [`{${OC_NS}}favorite`, 'favorite'],
  [`{${NC_NS}}upload_time`, 'created'],
  [`{${NC_NS}}creation_time`, 'created'],
]);

export type Comparison = 'eq' | 'lt' | 'lte' | 'gt' | 'gte' | 'like';

export type Condition =
  | { op: 'all' }
  | { op: 'and' | 'or'; of: Condition[] }
  | { op: 'not'; of: Condition }
  | { op: 'folder' }
  | { op: Comparison; prop: SearchProperty; value: string | number };

export interface SearchOrder {
  prop: Exclude<SearchProperty, 'fileid' | 'folder'>;
  descending: boolean;
}

export interface DavSearch {
  /** The properties to answer, by Clark name (allprop: the live set). */
  select: { kind: 'allprop'; include: string[] } | { kind: 'prop'; names: string[] };
  /** The scope's href as sent (resolved by the route against the person's files root). */
  scope: string;
  depth: '0' | '1' | 'infinity';
  where: Condition;
  orderBy: SearchOrder[];
  /** nresults, when the client gave one. */
  limit: number | null;
  /** Nextcloud's firstresult (paging), 0 without. */
  offset: number;
}

/** Conditions nested deeper than this are refused (a body is at most 1 MiB, but a deep tree costs a deep SQL expression). */
const MAX_DEPTH = 16;
/** Conditions in one query at most. */
const MAX_CONDITIONS = 200;

function bad(message: string): DavError {
  return new DavError(400, `SEARCH: ${message}`);
}

function only(el: XmlElement, what: string): XmlElement {
  const kids = elements(el);
  if (kids.length !== 1) throw bad(`${what} needs exactly one element`);
  return kids[0]!;
}

function propertyOf(el: XmlElement): { name: string; prop: SearchProperty } {
  const prop = child(el, DAV_NS, 'prop');
  if (!prop) throw bad(`DAV:${el.local} needs a DAV:prop`);
  const name = clark(only(prop, 'DAV:prop'));
  const known = PROPERTIES.get(name);
  if (!known) throw bad(`the property ${name} cannot be searched or ordered by`);
  return { name, prop: known };
}

/** A literal of `prop`: numbers as numbers (times in ms), text as it is. */
function literalOf(el: XmlElement, prop: SearchProperty): string | number {
  const lit = child(el, DAV_NS, 'literal') ?? child(el, DAV_NS, 'typed-literal');
  if (!lit) throw bad(`DAV:${el.local} needs a DAV:literal`);
  const raw = textOf(lit).trim();
  switch (prop) {
    case 'modified':
    case 'created': {
      // Unix seconds (what the apps send) or an HTTP / ISO date.
      const ms = /^-?\d{1,12}$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
      if (!Number.isFinite(ms)) throw bad(`"${raw.slice(0, 40)}" is not a time`);
      return ms;
    }
    case 'size':
    case 'favorite':
      if (!/^\d{1,16}$/.test(raw)) throw bad(`"${raw.slice(0, 40)}" is not a whole number`);
      return Number(raw);
    case 'fileid':
      return raw;
    default:
      return textOf(lit);
  }
}

function conditionOf(el: XmlElement, depth: number, count: { n: number }): Condition {
  if (depth > MAX_DEPTH) throw bad(`conditions nest at most ${MAX_DEPTH} deep`);
  if (++count.n > MAX_CONDITIONS) throw bad(`at most ${MAX_CONDITIONS} conditions`);
  if (el.ns !== DAV_NS) throw bad(`the operator ${clark(el)} is not supported`);
  switch (el.local) {
    case 'and':
    case 'or': {
      const of = elements(el).map((k) => conditionOf(k, depth + 1, count));
      if (of.length === 0) throw bad(`DAV:${el.local} needs at least one condition`);
      return { op: el.local, of };
    }
    case 'not':
      return { op: 'not', of: conditionOf(only(el, 'DAV:not'), depth + 1, count) };
    case 'is-collection':
      return { op: 'folder' };
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'like': {
      const { name, prop } = propertyOf(el);
      if (el.local === 'like' && prop !== 'name' && prop !== 'type') throw bad(`DAV:like compares text: ${name} is not`);
      if (prop === 'folder') throw bad(`${name} is answered, not searched: use DAV:is-collection`);
      if ((prop === 'fileid' || prop === 'favorite') && el.local !== 'eq') throw bad(`${name} is compared with DAV:eq only`);
      return { op: el.local, prop, value: literalOf(el, prop) };
    }
    default:
      throw bad(`the operator DAV:${el.local} is not supported`);
  }
}

function orderOf(el: XmlElement): SearchOrder[] {
  const out: SearchOrder[] = [];
  for (const order of elements(el)) {
    if (order.ns !== DAV_NS || order.local !== 'order') throw bad('DAV:orderby holds DAV:order elements');
    const { name, prop } = propertyOf(order);
    if (prop === 'fileid' || prop === 'folder') throw bad(`the results cannot be ordered by ${name}`);
    out.push({ prop, descending: child(order, DAV_NS, 'descending') !== undefined });
  }
  return out;
}

function countOf(el: XmlElement | undefined, what: string, max: number): number | null {
  if (!el) return null;
  const raw = textOf(el).trim();
  if (!/^\d{1,9}$/.test(raw)) throw bad(`${what} must be a whole number`);
  return Math.min(Number(raw), max);
}

/** Reads a SEARCH body; `maxResults` caps nresults, `maxOffset` firstresult. */
export async function parseDavSearch(body: string, maxResults: number, maxOffset: number): Promise<DavSearch> {
  if (body.trim() === '') throw bad('the body must be a DAV:searchrequest');
  const root = await parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'searchrequest') throw bad('the body must be a DAV:searchrequest');
  const basic = child(root, DAV_NS, 'basicsearch');
  // RFC 5323 §3: a grammar the server does not know is answered with this precondition.
  if (!basic) throw new DavError(422, 'SEARCH: only DAV:basicsearch is supported', '<D:search-grammar-supported/>');

  const selectEl = child(basic, DAV_NS, 'select');
  if (!selectEl) throw bad('DAV:basicsearch needs a DAV:select');
  const allprop = child(selectEl, DAV_NS, 'allprop');
  const propEl = child(selectEl, DAV_NS, 'prop');
  let select: DavSearch['select'];
  if (allprop) select = { kind: 'allprop', include: [] };
  else if (propEl) select = { kind: 'prop', names: elements(propEl).map(clark) };
  else throw bad('DAV:select needs DAV:prop or DAV:allprop');

  const from = child(basic, DAV_NS, 'from');
  const scopes = from ? elements(from).filter((e) => e.ns === DAV_NS && e.local === 'scope') : [];
  // RFC 5323 §5.4: one scope is what this server searches.
  if (scopes.length !== 1) throw new DavError(400, 'SEARCH: exactly one DAV:scope is supported', '<D:search-multiple-scope-supported/>');
  const scopeEl = scopes[0]!;
  const href = child(scopeEl, DAV_NS, 'href');
  if (!href || textOf(href).trim() === '') throw bad('DAV:scope needs a DAV:href');
  const depthEl = child(scopeEl, DAV_NS, 'depth');
  const depthRaw = depthEl ? textOf(depthEl).trim().toLowerCase() : 'infinity';
  if (depthRaw !== '0' && depthRaw !== '1' && depthRaw !== 'infinity') throw bad('DAV:depth is 0, 1 or infinity');

  const whereEl = child(basic, DAV_NS, 'where');
  const whereKids = whereEl ? elements(whereEl) : [];
  if (whereKids.length > 1) throw bad('DAV:where holds one condition (combine them with DAV:and)');
  const where: Condition = whereKids.length === 0 ? { op: 'all' } : conditionOf(whereKids[0]!, 1, { n: 0 });

  const orderEl = child(basic, DAV_NS, 'orderby');
  const limitEl = child(basic, DAV_NS, 'limit');
  const limit = limitEl ? countOf(child(limitEl, DAV_NS, 'nresults'), 'DAV:nresults', maxResults) : null;
  const offset = limitEl ? (countOf(child(limitEl, NC_NS, 'firstresult') ?? child(limitEl, OC_NS, 'firstresult') ?? child(limitEl, DAV_NS, 'firstresult'), 'firstresult', maxOffset) ?? 0) : 0;

  return { select, scope: textOf(href).trim(), depth: depthRaw, where, orderBy: orderEl ? orderOf(orderEl) : [], limit, offset };
}
