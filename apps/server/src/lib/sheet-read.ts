import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel.full';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { IMPORT_MAX_ROWS } from '@venue/domain';
import { AppError } from './errors.js';

/**
 * Limits of an uploaded sheet (docs/security.md "Spreadsheet input"), checked
 * before anything is materialised: the work is bounded by what the file holds,
 * never by what it declares (an xlsx `<dimension ref="A1:T400000"/>` in 7 KB,
 * a CSV header of 5,000 commas over 2,000 empty lines, a deflate bomb).
 */
export const SHEET_LIMITS = {
  /**
   * Rows of the first sheet read (the header and IMPORT_MAX_ROWS clients); one more is read, so the
   * import can say the file has too many rows (`tooManyRows`), and no further.
   */
  rows: IMPORT_MAX_ROWS + 1,
  /** Columns of any row (the import knows about 40). */
  columns: 200,
  /** Cells present in the first sheet. */
  cells: 2_000_000,
  /** Bytes of a zip container's entries once uncompressed, in all. */
  unzippedBytes: 100 * 1024 * 1024,
  /** Uncompressed ÷ compressed of the whole container (an ordinary xlsx is 5–20). */
  ratio: 200,
} as const;

/** Which limit a sheet passed: the `reason` of SHEET_TOO_LARGE (413). */
export type SheetLimit = 'columns' | 'cells' | 'unzippedBytes' | 'ratio' | 'time' | 'memory';

/** The refusal of a sheet over one of SHEET_LIMITS (or the parser's time or memory), 413 SHEET_TOO_LARGE. */
export function sheetTooLarge(reason: SheetLimit): AppError {
  const limit = reason in SHEET_LIMITS ? SHEET_LIMITS[reason as keyof typeof SHEET_LIMITS] : undefined;
  return new AppError('SHEET_TOO_LARGE', `The file is too large to read (${reason})`, { reason, limit });
}

/**
 * The sizes a zip container declares for its entries, read from its central
 * directory without inflating anything (fflate's filter sees each entry's
 * declared sizes and declines it).
 * @throws AppError SHEET_TOO_LARGE unzippedBytes or ratio
 */
function checkZipSizes(buf: Buffer): void {
  let total = 0;
  try {
    unzipSync(buf, {
      filter: (f) => {
        total += f.originalSize;
        return false;
      },
    });
  } catch {
    return; // not a readable zip: the workbook reader says what it is
  }
  if (total > SHEET_LIMITS.unzippedBytes) throw sheetTooLarge('unzippedBytes');
  if (total > SHEET_LIMITS.ratio * buf.length) throw sheetTooLarge('ratio');
}

/**
 * Reading uploaded spreadsheets (client import, docs/console-management.md
 * "Import"): Excel .xlsx and .xls (BIFF), OpenDocument .ods and CSV text in
 * UTF-8 or Windows-1255 (the Hebrew Windows code page Excel writes "CSV" in
 * on a Hebrew Windows). Workbooks are read with SheetJS (the Apache-2.0
 * community edition 0.20.3, published on npm as `@e965/xlsx`: the `xlsx`
 * package on npm stopped at 0.18.5, which has known parser vulnerabilities).
 * The kind is decided by content, never by the file's name (DESIGN §10); a
 * file that is not a spreadsheet is refused naming what it is. CSV text is
 * read with csv-parse (MIT, the node-csv project; RFC 4180 quoting), whose
 * errors say where a file is broken: SheetJS reads a quote that is never
 * closed as one field running to the end of the file (docs/console-management.md
 * "Import").
 */

// Legacy code pages of old .xls files (BIFF5 and older store text in the workbook's code page).
XLSX.set_cptable(cptable);

/** One cell: text, a number, a boolean, a calendar date as YYYY-MM-DD, or empty. */
export type SheetCell = string | number | boolean | null;

/** What a refused upload is, the `message` of UNSUPPORTED_FILE_TYPE's one detail (path `file`). */
export type NotSpreadsheet = 'fileIsPdf' | 'fileIsImage' | 'fileIsDocument' | 'fileNotSpreadsheet' | 'unknownEncoding';

/** The kind of a spreadsheet file, by content. */
export type SheetKind = 'xlsx' | 'ods' | 'xls' | 'csv';

const startsWith = (buf: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => buf[at + i] === b);

