import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors.js';

/**
 * Spreadsheet files (DESIGN §3 "a maintained xlsx library": exceljs, MIT):
 * streamed exports of lists and the checks that tell an .xlsx upload from a
 * CSV by content, not by name (DESIGN §10).
 */

/**
 * A cell: a value, or a value with its own number format (a summary row
 * whose cells differ from the column's) and bold (a totals row). A Date is
 * written as a date cell: its UTC fields are what the cell shows.
 */
export type XlsxValue = string | number | boolean | Date | null;
export type XlsxCell = XlsxValue | { value: XlsxValue; numFmt?: string; bold?: boolean };

export interface XlsxColumn<T> {
  header: string;
  width?: number;
  /** Spreadsheet number format of the column's cells (e.g. `dd/mm/yyyy hh:mm`, `"₪"#,##0.00`). */
  numFmt?: string;
  value: (row: T) => XlsxCell;
}

/** Writes one row's cells with their number formats (the column's, or the cell's own) and bold. */
function fillRow<T>(row: ExcelJS.Row, columns: XlsxColumn<T>[], r: T): void {
  columns.forEach((c, i) => {
    const v = c.value(r);
    const cell = row.getCell(i + 1);
    const plain = v !== null && typeof v === 'object' && !(v instanceof Date) ? v : { value: v };
    cell.value = plain.value ?? null;
    const fmt = 'numFmt' in plain && plain.numFmt ? plain.numFmt : c.numFmt;
    if (fmt && plain.value != null && typeof plain.value !== 'string') cell.numFmt = fmt;
    if ('bold' in plain && plain.bold) cell.font = { bold: true };
  });
}

/**
 * Rows written between two turns of the event loop: encoding a batch of an
 * export is synchronous work, and the gate's decisions share this process, so
 * an export never holds the loop for more than a few milliseconds at a time
 * (docs/gate-benchmark.md "The gate while the console exports"; bench/gate-under-export.bench.mjs).
 */
export const ROWS_PER_TURN = 200;

/**
 * Streamed exports running at once in this process (`EXPORTS_AT_ONCE`,
 * default 2); more wait their turn. Bounds the share of the machine that
 * exports take from the gate, whatever the number of managers exporting.
 */
export const EXPORTS_AT_ONCE = Math.max(1, Number(process.env.EXPORTS_AT_ONCE ?? 2) || 2);

let exportsRunning = 0;
const exportQueue: (() => void)[] = [];
/** Waits for a free export slot; returns its release (idempotent). */
async function exportSlot(): Promise<() => void> {
  if (exportsRunning >= EXPORTS_AT_ONCE) await new Promise<void>((r) => exportQueue.push(r));
  else exportsRunning++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = exportQueue.shift();
    if (next) next();
    else exportsRunning--;
  };
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/** Mime type of .xlsx files. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Sends an .xlsx built row by row with exceljs' streaming writer, so a list
 * of any length never sits in memory as a whole. `batches` yields rows in
 * their final order; the first batch is read before anything is sent, so an
 * empty list answers 422 NO_DATA_TO_EXPORT (seed 001 §8 "No data to export")
 * instead of an empty file. Right-to-left sheet when `rtl`. At most
 * EXPORTS_AT_ONCE run at once; rows are encoded ROWS_PER_TURN at a time.
 */
export async function sendXlsx<T>(
  reply: FastifyReply,
  opts: { filename: string; sheet: string; rtl: boolean; columns: XlsxColumn<T>[] },
  batches: AsyncIterable<T[]>,
): Promise<FastifyReply> {
  const release = await exportSlot();
  const it = batches[Symbol.asyncIterator]();
  let first: IteratorResult<T[]>;
  try {
    first = await it.next();
  } catch (err) {
    release();
    throw err;
  }
  if (first.done || first.value.length === 0) {
    release();
    await it.return?.();
    throw new AppError('NO_DATA_TO_EXPORT', 'No data to export');
  }
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(opts.sheet, { views: [{ rightToLeft: opts.rtl, state: 'frozen', ySplit: 1 }] });
  ws.columns = opts.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const write = async (rows: T[]) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
      if (i > 0) await nextTurn();
      for (const r of rows.slice(i, i + ROWS_PER_TURN)) {
        const row = ws.addRow([]);
        fillRow(row, opts.columns, r);
        row.commit();
      }
    }
  };
  // Backpressure: the next batch is read only when the client has taken the bytes written so far;
  // when the client goes away the source is closed (its return(), e.g. ending a database cursor).
  const drained = () =>
    new Promise<void>((resolve) => {
      out.once('drain', resolve);
      out.once('close', resolve);
    });
  const produce = async () => {
    try {
      await write(first.value);
      for (;;) {
        if (out.writableNeedDrain) await drained();
        if (out.destroyed) return;
        const n = await it.next();
        if (n.done) break;
        await nextTurn();
        await write(n.value);
      }
      ws.commit();
      await wb.commit();
    } finally {
      release();
      await it.return?.();
    }
  };
  produce().catch((err: unknown) => out.destroy(err as Error));
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', `attachment; filename="${opts.filename}"`)
    .send(out);
}

/** One batch from an array: for short lists (groups, products, users). */
export async function* once<T>(rows: T[]): AsyncIterable<T[]> {
  yield rows;
}

/** True when the bytes are a ZIP container (xlsx is one). */
export function isZip(buf: Buffer): boolean {
  return buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
}

/** UTF-8 text without NUL bytes (a CSV), BOM stripped; null otherwise. */
export function asText(buf: Buffer): string | null {
  if (buf.includes(0)) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  if (text.includes('\uFFFD')) return null;
  return text.replace(/^\uFEFF/, '');
}
