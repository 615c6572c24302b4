import { BANK_CODE_WIDTH } from '@venue/domain';

/**
 * MASAV direct-debit file writer ("חיובים"; DOMAIN-FACTS "MASAV"): fixed-width
 * records of 128 characters, each followed by CR LF; header `K`, movement
 * records `1` (transaction type 504, regular debit), total record `5`, then
 * one record of 128 × `9`. Numeric fields right-aligned zero-padded, text
 * fields left-aligned space-padded. Hebrew is written in visual order in the
 * 7-bit "code A" (א = `&`, ב…ת = `A`…`Z`, final letters in alphabetical order),
 * the encoding the npm `masav` package writes too (docs/money.md).
 * Amounts are integer agorot.
 */

export interface MasavInstitution {
  /** Institution (5) + subject (3) code given by the clearing center. */
  institutionCode: string;
  /** Sending institution (5 digits). */
  sendingInstitution: string;
  /** Up to 30 characters. */
  institutionName: string;
}

export interface MasavDebit {
  bankCode: string;
  branch: string;
  account: string;
  /** Payer ID (teudat zehut), up to 9 digits. */
  payerId: string;
  /** Up to 16 characters (Hebrew or Latin). */
  payerName: string;
  /** Agorot, > 0. */
  amount: number;
  /** Stable per authorization, digits, up to 20. */
  reference: string;
  /** YYMM, or omitted (zeros). */
  periodFrom?: string;
  periodTo?: string;
}

export interface MasavFileSpec {
  institution: MasavInstitution;
  /** Charge (value) date, YYYY-MM-DD. */
  valueDate: string;
  /** Creation date, YYYY-MM-DD. */
  createdDate: string;
  /** File serial number, 1–999. */
  serial: number;
  debits: MasavDebit[];
}

export const MASAV_RECORD_LENGTH = 128;
const CRLF = '\r\n';
/** Hebrew letters א…ת (including finals, in Unicode = alphabetical order) → `&`, `A`…`Z`. */
const CODE_A = new Map<string, string>(
  [...'אבגדהוזחטיךכלםמןנסעףפץצקרשת'].map((ch, i) => [ch, i === 0 ? '&' : String.fromCharCode(64 + i)]),
);

function num(value: string | number, width: number): string {
  const s = String(value);
  if (!/^\d*$/.test(s)) throw new RangeError(`not a number: ${s}`);
  if (s.length > width) throw new RangeError(`${s} wider than ${width}`);
  return s.padStart(width, '0');
}

const HEBREW = /[\u05d0-\u05ea]/;

/**
 * Text in visual order for a right-to-left field: when it holds Hebrew, the
 * runs are reversed and the Hebrew runs read right to left, while runs of
 * Latin letters and digits keep their order (the Unicode bidi outcome for an
 * RTL line). Text without Hebrew is unchanged.
 */
export function visualOrder(text: string): string {
  if (!HEBREW.test(text)) return text;
  const runs = text.match(/[A-Za-z0-9]+|[^A-Za-z0-9]+/g) ?? [];
  return runs
    .reverse()
    .map((r) => (/^[A-Za-z0-9]/.test(r) ? r : [...r].reverse().join('')))
    .join('');
}

/**
 * Latin letters in a MASAV text field (docs/money.md "Payer names"): code A
 * gives the capital letters A–Z to Hebrew (ב…ת), so a capital Latin letter
 * would be read as a Hebrew letter; the small letters a–z are not used by
 * code A and stay Latin. Latin letters are therefore kept as Latin and written
 * in small letters ("Dana LEVI" → "dana levi"), never transliterated.
 */
const latinAsSmall = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * A text field: the first `width` characters of the text (a long name keeps
 * its start: the first name), then visual order, code A, Latin in small
 * letters, other characters outside printable ASCII as spaces; left-aligned.
 */
export function masavText(value: string, width: number): string {
  const logical = [...latinAsSmall(value.normalize('NFC').replace(/[\u0591-\u05c7]/g, '')).trim()]
    .slice(0, width)
    .join('');
  const v = [...visualOrder(logical)].map((ch) => CODE_A.get(ch) ?? (ch >= ' ' && ch <= '~' ? ch : ' ')).join('');
  return v.padEnd(width, ' ');
}
const text = masavText;

const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

/** Builds the file (ASCII bytes). @throws RangeError on a field that does not fit. */
export function buildMasavDebitFile(spec: MasavFileSpec): Buffer {
  const inst = num(spec.institution.institutionCode, 8);
  const value = yymmdd(spec.valueDate);
  const serial = num(spec.serial, 3);
  const lines: string[] = [];
  lines.push(
    'K' +
      inst +
      '00' +
      value +
      '0' +
      serial +
      '0' +
      yymmdd(spec.createdDate) +
      num(spec.institution.sendingInstitution, 5) +
      '000000' +
      text(spec.institution.institutionName, 30) +
      ' '.repeat(56) +
      'KOT',
  );
  let total = 0;
  for (const d of spec.debits) {
    if (!Number.isInteger(d.amount) || d.amount <= 0) throw new RangeError('amount must be positive agorot');
    total += d.amount;
    lines.push(
      '1' +
        inst +
        '00' +
        '000000' +
        num(d.bankCode, BANK_CODE_WIDTH) +
        num(d.branch, 3) +
        '0000' +
        num(d.account, 9) +
        '0' +
        num(d.payerId, 9) +
        text(d.payerName, 16) +
        num(d.amount, 13) +
        num(d.reference, 20) +
        (d.periodFrom && d.periodTo ? num(d.periodFrom, 4) + num(d.periodTo, 4) : '00000000') +
        '000' +
        '504' +
        '0'.repeat(18) +
        '  ',
    );
  }
  lines.push(
    '5' +
      inst +
      '00' +
      value +
      '0' +
      serial +
      '0'.repeat(15) +
      num(total, 15) +
      '0'.repeat(7) +
      num(spec.debits.length, 7) +
      ' '.repeat(63),
  );
  lines.push('9'.repeat(MASAV_RECORD_LENGTH));
  for (const l of lines) if (l.length !== MASAV_RECORD_LENGTH) throw new Error(`record length ${l.length}`);
  return Buffer.from(lines.join(CRLF) + CRLF, 'ascii');
}
