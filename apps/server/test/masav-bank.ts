import { validPersonalId } from './factories.js';
import type { Api } from './harness.js';

/**
 * The bank's side of a MASAV round trip for the tests: the return
 * ("החזרות") file of a sent debit file, built from the sent bytes by
 * position (DOMAIN-FACTS "MASAV"): the header as sent, the returned movement
 * records as sent with the return reason code in positions 103–105, a total
 * record with their amount (37–51) and count (59–65), and the 9s record
 * (docs/money.md "MASAV return file"). Also a multipart body for the upload.
 */
export function bankReturnFile(sent: Buffer, returned: { amount: number; reason: string }[]): Buffer {
  const lines = sent.toString('latin1').replace(/\r\n$/, '').split('\r\n');
  const moves = lines.filter((l) => l[0] === '1');
  const picked: string[] = [];
  for (const r of returned) {
    const i = moves.findIndex((l) => Number(l.slice(61, 74)) === r.amount && !picked.includes(l));
    if (i < 0) throw new Error(`no debit of ${r.amount} in the file`);
    picked.push(moves[i]);
  }
  const out = picked.map((l, k) => l.slice(0, 102) + returned[k].reason.padStart(3, '0') + l.slice(105));
  const total = returned.reduce((s, r) => s + r.amount, 0);
  const t = lines.find((l) => l[0] === '5')!;
  const five =
    t.slice(0, 36) +
    String(total).padStart(15, '0') +
    t.slice(51, 58) +
    String(out.length).padStart(7, '0') +
    t.slice(65);
  return Buffer.from([lines[0], ...out, five, '9'.repeat(128)].join('\r\n') + '\r\n', 'latin1');
}

/** A multipart/form-data body with one file field named "file". */
export function multipartFile(name: string, data: Buffer) {
  const boundary = `----masav${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** What `masavClientBuying` made: the client, and the MASAV sale (its purchase id). */
export interface MasavSale {
  clientId: number;
  purchaseId: number;
}

/**
 * A client with a MASAV authorization (bank 12, branch 571, a check-digit-valid owner ID from `n`)
 * who bought a towel at `price` agorot paid by MASAV (a Pending sale and its debt), through the
 * API as the console does.
 */
export async function masavClientBuying(api: Api, n: number, price: number): Promise<MasavSale> {
  const c = (await api.post('/api/Client', { firstName: `Masav ${n}` })).json();
  const pm = await api.post('/api/CreditCard', {
    kind: 'masav',
    clientId: c.id,
    bankCode: '12',
    branch: '571',
    account: '041116',
    ownerId: validPersonalId(700 + n),
    ownerName: `Owner ${n}`,
  });
  if (pm.statusCode !== 200) throw new Error(`MASAV authorization: ${pm.body}`);
  const buy = await api.post('/api/Client/AdminPurchase', {
    clientId: c.id,
    purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: price }],
    payments: [{ method: 5, amount: price }],
    idempotencyKey: `masav-sale-${c.id}`,
  });
  if (buy.statusCode !== 200) throw new Error(`MASAV sale: ${buy.body}`);
  return { clientId: c.id as number, purchaseId: buy.json().id as number };
}
