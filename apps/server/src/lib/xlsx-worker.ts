import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { lowerThisThreadPriority } from './thread-priority.js';
import type { XlsxCell } from './xlsx.js';

/**
 * The thread that encodes one streamed .xlsx export (lib/xlsx.ts
 * `sendXlsx`): exceljs' row model, the sheet's XML and its deflate run here,
 * at the lowest priority (lib/thread-priority.ts), never on the event loop
 * that decides at the gate. Messages in: `{ rows }` (each row its cells, in
 * column order) answered `{ written }` once encoded, then `{ end: true }`.
 * Messages out: `{ chunk }` (bytes of the file, in order), `{ written }`,
 * `{ finished }`, or `{ error }`.
 */
lowerThisThreadPriority();

interface Setup {
  sheet: string;
  rtl: boolean;
  columns: { header: string; width?: number; numFmt?: string }[];
}
const setup = workerData as Setup;
const port = parentPort!;

const out = new Writable({
  write(chunk: Buffer, _enc, done) {
    const copy = new Uint8Array(chunk); // a copy: the chunk's memory may be a shared pool's
    port.postMessage({ chunk: copy }, [copy.buffer]);
    done();
  },
});
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
const ws = wb.addWorksheet(setup.sheet, { views: [{ rightToLeft: setup.rtl, state: 'frozen', ySplit: 1 }] });
ws.columns = setup.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 16 }));
ws.getRow(1).font = { bold: true };
ws.getRow(1).commit();

/** Writes one row's cells with their number formats (the column's, or the cell's own) and bold. */
function fillRow(row: ExcelJS.Row, cells: XlsxCell[]): void {
  cells.forEach((v, i) => {
    const cell = row.getCell(i + 1);
    const plain = v !== null && typeof v === 'object' && !(v instanceof Date) ? v : { value: v };
    cell.value = plain.value ?? null;
    const fmt = 'numFmt' in plain && plain.numFmt ? plain.numFmt : setup.columns[i]?.numFmt;
    if (fmt && plain.value != null && typeof plain.value !== 'string') cell.numFmt = fmt;
    if ('bold' in plain && plain.bold) cell.font = { bold: true };
  });
}

port.on('message', (m: { rows?: XlsxCell[][]; end?: true }) => {
  try {
    if (m.rows) {
      for (const cells of m.rows) {
        const row = ws.addRow([]);
        fillRow(row, cells);
        row.commit();
      }
      port.postMessage({ written: true });
    } else if (m.end) {
      ws.commit();
      out.once('finish', () => port.postMessage({ finished: true }));
      wb.commit().catch((err: unknown) => port.postMessage({ error: String(err) }));
    }
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
