// The text of an HTML page, as a reader sees it: scripts, styles, templates
// and comments are dropped (a planted <script> is never indexed, so it can
// never come back in a snippet), tags become spaces, entities are decoded.
// A regular-expression pass, not a DOM: it runs on hostile input in linear
// time and never fetches or executes anything.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', hellip: '…', mdash: '—', ndash: '–', laquo: '«', raquo: '»', ldquo: '“', rdquo: '”', lsquo: '‘', rsquo: '’', middot: '·', euro: '€' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/giu, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?(-->|$)/gu, ' ')
      .replace(/<(script|style|template|noscript|svg|head)\b[\s\S]*?(<\/\1\s*>|$)/giu, ' ')
      .replace(/<[^>]*>?/gu, ' '),
  );
}
