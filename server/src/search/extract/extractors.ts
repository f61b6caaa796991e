// Bytes of one file to its indexable text, by kind. Runs in the extraction
// worker (worker.ts); importable on its own for unit tests.
import { decodeText, looksLikeText } from './text.js';
import { htmlToText } from './html.js';
import { ExtractError, officeText } from './office.js';
import { pdfText } from './pdf.js';
import type { Kind } from './formats.js';

export { ExtractError };

/** Control characters (a NUL in a text would be refused by PostgreSQL) and whitespace runs become one space. */
export function normalizeText(text: string, maxChars: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/gu, ' ').trim();
  if (flat.length <= maxChars) return flat;
  // Not in the middle of a surrogate pair.
  const cut = flat.slice(0, maxChars);
  return /[\ud800-\udbff]$/u.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The text, or null when the file is not text at all (a sniffed binary).
 * Plain text and HTML are decoded from their first 4 bytes per kept character
 * at most (the longest UTF-8 or GB18030 character), not whole.
 */
export async function extractText(kind: Kind, data: Uint8Array, maxChars: number): Promise<string | null> {
  const maxBytes = maxChars * 4;
  switch (kind) {
    case 'text':
      return normalizeText(decodeText(data, maxBytes), maxChars);
    case 'sniff':
      return looksLikeText(data) ? normalizeText(decodeText(data, maxBytes), maxChars) : null;
    case 'html':
      return normalizeText(htmlToText(decodeText(data, maxBytes)), maxChars);
    case 'pdf':
      return normalizeText(await pdfText(data, maxChars), maxChars);
    case 'docx':
    case 'xlsx':
    case 'pptx':
    case 'odf':
      return normalizeText(officeText(data, kind, maxChars), maxChars);
    case 'none':
      return null;
  }
}
