/**
 * Hashavshevet movement import ("קליטת תנועות", MOVEIN.DAT with its layout
 * file MOVEIN.PRM), seed 000 §7 /Report/WriteMoveinDat.
 *
 * The published layout (Hashavshevet's help page "תנועות הנה"ח – יבוא מקובץ
 * טקסט", as DOMAIN-FACTS "Hashavshevet" and public implementations agree;
 * docs/money.md "Accounting export"): MOVEIN.PRM line 1 is the record length,
 * lines 2–35 each give the first and last column of one field, and the LINE
 * NUMBER names the field; a field the file does not carry keeps its line as
 * `0 0`. MOVEIN.DAT holds fixed-width records, Windows-1255, CR LF. A record
 * is a compound movement: up to two debit and two credit accounts, each with
 * its amount in shekels ("9.2": digits, a point, two decimals).
 */

export interface MoveinSettings {
  movementType: string;
  branch: string;
}

/** One compound movement: Σ debit amounts = Σ credit amounts (minor units, ≥ 0). */
export interface MoveinMovement {
  /** Reference 1: the invoice number. */
  reference: number;
  /** Reference 2: the client number, or null. */
  reference2: number | null;
  /** Reference date (the document's), YYYY-MM-DD. */
  date: string;
  /** Value date, YYYY-MM-DD. */
  valueDate: string;
  details: string;
  debit: { account: string; amount: number }[];
  credit: { account: string; amount: number }[];
}

/**
 * The fields this export writes: PRM line (the field's identity in the
 * published layout), first column (1-based), width. Lines 2–35 not listed here
 * are written as `0 0` (not carried): costing code (7), currency (8; amounts
 * are in shekels), foreign-currency amounts (18–21) and the rest.
 */
export const MOVEIN_LAYOUT = [
  { line: 2, name: 'movementType', start: 1, width: 3 },
  { line: 3, name: 'reference', start: 4, width: 9 },
  { line: 4, name: 'reference2', start: 13, width: 9 },
  { line: 5, name: 'referenceDate', start: 22, width: 10 },
  { line: 6, name: 'valueDate', start: 32, width: 10 },
  { line: 9, name: 'details', start: 42, width: 50 },
  { line: 10, name: 'debitAccount1', start: 92, width: 15 },
  { line: 11, name: 'debitAccount2', start: 107, width: 15 },
  { line: 12, name: 'creditAccount1', start: 122, width: 15 },
  { line: 13, name: 'creditAccount2', start: 137, width: 15 },
  { line: 14, name: 'debitAmount1', start: 152, width: 12 },
  { line: 15, name: 'debitAmount2', start: 164, width: 12 },
  { line: 16, name: 'creditAmount1', start: 176, width: 12 },
  { line: 17, name: 'creditAmount2', start: 188, width: 12 },
  { line: 28, name: 'branch', start: 200, width: 3 },
] as const;
/** Characters of a record before its CR LF. */
export const MOVEIN_DATA_LENGTH = 202;
/** The record length MOVEIN.PRM states: the data and its CR LF (as the public writers that load do). */
export const MOVEIN_RECORD_LENGTH = MOVEIN_DATA_LENGTH + 2;
const PRM_LAST_LINE = 35;

/** Windows-1255 bytes of a string: ASCII as is, Hebrew letters א–ת at 0xE0–0xFA, ₪ 0xA4, anything else '?'. */
export function cp1255(s: string): Buffer {
  const out = Buffer.alloc(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i] = c < 0x80 ? c : c >= 0x5d0 && c <= 0x5ea ? c - 0x5d0 + 0xe0 : c === 0x20aa ? 0xa4 : 0x3f;
  }
  return out;
}