/** What a file that is not a spreadsheet is, by its first bytes; null when it may be one. */
export function notSpreadsheetKind(buf: Buffer): NotSpreadsheet | null {
  if (startsWith(buf, [0x25, 0x50, 0x44, 0x46])) return 'fileIsPdf'; // %PDF
  if (
    startsWith(buf, [0x89, 0x50, 0x4e, 0x47]) || // PNG
    startsWith(buf, [0xff, 0xd8, 0xff]) || // JPEG
    startsWith(buf, [0x47, 0x49, 0x46, 0x38]) || // GIF8
    (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && startsWith(buf, [0x57, 0x45, 0x42, 0x50], 8)) || // RIFF....WEBP
    startsWith(buf, [0x42, 0x4d]) // BMP
  ) {
    return 'fileIsImage';
  }
  return null;
}

/**
 * Text of a CSV upload: UTF-8 (with or without its BOM), UTF-16 with a BOM
 * (Excel's "Unicode text"), else Windows-1255. UTF-8 is tried first and
 * strictly: Hebrew letters in Windows-1255 (bytes 0xE0–0xFA) never form valid
 * UTF-8 sequences, so a Windows-1255 file fails it. Windows-1255 is decoded
 * strictly too (its undefined bytes fail).
 * @returns the text and the encoding found, or null when neither decodes (or the bytes hold NUL: binary)
 */
export function decodeText(
  buf: Buffer,
): { text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1255' } | null {
  if (startsWith(buf, [0xff, 0xfe]))
    return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf-16le' };
  if (startsWith(buf, [0xfe, 0xff]))
    return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf-16be' };
  if (buf.includes(0)) return null;
  for (const encoding of ['utf-8', 'windows-1255'] as const) {
    try {
      const text = new TextDecoder(encoding, { fatal: true }).decode(buf);
      return { text: text.replace(/^\uFEFF/, ''), encoding };
    } catch {
      // not this encoding
    }
  }
  return null;
}

/** The delimiter of a CSV: whichever of comma, semicolon and tab splits the first line into the most fields. */
function delimiterOf(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0];
  return [',', ';', '\t'].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best));
}

