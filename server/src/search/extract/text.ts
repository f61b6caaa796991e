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

function tryDecode(label: string, bytes: Uint8Array): string | null {
  const d = decoder(label, true);
  if (!d) return null;
  try {
    return d.decode(bytes);
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

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const wide = utf16Guess(bytes);
  if (wide) return new TextDecoder(wide).decode(bytes);
  return tryDecode('utf-8', bytes) ?? tryDecode('gb18030', bytes) ?? new TextDecoder('windows-1252').decode(bytes);
}

/** Whether a file of unknown type looks like text: no NUL in its first 8 KiB (or UTF-16 by mark or shape). */
export function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || utf16Guess(head)) return true;
  return !head.includes(0);
}
