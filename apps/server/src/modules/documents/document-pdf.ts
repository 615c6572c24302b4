import { createRequire } from 'node:module';
import path from 'node:path';
import bidiFactory from 'bidi-js';
import { CURRENCY_SYMBOL, DocumentKind } from '@venue/domain';
import type { DocumentSnapshot } from './document-snapshot.js';
import { DOC_TEXT, methodName } from './document-text.js';

/**
 * The PDF of a document (docs/money.md "Documents"): A4, pdfkit (MIT) with
 * the DejaVu Sans fonts (dejavu-fonts-ttf, Bitstream Vera license: Hebrew,
 * Latin, digits and ₪) embedded as subsets. Hebrew documents are laid out
 * right to left; each line is reordered by the Unicode Bidirectional
 * Algorithm (bidi-js, UAX #9) so Hebrew words, digits, card numbers and
 * Latin names in one line show in reading order.
 */

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
/** The fonts every PDF of the server embeds (Hebrew, Latin, digits, ₪). */
export const FONT = path.join(FONT_DIR, 'DejaVuSans.ttf');
export const FONT_BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
const bidi = bidiFactory();

/** A4 in points and its margin. */
export const PAGE = { width: 595.28, height: 841.89, margin: 42 };
const FEATURES: PDFKit.Mixins.OpenTypeFeatures[] = ['kern'];
const HEBREW = /[\u0590-\u05FF\uFB1D-\uFB4F]/;

/** A run of a line in visual order: drawn left to right, one after the other. */
interface Run {
  text: string;
}

/**
 * Splits a line into runs in visual (left-to-right) order by UAX #9 with the
 * given paragraph direction. fontkit (inside pdfkit) reverses a run it
 * detects as Hebrew script, so a right-to-left run holding Hebrew letters is
 * handed over in logical order; every other run in visual order. Mirrored
 * characters (brackets) are swapped in right-to-left runs (by fontkit in Hebrew ones).
 */
export function visualRuns(text: string, rtl: boolean): Run[] {
  if (!text) return [];
  const levels = bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr');
  const chars = text.split('');
  const mirrored = bidi.getMirroredCharactersMap(text, levels.levels);
  const order = bidi.getReorderedIndices(text, levels);
  const runs: Run[] = [];
  let cur: number[] = [];
  let curOdd = false;
  const flush = () => {
    if (!cur.length) return;
    const visual = cur.map((i) => chars[i]).join('');
    // fontkit mirrors brackets in the runs it lays out right to left; the others are mirrored here.
    if (curOdd && HEBREW.test(visual)) runs.push({ text: [...visual].reverse().join('') });
    else runs.push({ text: cur.map((i) => mirrored.get(i) ?? chars[i]).join('') });
    cur = [];
  };
  for (const i of order) {
    const odd = (levels.levels[i] & 1) === 1;
    if (cur.length && odd !== curOdd) flush();
    curOdd = odd;
    cur.push(i);
  }
  flush();
  return runs;
}

/** Where a line sticks: its left edge, its right edge, or its centre at x. */
export type Align = 'left' | 'right' | 'center';

/** Draws one bidi line with its left edge at x (align 'left'), its right edge at x (align 'right') or centred on x. */
export function line(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  o: { rtl: boolean; size?: number; bold?: boolean; align?: Align },
): number {
  doc.font(o.bold ? 'bold' : 'regular').fontSize(o.size ?? 10);
  const runs = visualRuns(text, o.rtl);
  // `features` set: pdfkit lays the run out whole instead of word by word, so fontkit's reversal of
  // a Hebrew run covers the run (with its spaces), not each word.
  const widths = runs.map((r) => doc.widthOfString(r.text, { features: FEATURES }));
  const total = widths.reduce((a, b) => a + b, 0);
  let cx = o.align === 'right' ? x - total : o.align === 'center' ? x - total / 2 : x;
  runs.forEach((r, k) => {
    doc.text(r.text, cx, y, { lineBreak: false, features: FEATURES });
    cx += widths[k];
  });
  return total;
}

/** Money as printed: "1,234.50" (always two decimals, grouping by thousands). */
export function money(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Date and time in the club's time zone, "dd/mm/yyyy hh:mm". */
export function localDateTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  return `${p('day')}/${p('month')}/${p('year')} ${p('hour')}:${p('minute')}`;
}

