/**
 * An independent reader of Hashavshevet movement imports for the tests,
 * written from the published layout ("תנועות הנה"ח – יבוא מקובץ טקסט";
 * DOMAIN-FACTS "Hashavshevet"), not from the writer: MOVEIN.PRM line 1 is the
 * record length, lines 2–35 give "first last" columns per field and the line
 * NUMBER names the field (0 0 = not in the file). It reads MOVEIN.DAT with
 * those positions (Windows-1255, CR LF), checks each record's length and that
 * each movement balances, and returns the movements in agorot.
 */

/** PRM line → field, as the published list names them (lines 2–17 and 28). */
const PUBLISHED: Record<number, string> = {
  2: 'type',
  3: 'ref1',
  4: 'ref2',
  5: 'refDate',
  6: 'valueDate',
  7: 'costing',
  8: 'currency',
  9: 'details',
  10: 'debit1',
  11: 'debit2',
  12: 'credit1',
  13: 'credit2',
  14: 'debitAmount1',
  15: 'debitAmount2',
  16: 'creditAmount1',
  17: 'creditAmount2',
  28: 'branch',
};

export interface ReadMovement {
  type: string;
  ref1: string;
  ref2: string;
  refDate: string;
  valueDate: string;
  details: string;
  branch: string;
  debits: { account: string; amount: number }[];
  credits: { account: string; amount: number }[];
}

const decode1255 = (buf: Buffer) =>
  [...buf]
    .map((b) => (b >= 0xe0 && b <= 0xfa ? String.fromCharCode(0x5d0 + b - 0xe0) : String.fromCharCode(b)))
    .join('');

/** Reads MOVEIN.PRM: the record length and each field's [first, last] columns by name. */
export function readPrm(prm: Buffer): { length: number; fields: Map<string, [number, number]> } {
  const lines = decode1255(prm).replace(/\r\n$/, '').split('\r\n');
  if (lines.length !== 35) throw new Error(`PRM has ${lines.length} lines, not 35`);
  const num = (l: string) => l.split(';')[0].trim().split(/\s+/).map(Number);
  const [length] = num(lines[0]);
  const fields = new Map<string, [number, number]>();
  for (let n = 2; n <= 35; n++) {
    const [a, b] = num(lines[n - 1]);
    if (a === 0 && b === 0) continue;
    if (!PUBLISHED[n]) throw new Error(`PRM line ${n} is not a field this reader knows`);
    if (!(a >= 1 && b >= a)) throw new Error(`PRM line ${n}: ${lines[n - 1]}`);
    fields.set(PUBLISHED[n], [a, b]);
  }
  return { length, fields };
}

/** "1234.56" (spaces around) → 123456 agorot; blank → 0. */
const agorot = (s: string) => {
  const t = s.trim();
  if (!t) return 0;
  if (!/^\d+\.\d{2}$/.test(t)) throw new Error(`amount "${s}"`);
  return Number(t.replace('.', ''));
};

/** Reads MOVEIN.DAT with the PRM's positions. */
export function readMovein(dat: Buffer, prm: Buffer): ReadMovement[] {
  const { length, fields } = readPrm(prm);
  const text = decode1255(dat);
  if (!text.endsWith('\r\n')) throw new Error('DAT must end with CR LF');
  const records = text.slice(0, -2).split('\r\n');
  return records.map((r, i) => {
    if (r.length + 2 !== length) throw new Error(`record ${i}: ${r.length + 2} characters, PRM says ${length}`);
    const get = (name: string) => {
      const f = fields.get(name);
      return f ? r.slice(f[0] - 1, f[1]) : '';
    };
    const side = (acc: string[], amt: string[]) =>
      acc
        .map((a, k) => ({ account: get(a).trim(), amount: agorot(get(amt[k])) }))
        .filter((x) => x.account !== '' || x.amount !== 0);
    const m: ReadMovement = {
      type: get('type').trim(),
      ref1: get('ref1').trim(),
      ref2: get('ref2').trim(),
      refDate: get('refDate').trim(),
      valueDate: get('valueDate').trim(),
      details: get('details').trim(),
      branch: get('branch').trim(),
      debits: side(['debit1', 'debit2'], ['debitAmount1', 'debitAmount2']),
      credits: side(['credit1', 'credit2'], ['creditAmount1', 'creditAmount2']),
    };
    const sum = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
    if (sum(m.debits) !== sum(m.credits)) throw new Error(`record ${i} does not balance`);
    return m;
  });
}

/** Debit and credit sums per account over the movements. */
export function sumsByAccount(moves: ReadMovement[]) {
  const debit: Record<string, number> = {};
  const credit: Record<string, number> = {};
  for (const m of moves) {
    for (const d of m.debits) debit[d.account] = (debit[d.account] ?? 0) + d.amount;
    for (const c of m.credits) credit[c.account] = (credit[c.account] ?? 0) + c.amount;
  }
  return { debit, credit };
}
