// The text of a PDF through pdfjs-dist's legacy build (the one for Node 20),
// page by page until the text cap. Runs inside the extraction worker: a PDF
// that makes the parser loop is ended by the worker's time cap, one that
// balloons by its memory cap. No fonts are loaded, nothing is evaluated.
import { ExtractError } from './office.js';

/** Pages past this are not read (the text cap usually ends it first). */
export const MAX_PAGES = 2000;

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

export async function pdfText(data: Uint8Array, maxChars: number): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js's own "worker" runs in this thread (we are the worker): loaded once, not per document.
  // (A string specifier: the package ships no types for this module.)
  const workerModule: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= await import(workerModule);
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    throw new ExtractError(`not a readable PDF: ${(err as Error).message.slice(0, 120)}`);
  }
  try {
    const out: string[] = [];
    let chars = 0;
    const pages = Math.min(doc.numPages, MAX_PAGES);
    for (let n = 1; n <= pages && chars < maxChars; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items as TextItemLike[]) {
        if (typeof item.str === 'string') {
          out.push(item.str);
          chars += item.str.length;
        }
        if (item.hasEOL) out.push('\n');
      }
      out.push('\n');
      page.cleanup();
    }
    return out.join('');
  } finally {
    await doc.destroy();
  }
}
