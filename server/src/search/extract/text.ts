// Bytes of a text file to a string: UTF-8 or UTF-16 by their byte-order mark,
// otherwise UTF-8 when it decodes cleanly, UTF-16 when every other byte is
// NUL (ASCII in UTF-16 without a mark), then GB18030 (Chinese files saved by
// older Windows tools), and windows-1252 as the decoding that never fails.

function decoder(label: string, fatal: boolean): TextDecoder | null {
  try {
    return new TextDecoder(label, { fatal });
  } catch {
    return null; // a Node without full ICU lacks gb18030
  }
}

function tryDecode(label: string, bytes: Uint8Array, stream: boolean): string | null {
  const d = decoder(label, true);
  if (!d) return null;
  try {
    return d.decode(bytes, { stream });
  } catch {
    return null;
  }
}

/** Which half of the byte pairs is mostly NUL in a sample: 'le' (odd bytes), 'be' (even bytes) or null. */
function utf16Guess(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.3 && evenNul < pairs * 0.05) return 'utf-16le';
  if (evenNul > pairs * 0.3 && oddNul < pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * At most `maxBytes` of them are decoded: the index keeps a bounded prefix of
 * the text anyway, and decoding a whole 40 MB log first needed more memory
 * than the extraction worker is given. A cut may fall inside a character: with
 * `stream` the decoder holds those bytes back instead of calling the text
 * invalid (which would have sent a UTF-8 file to the GB18030 guess).
 */
export function decodeText(whole: Uint8Array, maxBytes = Infinity): string {
  const stream = whole.length > maxBytes;
  const bytes = stream ? whole.subarray(0, maxBytes) : whole;
  const plain = (label: string, from = 0) => new TextDecoder(label).decode(bytes.subarray(from), { stream });
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return plain('utf-8', 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return plain('utf-16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return plain('utf-16be', 2);
  const wide = utf16Guess(bytes);
  if (wide) return plain(wide);
  return tryDecode('utf-8', bytes, stream) ?? tryDecode('gb18030', bytes, stream) ?? plain('windows-1252');
}

/** Whether a file of unknown type looks like text: no NUL in its first 8 KiB (or UTF-16 by mark or shape). */
export function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || utf16Guess(head)) return true;
  return !head.includes(0);
}
