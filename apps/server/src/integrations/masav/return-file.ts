import { BANK_CODE_WIDTH } from '@venue/domain';
import { MASAV_RECORD_LENGTH } from './writer.js';

/**
 * The bank's return ("החזרות") file of a MASAV debit file, docs/money.md
 * "MASAV return file". The clearing center returns the debits it could not
 * collect in the frame of the debit file (DOMAIN-FACTS "MASAV"): a header `K`
 * naming the institution, the value date and the serial of the file sent, one
 * movement record `1` per returned debit as it was sent (bank, branch,
 * account, payer ID, name, amount, reference), with the bank's return reason
 * code in the text-code field (positions 103–105, `000` in a file sent), a
 * total record `5` (amount and count of the returned debits) and the record of
 * `9`s. The clearing center's own return-file specification is not reachable
 * from here; the reason's place is this one constant.
 */
export const MASAV_RETURN_REASON_FIELD = { from: 103, to: 105 } as const;

/** Positions (1-based, inclusive) of a movement record; the bank code's width is BANK_CODE_WIDTH. */
const MOVE = (() => {
  const bankFrom = 18;
  const bankTo = bankFrom + BANK_CODE_WIDTH - 1;
  const shift = BANK_CODE_WIDTH - 2;
  return {
    institution: [2, 9],
    bank: [bankFrom, bankTo],
    branch: [bankTo + 1, bankTo + 3],
    account: [27 + shift, 35 + shift],
    payerId: [37 + shift, 45 + shift],
    amount: [62 + shift, 74 + shift],
    reference: [75 + shift, 94 + shift],
  } as const;
})();

export interface MasavReturnRecord {
  bank: string;
  branch: string;
  account: string;
  payerId: string;
  /** Agorot. */
  amount: number;
  /** The reference sent (digits, without leading zeros). */
  reference: string;
  /** The bank's return reason code. */
  reason: string;
}

export interface MasavReturnFile {
  institution: string;
  /** YYYY-MM-DD. */
  valueDate: string;
  serial: number;
  records: MasavReturnRecord[];
}

/** Thrown on a file that is not a MASAV return file; `reason` is the translated message's key. */
export class MasavReturnFormatError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Reads a return file: checks every record's length and CR LF, the record
 * order (K, 1…, 5, 9s) and that the total record's amount and count match the
 * records.
 * @throws MasavReturnFormatError masavReturnFormat / masavReturnTotals.
 */
export function readMasavReturnFile(buf: Buffer): MasavReturnFile {
  const s = buf.toString('latin1');
  const lines = s.replace(/(\r\n)+$/, '').split('\r\n');
  const bad = () => new MasavReturnFormatError('masavReturnFormat');
  if (lines.length < 3 || lines.some((l) => l.length !== MASAV_RECORD_LENGTH)) throw bad();
  const f = (l: string, [from, to]: readonly [number, number]) => l.slice(from - 1, to);
  const head = lines[0];
  if (head[0] !== 'K' || head.slice(125) !== 'KOT') throw bad();
  const yymmdd = f(head, [12, 17]);
  if (!/^\d{6}$/.test(yymmdd)) throw bad();
  const valueDate = `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const institution = f(head, [2, 9]);
  const records: MasavReturnRecord[] = [];
  let i = 1;
  for (; i < lines.length && lines[i][0] === '1'; i++) {
    const l = lines[i];
    const amount = f(l, MOVE.amount);
    const ref = f(l, MOVE.reference);
    if (!/^\d{13}$/.test(amount) || !/^\d{20}$/.test(ref) || f(l, MOVE.institution) !== institution) throw bad();
    records.push({
      bank: f(l, MOVE.bank),
      branch: f(l, MOVE.branch),
      account: f(l, MOVE.account),
      payerId: f(l, MOVE.payerId),
      amount: Number(amount),
      reference: ref.replace(/^0+(?=\d)/, ''),
      reason: f(l, [MASAV_RETURN_REASON_FIELD.from, MASAV_RETURN_REASON_FIELD.to]).replace(/^0+(?=\d)/, ''),
    });
  }
  const total = lines[i];
  if (!total || total[0] !== '5' || lines[i + 1] !== '9'.repeat(MASAV_RECORD_LENGTH) || lines.length !== i + 2)
    throw bad();
  const sum = records.reduce((a, r) => a + r.amount, 0);
  if (Number(f(total, [37, 51])) !== sum || Number(f(total, [59, 65])) !== records.length)
    throw new MasavReturnFormatError('masavReturnTotals');
  return { institution, valueDate, serial: Number(f(head, [19, 21])), records };
}
