/**
 * Reads a PDF's text back with an independent reader, pdf.js (pdfjs-dist,
 * Apache-2.0): one string per text item, and the whole page joined by new
 * lines. pdf.js applies the bidirectional algorithm itself, so Hebrew comes
 * back in logical order.
 */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<{ items: string[]; text: string; pages: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false })
    .promise;
  const items: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const tc = await page.getTextContent();
    for (const i of tc.items) if ('str' in i && i.str.trim()) items.push(i.str);
  }
  await doc.destroy();
  return { items, text: items.join('\n'), pages: doc.numPages };
}
