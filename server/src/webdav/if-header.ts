// The If header (RFC 4918 §10.4): lists of state tokens and entity tags,
// optionally tagged with the resource they apply to. A list holds when every
// condition in it holds; the header holds when any list does (§10.4.3). Every
// lock token that appears in the header counts as submitted (§10.4.1 and
// §7.5), whether or not its list held.
import { DavError } from './errors.js';

export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

export interface IfList {
  /** The tagged resource URI, or undefined for a no-tag list (the request URI). */
  resource?: string;
  conditions: IfCondition[];
}

const MAX_IF_LENGTH = 16 * 1024;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;

/** Parses the header; a malformed one is 400 (§10.4.2 grammar). */
export function parseIf(header: string): IfList[] {
  if (header.length > MAX_IF_LENGTH) throw new DavError(400, 'The If header is too long');
  const lists: IfList[] = [];
  let i = 0;
  let resource: string | undefined;
  let sawTagged = false;
  let sawUntagged = false;
  const bad = () => new DavError(400, 'Malformed If header');
  const skipSpace = () => {
    while (i < header.length && /\s/.test(header[i]!)) i++;
  };
  const until = (end: string): string => {
    const close = header.indexOf(end, i);
    if (close < 0) throw bad();
    const value = header.slice(i, close);
    i = close + 1;
    return value;
  };
  // A Resource-Tag must be followed by at least one List (Tagged-list = Resource-Tag 1*List).
  let tagAwaitsList = false;
  /** `[W/]"…"]` after the `[`: RFC 9110 §8.8.3 entity-tag (etagc excludes only DQUOTE), then the `]`. */
  const entityTag = (): string => {
    const start = i;
    if (header.startsWith('W/', i)) i += 2;
    if (header[i] !== '"') throw bad();
    const close = header.indexOf('"', i + 1);
    if (close < 0 || header[close + 1] !== ']') throw bad();
    i = close + 2;
    return header.slice(start, close + 1);
  };
  for (;;) {
    skipSpace();
    if (i >= header.length) break;
    const c = header[i]!;
    if (c === '<') {
      if (tagAwaitsList) throw bad();
      i++;
      resource = until('>');
      if (resource === '') throw bad();
      sawTagged = true;
      tagAwaitsList = true;
      continue;
    }
    if (c !== '(') throw bad();
    i++;
    if (!resource) sawUntagged = true;
    tagAwaitsList = false;
    const conditions: IfCondition[] = [];
    for (;;) {
      skipSpace();
      if (i >= header.length) throw bad();
      if (header[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skipSpace();
      }
      if (header[i] === '<') {
        i++;
        // State-token = Coded-URL: an absolute URI (a scheme, then ':').
        const token = until('>');
        if (!ABSOLUTE_URI.test(token)) throw bad();
        conditions.push({ not, token });
      } else if (header[i] === '[') {
        i++;
        conditions.push({ not, etag: entityTag() });
      } else {
        throw bad();
      }
    }
    if (conditions.length === 0) throw bad();
    lists.push({ resource, conditions });
  }
  if (tagAwaitsList) throw bad();
  // §10.4.2: a header is either all tagged or all untagged lists.
  if (lists.length === 0 || (sawTagged && sawUntagged)) throw bad();
  return lists;
}

/** Every state token named anywhere in the header (lock tokens submitted with the request). */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  const out = new Set<string>();
  for (const l of lists) for (const c of l.conditions) if (c.token !== undefined) out.add(c.token);
  return out;
}

export interface ResourceState {
  /** The resource's entity tag, or null when it does not exist. */
  etag: string | null;
  /** Lock tokens of the locks that apply to it. */
  tokens: ReadonlySet<string>;
}

/** Whether the header holds; `stateOf` gives the state of the request URI (undefined) or a tagged URI. */
export async function evaluateIf(lists: readonly IfList[], stateOf: (resource: string | undefined) => Promise<ResourceState | null>): Promise<boolean> {
  for (const list of lists) {
    const state = await stateOf(list.resource);
    if (state === null) continue;
    const holds = list.conditions.every((c) => {
      const match = c.token !== undefined ? state.tokens.has(c.token) : state.etag !== null && stripWeak(c.etag!) === stripWeak(state.etag);
      return c.not ? !match : match;
    });
    if (holds) return true;
  }
  return false;
}

function stripWeak(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}
