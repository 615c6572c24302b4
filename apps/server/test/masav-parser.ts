import { isValidIsraeliId } from '@venue/domain';

/**
 * An independent reader of MASAV debit files for the tests (DOMAIN-FACTS
 * "MASAV" positions, 1-based inclusive): checks every record's length and
 * CR LF, the record order, the totals and counts, and the payer ID check
 * digits, and returns the fields.
 */
export interface ParsedMasav {
  institution: string;
  valueDate: string;
  serial: string;
  createdDate: string;
  sending: string;
  name: string;
  records: {
    bank: string;
    branch: string;
    account: string;
    payerId: string;
    name: string;
    amount: number;
    reference: string;
    period: string;
    type: string;
  }[];
  total: number;
  count: number;
}

export function parseMasavDebitFile(buf: Buffer): ParsedMasav {
  const s = buf.toString('latin1');
  if (!s.endsWith('\r\n')) throw new Error('file must end with CR LF');
  const lines = s.slice(0, -2).split('\r\n');
  for (const [i, l] of lines.entries()) {
    if (l.length !== 128) throw new Error(`record ${i} has length ${l.length}`);
    if (/[^\x20-\x7e]/.test(l)) throw new Error(`record ${i} has a non-ASCII byte`);
  }
  const f = (l: string, from: number, to: number) => l.slice(from - 1, to);
  const h = lines[0];
  if (f(h, 1, 1) !== 'K' || f(h, 126, 128) !== 'KOT') throw new Error('bad header');
  if (f(h, 10, 11) !== '00' || f(h, 18, 18) !== '0' || f(h, 22, 22) !== '0' || f(h, 34, 39) !== '000000') {
    throw new Error('bad header constants');
  }
  if (f(h, 70, 125) !== ' '.repeat(56)) throw new Error('bad header filler');
  const last = lines[lines.length - 1];
  if (last !== '9'.repeat(128)) throw new Error('missing 9s record');
  const tot = lines[lines.length - 2];
  if (f(tot, 1, 1) !== '5') throw new Error('missing total record');
  if (f(tot, 2, 21) !== f(h, 2, 21)) {
    throw new Error('total record 2–21 differ from the header');
  }
  if (f(tot, 22, 36) !== '0'.repeat(15) || f(tot, 52, 58) !== '0'.repeat(7) || f(tot, 66, 128) !== ' '.repeat(63)) {
    throw new Error('bad total record filler');
  }
  const records = lines.slice(1, -2).map((l, i) => {
    if (f(l, 1, 1) !== '1') throw new Error(`record ${i + 1} is not a movement`);
    if (f(l, 2, 9) !== f(h, 2, 9)) throw new Error('institution differs');
    if (f(l, 10, 17) !== '00000000' || f(l, 23, 26) !== '0000' || f(l, 36, 36) !== '0') throw new Error('bad zeros');
    if (f(l, 103, 105) !== '000' || f(l, 109, 126) !== '0'.repeat(18) || f(l, 127, 128) !== '  ') {
      throw new Error('bad tail');
    }
    for (const [a, b] of [
      [18, 35],
      [37, 45],
      [62, 102],
    ]) {
      if (!/^\d+$/.test(f(l, a, b))) throw new Error(`non-numeric field ${a}–${b}`);
    }
    const payerId = f(l, 37, 45);
    if (!isValidIsraeliId(payerId)) throw new Error(`payer ID ${payerId} fails its check digit`);
    return {
      bank: f(l, 18, 19),
      branch: f(l, 20, 22),
      account: f(l, 27, 35),
      payerId,
      name: f(l, 46, 61),
      amount: Number(f(l, 62, 74)),
      reference: f(l, 75, 94),
      period: f(l, 95, 102),
      type: f(l, 106, 108),
    };
  });
  const total = Number(f(tot, 37, 51));
  const count = Number(f(tot, 59, 65));
  if (count !== records.length) throw new Error(`count ${count} ≠ ${records.length} records`);
  if (total !== records.reduce((a, r) => a + r.amount, 0)) throw new Error('total differs from the sum');
  return {
    institution: f(h, 2, 9),
    valueDate: f(h, 12, 17),
    serial: f(h, 19, 21),
    createdDate: f(h, 23, 28),
    sending: f(h, 29, 33),
    name: f(h, 40, 69),
    records,
    total,
    count,
  };
}
