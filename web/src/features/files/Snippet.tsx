// A content match's snippet. The server sends HTML: the document's text
// escaped, with <mark>…</mark> around each match. It is never given to the
// page as HTML: the marks are split out and every other piece is unescaped
// to plain text, so React renders it as text (a "<script>" in a document is
// shown, not run), whatever the server sent.
import type { ReactNode } from 'react';

/** Characters of text kept before the first match, so that it shows on a phone's one line too. */
const LEAD = 16;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The snippet as pieces of plain text, each marked or not. */
export function parseSnippet(html: string): { text: string; mark: boolean }[] {
  const out: { text: string; mark: boolean }[] = [];
  let mark = false;
  for (const piece of html.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') mark = true;
    else if (piece === '</mark>') mark = false;
    else if (piece) out.push({ text: piece.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!), mark });
  }
  return out;
}

/** The pieces with the text ahead of the first match cut to about LEAD characters, from a word's start when one is near. */
export function leadTrimmed(pieces: { text: string; mark: boolean }[]): { text: string; mark: boolean }[] {
  const first = pieces[0];
  if (!first || first.mark || pieces.length < 2 || first.text.length <= LEAD) return pieces;
  let lead = first.text.slice(-LEAD);
  const space = lead.indexOf(' ');
  if (space >= 0 && space < LEAD / 2) lead = lead.slice(space + 1);
  return [{ text: `…${lead}`, mark: false }, ...pieces.slice(1)];
}

export function Snippet({ html }: { html: string }): ReactNode {
  return (
    <span className="cirrus-snippet" data-testid="snippet">
      {leadTrimmed(parseSnippet(html)).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}
