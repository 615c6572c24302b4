import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
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

/**
 * Rows whose cells are computed between two turns of the event loop (the
 * columns' `value` functions run here; the encoding runs on the export's own
 * thread, lib/xlsx-worker.ts), so an export never holds the loop that decides
 * at the gate for more than a moment (bench/gate-under-export.bench.mjs).
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

/** The encoding thread of one export (lib/xlsx-worker.ts): rows in, the file's bytes out to `out`. */
class XlsxEncoder {
  private readonly worker: Worker;
  private waiting: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private failed: Error | null = null;

  constructor(
    out: PassThrough,
    setup: { sheet: string; rtl: boolean; columns: { header: string; width?: number; numFmt?: string }[] },
  ) {
    this.worker = new Worker(new URL('./xlsx-worker.ts', import.meta.url), {
      workerData: setup,
      execArgv: ['--import', 'tsx'],
      stdout: false,
      stderr: false,
    });
    this.worker.on('message', (m: { chunk?: Uint8Array; written?: true; finished?: true; error?: string }) => {
      if (m.chunk) out.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
      else if (m.error) this.fail(new Error(`xlsx encoder: ${m.error}`));
      else this.settle();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`xlsx encoder stopped (exit ${code})`)));
  }

  private settle() {
    const w = this.waiting;
    this.waiting = null;
    w?.resolve();
  }

  private fail(err: Error) {
    this.failed ??= err;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.failed);
  }

  /** Sends a message and waits for its answer (`written`, or `finished` after `end`). */
  private ask(m: unknown): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.worker.postMessage(m);
    });
  }

  write(rows: XlsxCell[][]): Promise<void> {
    return this.ask({ rows });
  }

  end(): Promise<void> {
    return this.ask({ end: true });
  }

  close(): Promise<number> {
    this.failed ??= new Error('closed');
    return this.worker.terminate();
  }
}

/**
 * Sends an .xlsx built row by row with exceljs' streaming writer on a thread
 * of its own at background priority (lib/xlsx-worker.ts), so a list of any
 * length never sits in memory as a whole and encoding it never takes the
 * event loop or its core from the gate. `batches` yields rows in their final
 * order; the first batch is read before anything is sent, so an empty list
 * answers 422 NO_DATA_TO_EXPORT (seed 001 §8 "No data to export") instead of
 * an empty file. Right-to-left sheet when `rtl`. At most EXPORTS_AT_ONCE run
 * at once; cells are computed ROWS_PER_TURN rows at a time; the next batch is
 * read only when the encoder has written the last one and the client has
 * taken the bytes.
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
  const encoder = new XlsxEncoder(out, {
    sheet: opts.sheet,
    rtl: opts.rtl,
    columns: opts.columns.map((c) => ({ header: c.header, width: c.width, numFmt: c.numFmt })),
  });
  const write = async (rows: T[]) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
      if (i > 0) await nextTurn();
      await encoder.write(rows.slice(i, i + ROWS_PER_TURN).map((r) => opts.columns.map((c) => c.value(r))));
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
      await encoder.end();
      out.end();
    } finally {
      release();
      await encoder.close();
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
