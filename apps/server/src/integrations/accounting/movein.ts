/**
 * Hashavshevet movement import file (MOVEIN.DAT) and its layout description
 * (MOVEIN.PRM), seed 000 §7 /Report/WriteMoveinDat. Hashavshevet imports
 * fixed-width movement files through an import definition that names each
 * field's start and end column; the layout below is ours and is written to
 * MOVEIN.PRM with every export, so the club's accountant loads it once
 * (docs/money.md "Accounting export"). Text is Windows-1255 (Hebrew in
 * logical order, as Hashavshevet for Windows reads it); records end CR LF.
 */

export interface MoveinSettings {
  cashAccount: string;
  creditAccount: string;
  incomeAccount: string;
  vatAccount: string;
  movementType: string;
  branch: string;
}

export interface MoveinMovement {
  /** Invoice number (reference 1). */
  reference: number;
  /** YYYY-MM-DD. */
  date: string;
  details: string;
  debitAccount: string;
  creditAccount: string;
  /** Minor units, ≥ 0. */
  amount: number;
  /** Client number (reference 2), or ''. */
  reference2: string;
}

/** The fields of a MOVEIN record: name, Hebrew name, first column (1-based), width, kind. */
export const MOVEIN_FIELDS = [
  ['movementType', 'סוג תנועה', 1, 3, 'X'],
  ['reference', 'אסמכתא', 4, 7, 'N'],
  ['date', 'תאריך', 11, 8, 'D'],
  ['details', 'פרטים', 19, 22, 'X'],
  ['debitAccount', 'חשבון חובה', 41, 15, 'X'],
  ['creditAccount', 'חשבון זכות', 56, 15, 'X'],
  ['amount', 'סכום', 71, 12, 'S'],
  ['branch', 'סניף', 83, 3, 'N'],
  ['reference2', 'אסמכתא 2', 86, 10, 'X'],
] as const;
export const MOVEIN_RECORD_LENGTH = 95;

/** Windows-1255 bytes of a string: ASCII as is, Hebrew letters א–ת at 0xE0–0xFA, anything else '?'. */
export function cp1255(s: string): Buffer {
  const out = Buffer.alloc(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i] = c < 0x80 ? c : c >= 0x5d0 && c <= 0x5ea ? c - 0x5d0 + 0xe0 : 0x3f;
  }
  return out;
}

const fit = (s: string, w: number) => [...s].slice(0, w).join('').padEnd(w, ' ');
const numf = (n: number | string, w: number) => {
  const s = String(n);
  if (!/^\d*$/.test(s) || s.length > w) throw new RangeError(`${s} does not fit ${w} digits`);
  return s.padStart(w, '0');
};
/** 12 characters: sign-less shekels with two decimals, zero-padded ("000001234.56"). */
const money = (minor: number) => {
  if (!Number.isInteger(minor) || minor < 0) throw new RangeError('amount');
  const s = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
  if (s.length > 12) throw new RangeError('amount too large');
  return s.padStart(12, '0');
};
const ddmmyyyy = (iso: string) => iso.slice(8, 10) + iso.slice(5, 7) + iso.slice(0, 4);

/** Builds MOVEIN.DAT. */
export function buildMovein(settings: MoveinSettings, movements: MoveinMovement[]): Buffer {
  const lines = movements.map((m) => {
    const line =
      fit(settings.movementType, 3) +
      numf(m.reference, 7) +
      ddmmyyyy(m.date) +
      fit(m.details.replace(/[\r\n]/g, ' '), 22) +
      fit(m.debitAccount, 15) +
      fit(m.creditAccount, 15) +
      money(m.amount) +
      numf(settings.branch || '0', 3) +
      fit(m.reference2, 10);
    if (line.length !== MOVEIN_RECORD_LENGTH) throw new Error(`record length ${line.length}`);
    return cp1255(line + '\r\n');
  });
  return Buffer.concat(lines);
}

/** MOVEIN.PRM: the record length, then one line per field: first column, last column, name. */
export function buildMoveinPrm(): Buffer {
  const lines = [`${MOVEIN_RECORD_LENGTH}`];
  for (const [, he, start, width, kind] of MOVEIN_FIELDS) {
    lines.push(`${start} ${start + width - 1} ${kind} ${he}`);
  }
  return cp1255(lines.join('\r\n') + '\r\n');
}