/** Where the page's columns sit: the x of each column's reading-start edge, mirrored for right to left. */
function layout(rtl: boolean) {
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  /** x of a point `d` from the reading-start edge. */
  const at = (d: number) => (rtl ? right - d : left + d);
  /** Alignment that sticks to the reading-start edge, and the other one. */
  const start: Align = rtl ? 'right' : 'left';
  const end: Align = rtl ? 'left' : 'right';
  return { left, right, at, start, end, width: right - left };
}

/**
 * Renders a document to PDF.
 * @param snap the document as issued (document-snapshot.ts)
 * @param copy false for the first print (marked original / מקור), true for every later one (copy / העתק)
 * @returns the PDF file's bytes
 */
export async function renderDocumentPdf(snap: DocumentSnapshot, copy: boolean): Promise<Buffer> {
  const T = DOC_TEXT[snap.lang];
  const rtl = snap.lang === 'he';
  const title = `${T.title[snap.kind]} ${T.number} ${snap.number}`;
  // Loaded at the first document, not at every start (bench/restart.bench.mjs).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    lang: snap.lang === 'he' ? 'he-IL' : 'en',
    info: { Title: title, Author: snap.club.name, Creator: 'venue console' },
    autoFirstPage: true,
  });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  let y = drawHeader(doc, snap, title, copy);
  y = drawLines(doc, snap, y);
  y = drawTotals(doc, snap, y);
  drawPayments(doc, snap, y);
  drawFooter(doc, snap, copy, rtl);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** The club, the document's title and number, original/copy, date and customer; returns the next y. */
function drawHeader(doc: PDFKit.PDFDocument, snap: DocumentSnapshot, title: string, copy: boolean): number {
  const T = DOC_TEXT[snap.lang];
  const rtl = snap.lang === 'he';
  const L = layout(rtl);
  let y = PAGE.margin;
  line(doc, snap.club.name, L.at(0), y, { rtl, size: 18, bold: true, align: L.start });
  y += 26;
  const clubLines = [
    snap.club.companyNumber ? `${T.companyNumber} ${snap.club.companyNumber}` : '',
    snap.club.address,
    snap.club.invoiceEmail ? `${T.email}: ${snap.club.invoiceEmail}` : '',
  ].filter(Boolean);
  for (const l of clubLines) {
    line(doc, l, L.at(0), y, { rtl, size: 10, align: L.start });
    y += 14;
  }
  // Original / copy mark, on the opposite side of the club's name.
  const mark = copy ? T.copy : T.original;
  doc.font('bold').fontSize(14);
  const mw = Math.max(70, doc.widthOfString(mark) + 24);
  const mx = rtl ? L.left : L.right - mw;
  doc
    .lineWidth(1.5)
    .rect(mx, PAGE.margin, mw, 28)
    .stroke(copy ? '#777777' : '#000000');
  line(doc, mark, mx + mw / 2, PAGE.margin + 7, { rtl, size: 14, bold: true, align: 'center' });

  y += 10;
  doc.moveTo(L.left, y).lineTo(L.right, y).lineWidth(1).stroke('#000000');
  y += 14;
  line(doc, title, PAGE.width / 2, y, { rtl, size: 20, bold: true, align: 'center' });
  y += 34;
  line(doc, `${T.date}: ${localDateTime(snap.issuedAt, snap.timeZone)}`, L.at(0), y, { rtl, size: 10, align: L.start });
  y += 16;
  if (snap.customer) {
    const c = snap.customer;
    const parts = [`${T.customer}: ${c.name}`];
    if (c.personalId) parts.push(`${T.personalId} ${c.personalId}`);
    if (c.clientId != null) parts.push(`${T.clientNumber} ${c.clientId}`);
    line(doc, parts.join('   '), L.at(0), y, { rtl, size: 10, align: L.start });
    y += 16;
  }
  if (snap.refersTo) {
    const ref = T.refersTo(T.title[snap.refersTo.kind], snap.refersTo.number);
    line(doc, ref, L.at(0), y, { rtl, size: 10, bold: true, align: L.start });
    y += 16;
    if (snap.reason) {
      line(doc, `${T.reason}: ${snap.reason}`, L.at(0), y, { rtl, size: 10, align: L.start });
      y += 16;
    }
  }
  return y + 8;
}

/** Column positions of the lines table (distance of each column's far edge from the reading start). */
const COLS = [
  { key: 'description', from: 0, to: 200 },
  { key: 'quantity', from: 200, to: 240 },
  { key: 'unitPrice', from: 240, to: 320 },
  { key: 'beforeVat', from: 320, to: 400 },
  { key: 'vat', from: 400, to: 455 },
  { key: 'total', from: 455, to: 507 },
] as const;

