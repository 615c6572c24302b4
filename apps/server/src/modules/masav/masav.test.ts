import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { createTestApp, signedInAdmin, validPersonalId, type TestContext } from '../../../test/harness.js';
import { parseMasavDebitFile } from '../../../test/masav-parser.js';
import { buildMasavDebitFile, visualOrder } from '../../integrations/masav/writer.js';

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
        institutionName: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ1234',
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

  it("another club's file is not found", async () => {
    const a = await signedInAdmin(ctx);
    expect((await a.api.get('/api/MasavFile/Download/999999')).statusCode).toBe(404);
  });
});
