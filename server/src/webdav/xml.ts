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
/**
 * What one body may hold (issue 19): the parser stops at the first element,
 * attribute or node past a limit, so a hostile body costs at most the bytes
 * read up to that point. Depth matters twice: saxes resolves each name's
 * prefix by walking the open elements, so an unbounded depth made the whole
 * parse cost depth² on the event loop.
 */
export const XML_LIMITS = {
  depth: 64,
  /** Elements, text and CDATA pieces, comments and processing instructions. */
  nodes: 10_000,
  /** Attributes, namespace declarations included, over the whole body. */
  attributes: 10_000,
} as const;
/** The body is fed to the parser in pieces of this many characters ... */
const PIECE = 4 * 1024;
/** ... and the event loop gets a turn whenever this many milliseconds of parsing have gone by. */
const SLICE_MS = 4;

class XmlLimitError extends Error {}

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

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Parses a whole document; returns the root element. Linear in the body:
 * every limit of XML_LIMITS is checked as the parser reaches it (a handler
 * that throws stops saxes where it is), and the body goes in by pieces, with
 * a turn of the event loop every few milliseconds so other requests are served.
 */
export async function parseXml(text: string): Promise<XmlElement> {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  let open = 0;
  let nodes = 0;
  let attributes = 0;
  const countNode = () => {
    if (++nodes > XML_LIMITS.nodes) throw new XmlLimitError(`more than ${XML_LIMITS.nodes} nodes`);
  };
  parser.on('error', (err) => {
    failure ??= err;
  });
  // Before the attributes and the name's namespace are worked out: a body nested too deeply stops here.
  parser.on('opentagstart', () => {
    if (++open > XML_LIMITS.depth) throw new XmlLimitError(`nested more than ${XML_LIMITS.depth} levels deep`);
    countNode();
  });
  parser.on('attribute', () => {
    if (++attributes > XML_LIMITS.attributes) throw new XmlLimitError(`more than ${XML_LIMITS.attributes} attributes`);
  });
  parser.on('opentag', (tag) => {
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
    open--;
    stack.pop();
  });
  const addText = (t: string) => {
    countNode();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('comment', countNode);
  parser.on('processinginstruction', countNode);
  try {
    let sliceStart = performance.now();
    for (let at = 0; at < text.length && !failure; at += PIECE) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      parser.write(text.slice(at, at + PIECE));
    }
    if (!failure) parser.close();
  } catch (err) {
    if (err instanceof XmlLimitError) throw new DavError(400, `The XML body is too large to process: ${err.message}`);
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
