import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { createTestApp, signedInAdmin, validPersonalId, type TestContext } from '../../../test/harness.js';
import { parseMasavDebitFile } from '../../../test/masav-parser.js';
import { buildMasavDebitFile, masavText, visualOrder } from '../../integrations/masav/writer.js';
import { bankReturnFile, multipartFile } from '../../../test/masav-bank.js';
import { and, eq } from 'drizzle-orm';
import { debts, masavResults, purchases } from '../../db/schema.js';

const require = createRequire(import.meta.url);

describe('MASAV files (seed 000 §7; DOMAIN-FACTS format)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('writes the same bytes as the npm masav package (debit file, code A Hebrew in visual order)', () => {
    const spec = {
      institution: {
        institutionCode: '12345678',
        sendingInstitution: '12345',
        institutionName: 'abcdefghijklmnopqrstuvwxyz1234',
      },
      valueDate: '2026-03-05',
      createdDate: '2026-03-01',
      serial: 7,
      debits: [
        {
          bankCode: '12',
          branch: '571',
          account: '41116',
          payerId: validPersonalId(1),
          payerName: 'דנה לוי',
          amount: 123456,
          reference: '1001',
        },
        {
          bankCode: '9',
          branch: '1',
          account: '654321',
          payerId: validPersonalId(2),
          payerName: 'שלמה',
          amount: 50,
          reference: '1002',
        },
      ],
    };
    const mine = buildMasavDebitFile(spec);
    const { InstitutionGetPayment, GetPaymentsRecord, MasaVGetPayments } = require('masav');
    const file = new MasaVGetPayments();
    const inst = new InstitutionGetPayment(
      '12345678',
      '12345',
      '260301',
      '260305',
      spec.institution.institutionName,
      '007',
    );
    inst.addPaymentRecords(
      spec.debits.map(
        (d) =>
          new GetPaymentsRecord(
            d.bankCode.padStart(2, '0'),
            d.branch,
            d.account,
            d.payerId,
            d.payerName,
            d.reference,
            d.amount / 100,
          ),
      ),
    );
    file.addInstitution(inst);
    expect(mine.toString('latin1')).toBe(file.toBuffer().toString('latin1'));
    const parsed = parseMasavDebitFile(mine);
    expect(parsed).toMatchObject({
      total: 123506,
      count: 2,
      serial: '007',
      valueDate: '260305',
      createdDate: '260301',
    });
    expect(parsed.records[0]).toMatchObject({
      bank: '12',
      branch: '571',
      account: '000041116',
      amount: 123456,
      type: '504',
    });
    expect(parsed.records[0].name).toBe('IEL DPC         '); // "דנה לוי" visual order in code A
  });

  it('keeps Latin runs in reading order inside Hebrew text', () => {
    expect(visualOrder('דנה ABC')).toBe('ABC הנד');
    expect(visualOrder('Dana Levi')).toBe('Dana Levi');
  });

  it('builds a file from clients with a MASAV authorization and what they owe; parses back exactly; test mode changes nothing', async () => {
    const { api } = await signedInAdmin(ctx);
    const none = await api.post('/api/MasavFile?testMode=true');
    expect(none.statusCode).toBe(400);
    expect(
      (
        await api.request('PUT', '/api/MasavFile/Settings', {
          institutionCode: '12345678',
          sendingInstitution: '54321',
          institutionName: 'מקווה הדגמה',
        })
      ).statusCode,
    ).toBe(200);
    expect((await api.post('/api/MasavFile?testMode=true')).json().code).toBe('NOTHING_TO_COLLECT');
    const owners: { id: number; owes: number; limit: number }[] = [];
    for (const [i, owes, limit] of [
      [1, 12000, 0],
      [2, 3550, 0],
      [3, 90000, 50000], // above the charge limit: its one debt waits
    ]) {
      const c = (await api.post('/api/Client', { firstName: `לקוח ${i}` })).json();
      const pm = await api.post('/api/CreditCard', {
        kind: 'masav',
        clientId: c.id,
        bankCode: '12',
        branch: '571',
        account: '041116',
        ownerId: validPersonalId(100 + i),
        ownerName: `בעל חשבון ${i}`,
        chargeLimit: limit,
      });
      expect(pm.statusCode, pm.body).toBe(200);
      await api.post('/api/Debts', { clientId: c.id, amount: owes });
      owners.push({ id: c.id, owes, limit });
    }
    // A client without an authorization is not in the file.
    const other = (await api.post('/api/Client', { firstName: 'No auth' })).json();
    await api.post('/api/Debts', { clientId: other.id, amount: 777 });
    // A purchase paid by MASAV becomes a debt collected by the file.
    const buy = await api.post('/api/Client/AdminPurchase', {
      clientId: owners[1].id,
      purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: 1000 }],
      payments: [{ method: 5, amount: 1000 }],
      idempotencyKey: `masav-buy-${owners[1].id}`,
    });
    expect(buy.statusCode, buy.body).toBe(200);
    expect(buy.json().paymentStatus).toBe(2);

    const test = await api.post('/api/MasavFile?testMode=true');
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ testMode: true, count: 2, total: 12000 + 3550 + 1000 });
    const dl = await api.get(`/api/MasavFile/Download/${test.json().id}`);
    expect(dl.headers['content-disposition']).toContain('TEST-');
    const parsed = parseMasavDebitFile(dl.rawPayload);
    expect(parsed.records.map((r) => r.amount).sort((a, b) => a - b)).toEqual([4550, 12000]);
    expect(parsed.records.every((r) => r.account === '000041116' && r.bank === '12')).toBe(true);
    expect(parsed.institution).toBe('12345678');

    const real = (await api.post('/api/MasavFile?testMode=false')).json();
    expect(real).toMatchObject({ testMode: false, count: 2, serial: 1 });
    expect(parseMasavDebitFile((await api.get(`/api/MasavFile/Download/${real.id}`)).rawPayload).total).toBe(16550);
    // Collected debts are not collected again.
    expect((await api.post('/api/MasavFile?testMode=false')).json().code).toBe('NOTHING_TO_COLLECT');
    const list = (await api.get('/api/MasavFile')).json();
    expect(list).toHaveLength(2);
  });

  it('payer names: Latin letters kept as Latin in small letters (code A gives A–Z to Hebrew); a long name keeps its start', () => {
    // Capital A–Z would be read as ב…ת by the bank.
    expect(masavText('Dana LEVI', 16)).toBe('dana levi       ');
    expect(masavText('דנה Levi', 16)).toBe('levi DPC        ');
    // 21 characters: the first 16 (the first name and the start of the family name) are kept.
    const name = 'אברהם יצחק ישראלי כהן';
    const field = masavText(name, 16);
    expect(field).toBe(masavText(name.slice(0, 16), 16));
    expect(field.trimEnd().endsWith('MDXA&')).toBe(true); // "אברהם" read right to left ends the visual field
  });

  it('round trip: a MASAV file and the bank return file; rejected debits become open debts with the reason, the rest are paid with a receipt', async () => {
    const { api } = await signedInAdmin(ctx);
    const db = ctx.database.db;
    expect(
      (
        await api.request('PUT', '/api/MasavFile/Settings', {
          institutionCode: '87654321',
          sendingInstitution: '54321',
          institutionName: 'Round Trip',
        })
      ).statusCode,
    ).toBe(200);
    const ids: number[] = [];
    const bought: { id: number; invoiceNumber: number }[] = [];
    for (const [i, price] of [
      [1, 4000],
      [2, 2600],
      [3, 9900],
    ]) {
      const c = (await api.post('/api/Client', { firstName: `RT ${i}` })).json();
      const pm = await api.post('/api/CreditCard', {
        kind: 'masav',
        clientId: c.id,
        bankCode: '12',
        branch: '571',
        account: '041116',
        ownerId: validPersonalId(500 + i),
        ownerName: `Owner ${i}`,
      });
      expect(pm.statusCode, pm.body).toBe(200);
      const buy = await api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: price }],
        payments: [{ method: 5, amount: price }],
        idempotencyKey: `rt-${c.id}`,
      });
      expect(buy.statusCode, buy.body).toBe(200);
      ids.push(c.id);
      bought.push(buy.json());
    }
    // A manual debt of client 3 travels in the same debit as its purchase.
    await api.post('/api/Debts', { clientId: ids[2], amount: 100 });
    const file = (await api.post('/api/MasavFile?testMode=false')).json();
    expect(file).toMatchObject({ count: 3, total: 4000 + 2600 + 10000, returnedAt: null });
    const sent = (await api.get(`/api/MasavFile/Download/${file.id}`)).rawPayload;
    expect(parseMasavDebitFile(sent).count).toBe(3);

    const upload = (buf: Buffer) => {
      const m = multipartFile('return.msv', buf);
      return api.request('POST', '/api/MasavFile/Return', m.body, m.headers);
    };
    // Not a return file; a return of an unknown debit: refused, nothing changes.
    expect((await upload(Buffer.from('hello'))).json().details?.[0]?.message ?? '').toBe('masavReturnFormat');
    const noFile = await api.request('POST', '/api/MasavFile/Return', {});
    expect(noFile.statusCode).toBe(400);
    const unknown = await upload(bankReturnFile(sent, [{ amount: 4000, reason: '2' }]).fill(0x39, 130 + 74, 130 + 94));
    expect(unknown.json().details[0].message).toBe('masavReturnUnknownDebit');

    const ret = await upload(
      bankReturnFile(sent, [
        { amount: 2600, reason: '2' },
        { amount: 10000, reason: '11' },
      ]),
    );
    expect(ret.statusCode, ret.body).toBe(200);
    expect(ret.json()).toEqual({
      fileId: file.id,
      collected: 1,
      collectedAmount: 4000,
      rejected: 3,
      rejectedAmount: 12600,
    });
    // Read once only.
    expect((await upload(bankReturnFile(sent, []))).json().details[0].message).toBe('masavReturnAlreadyRead');

    const inFile = await db.select().from(debts).where(eq(debts.masavFileId, file.id));
    expect(inFile.map((d) => d.clientId)).toEqual([ids[0]]); // the rejected ones left the file
    const [paid] = await db.select().from(debts).where(eq(debts.clientId, ids[0]));
    expect(paid).toMatchObject({ paid: 4000, amount: 4000, returnReason: null });
    const rejected = await db.select().from(debts).where(eq(debts.clientId, ids[2]));
    expect(rejected.map((d) => [d.paid, d.returnReason, d.masavFileId])).toEqual([
      [0, '11', null],
      [0, '11', null],
    ]);
    const status = async (id: number) =>
      (await db.select({ s: purchases.paymentStatus }).from(purchases).where(eq(purchases.id, id)))[0].s;
    expect([await status(bought[0].id), await status(bought[1].id), await status(bought[2].id)]).toEqual([1, 2, 2]);
    const [receipt] = await db
      .select()
      .from(masavResults)
      .where(and(eq(masavResults.purchaseId, bought[0].id), eq(masavResults.collected, true)));
    // The collected MASAV purchase takes its number (and document) when collected: the receipt's number is its invoice number.
    expect(receipt.receiptNumber).toBeGreaterThan(0);
    const [collected] = await db.select().from(purchases).where(eq(purchases.id, bought[0].id));
    expect(collected.invoiceNumber).toBe(receipt.receiptNumber);
    expect((await api.get('/api/MasavFile')).json()[0].returnedAt).toBeTruthy();
    // The rejected debts are collected again by the next file.
    expect((await api.post('/api/MasavFile?testMode=true')).json()).toMatchObject({ count: 2, total: 12600 });
  });

  it("another club's file is not found", async () => {
    const a = await signedInAdmin(ctx);
    expect((await a.api.get('/api/MasavFile/Download/999999')).statusCode).toBe(404);
  });
});