const fit = (s: string, w: number) => [...s.replace(/[\r\n]/g, ' ')].slice(0, w).join('').padEnd(w, ' ');
const digits = (n: number | string | null, w: number) => {
  if (n == null || n === '') return ' '.repeat(w);
  const s = String(n);
  if (!/^\d+$/.test(s) || s.length > w) throw new RangeError(`${s} does not fit ${w} digits`);
  return s.padStart(w, ' ');
};
/** Shekels with two decimals, right-aligned ("     1234.56"); blank when 0 and `blankZero`. */
const shekels = (minor: number, w: number, blankZero: boolean) => {
  if (!Number.isInteger(minor) || minor < 0) throw new RangeError('amount');
  if (minor === 0 && blankZero) return ' '.repeat(w);
  const s = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
  if (s.length > w) throw new RangeError('amount too large');
  return s.padStart(w, ' ');
};
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/**
 * One record (without CR LF) of a balanced movement.
 * @throws RangeError when a value does not fit or debits ≠ credits.
 */
function record(settings: MoveinSettings, m: MoveinMovement): string {
  if (m.debit.length < 1 || m.debit.length > 2 || m.credit.length < 1 || m.credit.length > 2)
    throw new RangeError('one or two accounts per side');
  const sum = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  if (sum(m.debit) !== sum(m.credit)) throw new RangeError('unbalanced movement');
  const values: Record<(typeof MOVEIN_LAYOUT)[number]['name'], string> = {
    movementType: fit(settings.movementType, 3),
    reference: digits(m.reference, 9),
    reference2: digits(m.reference2, 9),
    referenceDate: ddmmyyyy(m.date),
    valueDate: ddmmyyyy(m.valueDate),
    details: fit(m.details, 50),
    debitAccount1: fit(m.debit[0].account, 15),
    debitAccount2: fit(m.debit[1]?.account ?? '', 15),
    creditAccount1: fit(m.credit[0].account, 15),
    creditAccount2: fit(m.credit[1]?.account ?? '', 15),
    debitAmount1: shekels(m.debit[0].amount, 12, false),
    debitAmount2: shekels(m.debit[1]?.amount ?? 0, 12, true),
    creditAmount1: shekels(m.credit[0].amount, 12, false),
    creditAmount2: shekels(m.credit[1]?.amount ?? 0, 12, true),
    branch: digits(settings.branch || null, 3),
  };
  let line = '';
  for (const f of MOVEIN_LAYOUT) {
    if (line.length !== f.start - 1) throw new Error(`layout gap before ${f.name}`);
    const v = values[f.name];
    if (v.length !== f.width) throw new Error(`${f.name} width ${v.length}`);
    line += v;
  }
  if (line.length !== MOVEIN_DATA_LENGTH) throw new Error(`record length ${line.length}`);
  return line;
}

/** MOVEIN.DAT: one record per movement, Windows-1255, CR LF. @throws RangeError as `record`. */
export function buildMovein(settings: MoveinSettings, movements: MoveinMovement[]): Buffer {
  return cp1255(movements.map((m) => record(settings, m) + '\r\n').join(''));
}

/** Hebrew names of the PRM lines, written after `;` (Hashavshevet reads the two numbers only). */
const PRM_TITLES: Record<number, string> = {
  2: 'קוד סוג תנועה',
  3: 'אסמכתא',
  4: 'אסמכתא 2',
  5: 'תאריך אסמכתא',
  6: 'תאריך ערך',
  7: 'תמחיר',
  8: 'קוד מטבע',
  9: 'פרטים',
  10: 'חשבון חובה 1',
  11: 'חשבון חובה 2',
  12: 'חשבון זכות 1',
  13: 'חשבון זכות 2',
  14: 'סכום חובה 1 בשקלים',
  15: 'סכום חובה 2 בשקלים',
  16: 'סכום זכות 1 בשקלים',
  17: 'סכום זכות 2 בשקלים',
  28: 'סניף',
};

/**
 * MOVEIN.PRM: line 1 the record length, lines 2–35 `first last` per field by
 * line number (`0 0` when not carried), each with its name after `;`.
 */
export function buildMoveinPrm(): Buffer {
  const lines = [`${MOVEIN_RECORD_LENGTH} ;אורך רשומה`];
  for (let n = 2; n <= PRM_LAST_LINE; n++) {
    const f = MOVEIN_LAYOUT.find((x) => x.line === n);
    const title = PRM_TITLES[n] ?? `שדה ${n}`;
    lines.push(f ? `${f.start} ${f.start + f.width - 1} ;${title}` : `0 0 ;${title}`);
  }
  return cp1255(lines.join('\r\n') + '\r\n');
}
