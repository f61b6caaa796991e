// Real documents made at test time, each holding the text it is given: a PDF
// written by hand (one page, a text object, correct xref offsets), and the
// zip-of-XML office formats with only the parts a reader needs.
import { zipSync, strToU8 } from 'fflate';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PDF string literal, with its delimiters and backslash escaped. */
const pdfString = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** A page's content stream showing `lines` (ASCII) in Helvetica, one under the other. */
function textStream(lines: string[]): string {
  const stream = ['BT', '/F1 12 Tf', '72 720 Td', '14 TL', ...lines.map((l) => `${pdfString(l)} '`), 'ET'].join('\n');
  return `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
}

/** A PDF of these objects (object n is objects[n - 1], the first the catalog), with correct xref offsets. */
function pdfOf(objects: string[]): Buffer {
  const parts = ['%PDF-1.4\n'];
  let size = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const part = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(part);
    size += Buffer.byteLength(part, 'latin1');
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(tail);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A one-page PDF showing `lines` (ASCII) in Helvetica. */
export function makePdf(lines: string[]): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    textStream(lines),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** A PDF of `pages` pages, each showing `lines` (ASCII): seconds of work for a reader that reads them all. */
export function makeLongPdf(pages: number, lines: string[]): Buffer {
  // 1 catalog, 2 page tree, 3 font, then a page and its contents per page (all pages share one stream's text).
  const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const content = textStream(lines);
  for (let i = 0; i < pages; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.push(content);
  }
  return pdfOf(objects);
}

const CT = (parts: string) => `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`;
const RELS = (type: string, target: string) => `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/></Relationships>`;

export function makeDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  return Buffer.from(zipSync({
    '[Content_Types].xml': strToU8(CT('<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>')),
    '_rels/.rels': strToU8(RELS('officeDocument', 'word/document.xml')),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  }));
}

export function makeXlsx(cells: string[]): Buffer {
  const sst = cells.map((c) => `<si><t>${esc(c)}</t></si>`).join('');
  const row = cells.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" t="s"><v>${i}</v></c>`).join('');
  return Buffer.from(zipSync({
    '[Content_Types].xml': strToU8(CT('<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>')),
    '_rels/.rels': strToU8(RELS('officeDocument', 'xl/workbook.xml')),
    'xl/workbook.xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="Sheet1" sheetId="1"/></sheets></workbook>'),
    'xl/sharedStrings.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${cells.length}" uniqueCount="${cells.length}">${sst}</sst>`),
    'xl/worksheets/sheet1.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${row}</row></sheetData></worksheet>`),
  }));
}

export function makePptx(slides: string[]): Buffer {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(CT('')),
    '_rels/.rels': strToU8(RELS('officeDocument', 'ppt/presentation.xml')),
  };
  slides.forEach((s, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${esc(s)}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`);
  });
  return Buffer.from(zipSync(files));
}

export function makeOdt(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<text:p>${esc(p)}</text:p>`).join('');
  return Buffer.from(zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'META-INF/manifest.xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'),
    'content.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${body}</office:text></office:body></office:document-content>`),
  }));
}

/** A zip that unzips its one document part to `mb` MiB of zeros (a few hundred KB on the wire). */
export function makeZipBomb(mb: number): Buffer {
  return Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(mb * 1024 * 1024) }, { level: 9 }));
}

/** A PDF whose page tree points at itself: a parser that follows it naively never ends. */
export function makeLoopingPdf(): Buffer {
  const good = makePdf(['loop']).toString('latin1');
  return Buffer.from(good.replace('/Kids [3 0 R] /Count 1', '/Kids [2 0 R 2 0 R] /Count 99999999'), 'latin1');
}
