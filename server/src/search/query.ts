// The search box's language, parsed into plain substrings: words are ANDed,
// "a phrase" must appear as written (in order), -word and -"a phrase" exclude.
// Nothing else is syntax: OR, NEAR, *, parentheses and stray quotes are text
// to find, so no input can reach the index as a query of its own (the
// repository passes every term as a quoted FTS5 string or an escaped LIKE
// pattern, never as syntax).

/** At most this many terms are used; the rest of a very long query is ignored. */
export const MAX_TERMS = 16;
/** A term longer than this is cut (a substring of it still narrows the search). */
export const MAX_TERM_CHARS = 100;

export interface ParsedQuery {
  /** Substrings every hit contains (lower-cased, whitespace collapsed). */
  include: string[];
  /** Substrings no hit contains. */
  exclude: string[];
}

function clean(term: string): string {
  return [...term.replace(/\s+/gu, ' ').trim().toLowerCase()].slice(0, MAX_TERM_CHARS).join('').trim();
}

export function parseQuery(q: string): ParsedQuery {
  const include: string[] = [];
  const exclude: string[] = [];
  // A quoted run (closed or running to the end), or a run of non-space; either may start with "-".
  const token = /(-?)"([^"]*)"?|(-?)([^\s"]+)/gu;
  for (const m of q.normalize('NFC').matchAll(token)) {
    const negative = (m[1] ?? m[3]) === '-';
    const term = clean(m[2] ?? m[4] ?? '');
    if (term === '' || term === '-') continue;
    const list = negative ? exclude : include;
    if (!list.includes(term)) list.push(term);
    if (include.length + exclude.length >= MAX_TERMS) break;
  }
  return { include, exclude };
}
