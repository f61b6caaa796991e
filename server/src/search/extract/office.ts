// The text of office documents, from their zip and XML parts: docx, xlsx and
// pptx (OOXML), odt, ods and odp (ODF). Only the parts that hold the text are
// unzipped, and only when their declared sizes fit the caps (a zip bomb is
// refused from its directory, before any inflation); the XML parser expands no
// entities it is not given (saxes reads no DTD), so an entity bomb is an error.
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { SaxesParser } from 'saxes';

export class ExtractError extends Error {}

/** The most bytes of XML unzipped from one document, all parts together. */
export const MAX_UNZIPPED = 64 * 1024 * 1024;

type Flavour = 'docx' | 'xlsx' | 'pptx' | 'odf';

function partsOf(flavour: Flavour): (name: string) => boolean {
  switch (flavour) {
    case 'docx':
      return (n) => /^word\/(document|footnotes|endnotes|header\d*|footer\d*)\.xml$/u.test(n);
    case 'xlsx':
      return (n) => n === 'xl/sharedStrings.xml' || /^xl\/worksheets\/sheet\d+\.xml$/u.test(n);
    case 'pptx':
      return (n) => /^ppt\/(slides\/slide|notesSlides\/notesSlide)\d+\.xml$/u.test(n);
    case 'odf':
      return (n) => n === 'content.xml';
  }
}

/** Slides and sheets in their natural order (slide2 before slide10). */
function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** Elements whose end is a line break; elements whose start or end is a space. */
const BREAK = new Set(['p', 'h', 'si', 'tr', 'table-row', 'br', 'line-break']);
const SPACE = new Set(['tab', 's', 'table-cell', 'c']);

/**
 * The text of one XML part. OOXML keeps words in `t` elements (w:t, a:t, the
 * shared strings' t; field codes and numbers are elsewhere); ODF keeps them in
 * any element of the body.
 */
function xmlText(xml: string, onlyT: boolean, out: string[], budget: { chars: number }): void {
  const parser = new SaxesParser({ xmlns: false });
  let inT = 0;
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('error', (err) => {
    throw new ExtractError(`malformed XML: ${err.message.slice(0, 120)}`);
  });
  parser.on('opentag', (tag) => {
    const n = local(tag.name);
    if (n === 't') inT++;
    if (SPACE.has(n)) out.push(' ');
    if (tag.isSelfClosing && BREAK.has(n)) out.push('\n');
  });
  parser.on('closetag', (tag) => {
    const n = local(tag.name);
    if (n === 't') inT--;
    if (BREAK.has(n)) out.push('\n');
  });
  parser.on('text', (t) => {
    if (onlyT && inT <= 0) return;
    out.push(t);
    budget.chars -= t.length;
  });
  // Fed in slices so the text cap can stop a huge part early.
  for (let i = 0; i < xml.length && budget.chars > 0; i += 1 << 20) parser.write(xml.slice(i, i + (1 << 20)));
  if (budget.chars > 0) parser.close();
}

export function officeText(data: Uint8Array, flavour: Flavour, maxChars: number): string {
  const wanted = partsOf(flavour);
  let declared = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(data, {
      filter: (f: UnzipFileInfo) => {
        if (!wanted(f.name)) return false;
        declared += f.originalSize;
        if (declared > MAX_UNZIPPED) throw new ExtractError(`unzips to more than ${MAX_UNZIPPED} bytes`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError(`not a readable zip: ${(err as Error).message.slice(0, 120)}`);
  }
  const names = Object.keys(unzipped).sort(naturalOrder);
  if (names.length === 0) throw new ExtractError('no text parts (not a document of this type)');
  const out: string[] = [];
  const budget = { chars: maxChars };
  const decoder = new TextDecoder('utf-8');
  for (const name of names) {
    if (budget.chars <= 0) break;
    // A part bigger than its declared size was refused by fflate; one within it is decoded as UTF-8 (XML's default).
    xmlText(decoder.decode(unzipped[name]), flavour !== 'odf', out, budget);
    out.push('\n');
  }
  return out.join('');
}
