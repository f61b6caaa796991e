// XML for WebDAV: a strict, namespace-aware parser for request bodies
// (PROPFIND, PROPPATCH, LOCK) into a small element tree, and the writing
// helpers for responses. A body that is not well-formed, or that uses an
// undeclared prefix, is a DavError 400 (RFC 4918 §8.2); nothing is changed.
import { SaxesParser } from 'saxes';
import { DavError } from './errors.js';

export const DAV_NS = 'DAV:';

export interface XmlElement {
  ns: string;
  local: string;
  attrs: { ns: string; local: string; value: string }[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Bodies larger than this are refused (413): properties and lock owners are small. */
export const MAX_XML_BYTES = 1024 * 1024;
const MAX_DEPTH = 64;

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter(isElement);
}

export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elements(el).find((c) => c.ns === ns && c.local === local);
}

export function clark(el: { ns: string; local: string }): string {
  return `{${el.ns}}${el.local}`;
}

export function textOf(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/** Parses a whole document; returns the root element. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) {
      failure ??= new Error('nested too deeply');
      return;
    }
    const el: XmlElement = {
      ns: tag.uri ?? '',
      local: tag.local ?? tag.name,
      attrs: Object.values(tag.attributes)
        .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
        .map((a) => ({ ns: a.uri ?? '', local: a.local, value: a.value })),
      children: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (t) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  });
  parser.on('cdata', (t) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  });
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure || !root) throw new DavError(400, `The XML body is not well-formed${failure ? `: ${failure.message.split('\n')[0]}` : ''}`);
  return root;
}

// ---- writing ------------------------------------------------------------

export function escapeXml(s: string): string {
  return s.replace(/[&<>"\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#13;'));
}

/**
 * Serialises an element with its own namespace declarations, so the text is
 * self-contained: a dead property is stored like this and returned as is
 * inside any response (RFC 4918 §4.3: namespaces and values are preserved).
 */
export function serializeElement(el: XmlElement): string {
  const out: string[] = [];
  const write = (node: XmlElement, scope: Map<string, string>) => {
    const local = new Map(scope);
    const decls: string[] = [];
    const prefixFor = (ns: string): string => {
      const known = local.get(ns);
      if (known !== undefined) return known;
      const p = `ns${local.size}`;
      local.set(ns, p);
      decls.push(` xmlns:${p}="${escapeXml(ns)}"`);
      return p;
    };
    let name: string;
    if (node.ns === '') {
      // The empty namespace cannot have a prefix: reset the default namespace on this element.
      name = node.local;
      if (local.get('') !== '') decls.push(' xmlns=""');
      local.set('', '');
    } else {
      name = `${prefixFor(node.ns)}:${node.local}`;
    }
    const attrs = node.attrs.map((a) => ` ${a.ns ? `${prefixFor(a.ns)}:` : ''}${a.local}="${escapeXml(a.value)}"`).join('');
    out.push(''); // placeholder index for the start tag
    const startIndex = out.length - 1;
    for (const c of node.children) {
      if (typeof c === 'string') out.push(escapeXml(c));
      else write(c, local);
    }
    out[startIndex] = `<${name}${decls.join('')}${attrs}${node.children.length ? '>' : '/>'}`;
    if (node.children.length) out.push(`</${name}>`);
  };
  write(el, new Map());
  return out.join('');
}

/** An empty element naming a property, for propname answers and failed properties. */
export function emptyProperty(clarkName: string): string {
  const close = clarkName.indexOf('}');
  const ns = clarkName.slice(1, close);
  const local = clarkName.slice(close + 1);
  if (ns === DAV_NS) return `<D:${local}/>`;
  if (ns === '') return `<${local} xmlns=""/>`;
  return `<X:${local} xmlns:X="${escapeXml(ns)}"/>`;
}

export const XML_HEADER = '<?xml version="1.0" encoding="utf-8"?>\n';

/** A `DAV:error` body naming a precondition or postcondition (RFC 4918 §16). */
export function errorBody(conditionXml: string): string {
  return `${XML_HEADER}<D:error xmlns:D="DAV:">${conditionXml}</D:error>`;
}
