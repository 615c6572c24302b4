import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate, localParts } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { MOVEIN_FIELDS, MOVEIN_RECORD_LENGTH } from '../../integrations/accounting/movein.js';

const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));

describe('accounting export: WriteMoveinDat (seed 000 §7)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('writes the purchases of a period as fixed-width MOVEIN records that match the PRM layout', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const none = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(none.statusCode).toBe(400);
    expect(
      (
        await api.patch('/api/Club/UpdateHasavshevetDetails/999999', {
          cashAccount: '1000',
          creditAccount: '1100',
          incomeAccount: '4000',
          vatAccount: '2200',
        })
      ).statusCode,
    ).toBe(404);
    const upd = await api.patch(`/api/Club/UpdateHasavshevetDetails/${club.id}`, {
      cashAccount: '1000',
      creditAccount: '1100',
      incomeAccount: '4000',
      vatAccount: '2200',
      branch: '7',
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const c = (await api.post('/api/Client', { firstName: 'Acc' })).json();
    const p1 = (
      await api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: 11800 }],
        payments: [{ method: 0, amount: 11800 }],
        idempotencyKey: `acc-1-${c.id}`,
      })
    ).json();
    const res = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(res.statusCode, res.body).toBe(200);
    const text = res.rawPayload.toString('latin1');
    const lines = text.slice(0, -2).split('\r\n');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toHaveLength(MOVEIN_RECORD_LENGTH);
    const field = (l: string, name: string) => {
      const f = MOVEIN_FIELDS.find((x) => x[0] === name)!;
      return l.slice(f[2] - 1, f[2] - 1 + f[3]);
    };
    expect(Number(field(lines[0], 'reference'))).toBe(p1.invoiceNumber);
    expect(field(lines[0], 'amount')).toBe('000000100.00');
    expect(field(lines[1], 'amount')).toBe('000000018.00');
    expect(field(lines[0], 'debitAccount').trim()).toBe('1000');
    expect(field(lines[0], 'creditAccount').trim()).toBe('4000');
    expect(field(lines[1], 'creditAccount').trim()).toBe('2200');
    expect(field(lines[0], 'date')).toBe(today().slice(8, 10) + today().slice(5, 7) + today().slice(0, 4));
    expect(field(lines[0], 'branch')).toBe('007');
    const prm = (await api.get('/api/Report/MoveinPrm')).rawPayload.toString('latin1').split('\r\n');
    expect(prm[0]).toBe(String(MOVEIN_RECORD_LENGTH));
    expect(prm[1].startsWith('1 3 X')).toBe(true);
  });

  it('SUMIT settings keep the API key encrypted and never answer it', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const r = await api.post(`/api/Club/UpdateClubSumitSettings/${club.id}`, {
      companyId: '123456',
      apiKey: 'secret-key-123456',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ companyId: '123456', sendInvoices: true, apiKeySet: true });
    expect(r.body).not.toContain('secret-key');
    const run = await api.post('/api/Club/StartChargeClub');
    expect(run.statusCode, run.body).toBe(200);
  });
});
