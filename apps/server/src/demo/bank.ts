/**
 * The bank's side of the demo club's MASAV round trips: the return
 * ("החזרות") file the clearing center sends back for a debit file, built from
 * the sent bytes by position (DOMAIN-FACTS "MASAV"; docs/money.md "MASAV
 * return file"): the header as sent, the returned movement records as sent
 * with the return reason code in positions 103–105, a total record with their
 * amount (37–51) and count (59–65), and the record of 9s. The demo history
 * (demo/money.ts) returns a few debits of each file so that rejected
 * collections become open debts, as in life.
 *
 * @param sent the debit file as the club sent it (latin1 records, CR LF)
 * @param returnedIndexes indexes (0-based) of the movement records the bank returns
 * @param reason the bank's return reason code ('2' = no funds)
 */
export function bankReturnFile(sent: Buffer, returnedIndexes: number[], reason = '2'): Buffer {
  const lines = sent.toString('latin1').replace(/\r\n$/, '').split('\r\n');
  const moves = lines.filter((l) => l[0] === '1');
  const picked = returnedIndexes.filter((i) => i >= 0 && i < moves.length).map((i) => moves[i]);
  const out = picked.map((l) => l.slice(0, 102) + reason.padStart(3, '0') + l.slice(105));
  const total = picked.reduce((s, l) => s + Number(l.slice(61, 74)), 0);
  const t = lines.find((l) => l[0] === '5')!;
  const five =
    t.slice(0, 36) +
    String(total).padStart(15, '0') +
    t.slice(51, 58) +
    String(out.length).padStart(7, '0') +
    t.slice(65);
  return Buffer.from([lines[0], ...out, five, '9'.repeat(128)].join('\r\n') + '\r\n', 'latin1');
}