/** A cell's value: text as is, numbers as numbers, date-formatted numbers as YYYY-MM-DD. */
function cellValue(cell: XLSX.CellObject | undefined): SheetCell {
  if (!cell) return null;
  switch (cell.t) {
    case 's':
      return String(cell.v ?? '');
    case 'b':
      return Boolean(cell.v);
    case 'n': {
      const v = Number(cell.v);
      if (cell.z != null && XLSX.SSF.is_date(cell.z)) {
        const d = XLSX.SSF.parse_date_code(v);
        if (d) return `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
      }
      return v;
    }
    case 'd': {
      const d = cell.v as Date;
      return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
    }
    default:
      return null; // 'e' (an error value) and 'z' (a stub)
  }
}

/**
 * The first sheet's rows as arrays of cells (row 0 = the sheet's first row), from the cells the
 * sheet holds (a dense sheet's `!data`), never its declared range: a row ends at its last cell,
 * rows after the last one that holds a cell are not made.
 * @throws AppError SHEET_TOO_LARGE columns or cells
 */
function rowsOf(wb: XLSX.WorkBook): SheetCell[][] {
  const ws = wb.Sheets[wb.SheetNames[0]] as XLSX.WorkSheet & { '!data'?: (XLSX.CellObject | undefined)[][] };
  const data = ws?.['!data'];
  if (!data) return [];
  let cells = 0;
  for (const row of data) {
    if (!row) continue;
    if (row.length > SHEET_LIMITS.columns && row.slice(SHEET_LIMITS.columns).some(Boolean))
      throw sheetTooLarge('columns');
    cells += row.length;
    if (cells > SHEET_LIMITS.cells) throw sheetTooLarge('cells');
  }
  const rows: SheetCell[][] = [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r] ?? [];
    let last = Math.min(src.length, SHEET_LIMITS.columns) - 1;
    while (last >= 0 && cellValue(src[last]) == null) last--;
    const row: SheetCell[] = [];
    for (let c = 0; c <= last; c++) row.push(cellValue(src[c]));
    rows.push(row);
  }
  return rows;
}

/**
 * Reads the first sheet of an uploaded spreadsheet.
 * @returns its kind, the encoding of a CSV, and its rows (cells as SheetCell)
 * @throws AppError UNSUPPORTED_FILE_TYPE (415) with one detail `{path: 'file', message: NotSpreadsheet}`
 *   naming what the file is instead (PDF, image, another document, not a spreadsheet, unknown encoding)
 */
export function readSpreadsheet(buf: Buffer): { kind: SheetKind; encoding?: string; rows: SheetCell[][] } {
  const refuse = (what: NotSpreadsheet): never => {
    throw new AppError('UNSUPPORTED_FILE_TYPE', `Not a spreadsheet (${what})`, [{ path: 'file', message: what }]);
  };
  const other = notSpreadsheetKind(buf);
  if (other) refuse(other);
  const zip = startsWith(buf, [0x50, 0x4b, 0x03, 0x04]);
  const cfb = startsWith(buf, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  if (zip || cfb) {
    if (zip) checkZipSizes(buf);
    let wb: XLSX.WorkBook;
    try {
      // Dense (cells kept by row, not by address) and cut at SHEET_LIMITS.rows + 1 rows (one more, to tell a file
      // over the limit): what the sheet declares (`<dimension>`) is never allocated.
      wb = XLSX.read(buf, {
        type: 'buffer',
        cellNF: true,
        cellDates: false,
        cellFormula: false,
        cellHTML: false,
        dense: true,
        sheetRows: SHEET_LIMITS.rows + 1,
      });
    } catch {
      return refuse('fileIsDocument'); // a zip or OLE file that is no workbook: .docx, .doc, .pptx, …
    }
    const kind: SheetKind = cfb ? 'xls' : wb.Sheets[wb.SheetNames[0]] && isOds(buf) ? 'ods' : 'xlsx';
    return { kind, rows: rowsOf(wb) };
  }
  const decoded = decodeText(buf);
  if (!decoded) return refuse(buf.includes(0) ? 'fileNotSpreadsheet' : 'unknownEncoding');
  if (/^\s*<(!doctype|html|\?xml)/i.test(decoded.text)) refuse('fileIsDocument');
  return { kind: 'csv', encoding: decoded.encoding, rows: csvRows(decoded.text) };
}

/** Why a CSV text cannot be read, the `reason` of CSV_MALFORMED: a quote never closed, or another break of the quoting. */
export type CsvProblem = 'quoteNotClosed' | 'malformed';

/**
 * The rows of a CSV text (RFC 4180: fields in double quotes may hold the
 * delimiter, line breaks and doubled quotes), every field as text (no number
 * or date guessing: ID numbers keep their leading zeros), an empty field as
 * null. The delimiter is the first line's (comma, semicolon or tab). A quote
 * inside an unquoted field is kept as a letter (`relax_quotes`: Hebrew
 * abbreviations such as ת"א are written so); rows may differ in length.
 * @throws AppError CSV_MALFORMED (422) with details `{reason: CsvProblem, row, column}` — the
 *   spreadsheet row (1 = the first line's row) and column (1-based) where the broken field starts,
 *   as csv-parse reports them — when the quoting is broken, e.g. a field opened with `"` and never
 *   closed, which would otherwise swallow the rows after it
 */
export function csvRows(text: string): SheetCell[][] {
  let records: string[][];
  try {
    records = parseCsv(text, {
      delimiter: delimiterOf(text),
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false,
      // One row past the limit tells a file over it; a row wider than the limit stops the reading there.
      to: SHEET_LIMITS.rows + 1,
      on_record: (record: string[]) => {
        if (record.length > SHEET_LIMITS.columns) throw sheetTooLarge('columns');
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (!(err instanceof CsvError)) throw err;
    // `records` is the count of rows read before the broken one, `index` the field's place in its row.
    const info = err as CsvError & { records?: number; index?: number };
    const reason: CsvProblem = err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'quoteNotClosed' : 'malformed';
    throw new AppError('CSV_MALFORMED', `The CSV file cannot be read (${err.code})`, {
      reason,
      row: (info.records ?? 0) + 1,
      column: (info.index ?? 0) + 1,
    });
  }
  return records.map((r) => r.map((v) => (v === '' ? null : v)));
}

/** An OpenDocument package names its type in its first entry, `mimetype` (ODF 1.2 §3.3). */
function isOds(buf: Buffer): boolean {
  return buf.subarray(30, 38).toString('latin1') === 'mimetype';
}