/** The table of lines; returns the next y. */
function drawLines(doc: PDFKit.PDFDocument, snap: DocumentSnapshot, y0: number): number {
  const T = DOC_TEXT[snap.lang];
  const rtl = snap.lang === 'he';
  const L = layout(rtl);
  let y = y0;
  doc.rect(L.left, y - 4, L.width, 20).fill('#eeeeee');
  doc.fillColor('#000000');
  const head: Record<string, string> = {
    description: T.description,
    quantity: T.quantity,
    unitPrice: T.unitPrice,
    beforeVat: T.beforeVat,
    vat: T.vat,
    total: T.total,
  };
  const cell = (key: string, text: string, yy: number, bold = false) => {
    const c = COLS.find((x) => x.key === key)!;
    if (key === 'description') line(doc, text, L.at(c.from + 4), yy, { rtl, bold, size: 9.5, align: L.start });
    else line(doc, text, L.at(c.to), yy, { rtl, bold, size: 9.5, align: L.end });
  };
  for (const c of COLS) cell(c.key, head[c.key], y, true);
  y += 22;
  for (const l of snap.lines) {
    cell('description', l.description, y);
    cell('quantity', String(l.quantity), y);
    cell('unitPrice', money(l.unitPrice), y);
    cell('beforeVat', money(l.beforeVat), y);
    cell('vat', money(l.vat), y);
    cell('total', money(l.total), y);
    y += 18;
    doc
      .moveTo(L.left, y - 5)
      .lineTo(L.right, y - 5)
      .lineWidth(0.3)
      .stroke('#999999');
  }
  return y + 8;
}

/** Totals before VAT, VAT at its rate and the total; returns the next y. */
function drawTotals(doc: PDFKit.PDFDocument, snap: DocumentSnapshot, y0: number): number {
  const T = DOC_TEXT[snap.lang];
  const rtl = snap.lang === 'he';
  const L = layout(rtl);
  const sym = CURRENCY_SYMBOL[snap.currency] ?? '';
  const credit = snap.kind === DocumentKind.CreditInvoice || snap.kind === DocumentKind.RefundReceipt;
  const rows: [string, string, boolean][] = [
    [T.totalBeforeVat, money(snap.totals.beforeVat), false],
    [T.vatRate(String(snap.totals.vatRateBp / 100)), money(snap.totals.vat), false],
  ];
  if (snap.totals.rounding) rows.push([T.rounding, money(snap.totals.rounding), false]);
  rows.push([credit ? T.totalCredit : T.totalToPay, `${sym} ${money(snap.totals.total)}`, true]);
  let y = y0;
  for (const [label, value, bold] of rows) {
    line(doc, label, L.at(300), y, { rtl, size: bold ? 12 : 10, bold, align: L.start });
    line(doc, value, L.at(COLS[5].to), y, { rtl, size: bold ? 12 : 10, bold, align: L.end });
    y += bold ? 20 : 16;
  }
  return y + 10;
}

/** The payments (card numbers only as their last four digits); returns the next y. */
function drawPayments(doc: PDFKit.PDFDocument, snap: DocumentSnapshot, y0: number): number {
  const T = DOC_TEXT[snap.lang];
  const rtl = snap.lang === 'he';
  const L = layout(rtl);
  const credit = snap.kind === DocumentKind.CreditInvoice || snap.kind === DocumentKind.RefundReceipt;
  let y = y0;
  line(doc, credit ? T.refunds : T.payments, L.at(0), y, { rtl, size: 11, bold: true, align: L.start });
  y += 18;
  for (const p of snap.payments) {
    const card = p.lastFour ? ` ****${p.lastFour}` : '';
    line(doc, `${methodName(snap.lang, p.method)}${card}`, L.at(0), y, { rtl, size: 10, align: L.start });
    line(doc, money(p.amount), L.at(COLS[5].to), y, { rtl, size: 10, align: L.end });
    y += 16;
  }
  return y;
}

/** "Computer-generated document" and, on a copy, "copy of the original", at the foot of the page. */
function drawFooter(doc: PDFKit.PDFDocument, snap: DocumentSnapshot, copy: boolean, rtl: boolean): void {
  const T = DOC_TEXT[snap.lang];
  const y = PAGE.height - PAGE.margin - 20;
  const text = copy ? `${T.computerized} · ${T.copyNote}` : T.computerized;
  line(doc, text, PAGE.width / 2, y, { rtl, size: 9, align: 'center' });
}
