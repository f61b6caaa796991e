// A snippet: a window of a document's text with <mark> around each place a
// searched term appears, and everything else HTML-escaped (the text came from
// anyone's file: a "<script>" in it must reach the page as text).

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `window` started at character `start` (1-based) of the text and may stop
 * before its end (`cut`). Ends that fall inside a word are trimmed to a space
 * when one is near, and shown as "…".
 */
export function snippet(window: string, start: number, cut: boolean, terms: readonly string[]): string {
  let text = window;
  if (start > 1) {
    const space = text.indexOf(' ');
    if (space >= 0 && space < 20) text = text.slice(space + 1);
  }
  if (cut) {
    const space = text.lastIndexOf(' ');
    if (space > text.length - 20) text = text.slice(0, space);
  }
  const body = highlight(text, terms);
  return `${start > 1 ? '…' : ''}${body}${cut ? '…' : ''}`;
}

export function highlight(text: string, terms: readonly string[]): string {
  const wanted = [...terms].filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return escapeHtml(text);
  const re = new RegExp(wanted.map(escapeRegExp).join('|'), 'giu');
  let out = '';
  let at = 0;
  for (const m of text.matchAll(re)) {
    out += `${escapeHtml(text.slice(at, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}
