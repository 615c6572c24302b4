import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { isoDate, localParts, plusDays } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { clubs } from '../../db/schema.js';

/**
 * The dealer's identity on tax documents (docs/money.md "The dealer's
 * identity on tax documents"): an Israeli club without a valid dealer number
 * or an address sells nothing — refused with DEALER_IDENTITY_MISSING before
 * any card is charged or any row written —, issues no document for an older
 * sale, refunds nothing, and its automatic renewal logs the error per client
 * without charging, without a debt, and renews once the number is set.
 */
const card = { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' };
const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));
const NO_DEALER = { companyNumber: '', addressCity: '', addressStreet: '', addressHouseNumber: '' };
let seq = 0;
const key = () => `dealer-${Date.now()}-${++seq}`;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** Counts of what a sale writes, for one club. */
async function written(clubId: number) {
  const n = async (q: ReturnType<typeof sql>) =>
    ((await ctx.database.db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0].n;
  return {
    purchases: await n(sql`select count(*)::int as n from purchases where club_id = ${clubId}`),
    charges: await n(sql`select count(*)::int as n from charges where club_id = ${clubId}`),
    ledger: await n(sql`select count(*)::int as n from balance_ledger where club_id = ${clubId}`),
    debts: await n(sql`select count(*)::int as n from debts where club_id = ${clubId}`),
    documents: await n(sql`select count(*)::int as n from purchase_documents where club_id = ${clubId}`),
    counter: await n(sql`select coalesce((select last from invoice_counters where club_id = ${clubId}), 0)::int as n`),
  };
}

/** Sets a club's settings as stored (as a club created before the rule, or by the operator). */
async function storeSettings(clubId: number, patch: object) {
  const [row] = await ctx.database.db.select().from(clubs).where(eq(clubs.id, clubId));
  await ctx.database.db
    .update(clubs)
    .set({ settings: { ...(row.settings as object), ...patch } })
    .where(eq(clubs.id, clubId));
}

describe("the dealer's identity on tax documents", () => {
  it('refuses a sale by card or cash before anything is charged or written, naming what to set', async () => {
    const { api, club } = await signedInAdmin(ctx, { settings: NO_DEALER });
    const c = (await api.post('/api/Client', { firstName: 'Dana' })).json();
    const before = await written(club.id);
    for (const payments of [[{ method: 1, amount: 10000, card }], [{ method: 0, amount: 10000 }]]) {
      const res = await api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 2, quantity: 1, unitPrice: 10000 }],
        payments,
        idempotencyKey: key(),
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'DEALER_IDENTITY_MISSING',
        details: { fields: ['companyNumber', 'address'] },
      });
    }
    expect(await written(club.id)).toEqual(before);
    expect(before).toMatchObject({ purchases: 0, charges: 0, ledger: 0, counter: 0 });
    expect((await api.get(`/api/getBalance/${c.id}`)).json()).toMatchObject({ balance: 0 });
  });

  it('a number failing the check digit is refused at the sale and in the settings; a valid one sells', async () => {
    const { api, club } = await signedInAdmin(ctx, { settings: { companyNumber: '514123456' } });
    const c = (await api.post('/api/Client', { firstName: 'Dana' })).json();
    const sale = (idempotencyKey: string) =>
      api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 2, quantity: 1, unitPrice: 5000 }],
        payments: [{ method: 0, amount: 5000 }],
        idempotencyKey,
      });
    const refused = await sale(key());
    expect(refused.json()).toMatchObject({
      code: 'DEALER_IDENTITY_MISSING',
      details: { fields: ['companyNumberInvalid'] },
    });
    const bad = await api.patch(`/api/Club/${club.id}`, { companyNumber: '512345678' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'companyNumber', message: 'invalidIsraeliCompanyNumber' }]);
    // Hyphens between the digits are accepted as typed.
    expect((await api.patch(`/api/Club/${club.id}`, { companyNumber: '51-234567-9' })).statusCode).toBe(200);
    const ok = await sale(key());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().invoiceNumber).toBe(1);
    // A club outside Israel issues receipts, not tax documents: no number needed.
    const uk = await signedInAdmin(ctx, { settings: { ...NO_DEALER, country: 'UK' } });
    expect((await uk.api.patch(`/api/Club/${uk.club.id}`, { companyNumber: '12345678' })).statusCode).toBe(200);
    const ukClient = (await uk.api.post('/api/Client', { firstName: 'Ann' })).json();
    const ukSale = await uk.api.post('/api/Client/AdminPurchase', {
      clientId: ukClient.id,
      purchaseItems: [{ itemType: 2, quantity: 1, unitPrice: 5000 }],
      payments: [{ method: 0, amount: 5000 }],
      idempotencyKey: key(),
    });
    expect(ukSale.statusCode, ukSale.body).toBe(200);
  });

  it('an older sale gets no document and no refund while the identity is missing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Dana' })).json();
    const p = (
      await api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 4, quantity: 1, unitPrice: 3000 }],
        payments: [{ method: 1, amount: 3000, card }],
        idempotencyKey: key(),
      })
    ).json();
    await storeSettings(club.id, { addressStreet: '' });
    const before = await written(club.id);
    const pdf = await api.get(`/api/Purchase/DocumentPdf/${p.id}`);
    expect(pdf.statusCode).toBe(422);
    expect(pdf.json()).toMatchObject({ code: 'DEALER_IDENTITY_MISSING', details: { fields: ['address'] } });
    const refund = await api.post(`/api/Purchase/Refund/${p.id}`, { reason: 'x', idempotencyKey: key() });
    expect(refund.json()).toMatchObject({ code: 'DEALER_IDENTITY_MISSING' });
    expect(await written(club.id)).toEqual(before);
    expect((await api.get(`/api/Purchase/${p.id}`)).json()).toMatchObject({ refunded: 0 });
    const [charge] = (
      (await ctx.database.db.execute(
        sql`select status, refunded from charges where club_id = ${club.id}`,
      )) as unknown as { rows: { status: string; refunded: number }[] }
    ).rows;
    expect(charge).toEqual({ status: 'approved', refunded: 0 });
    // With the address back the document is issued, frozen with it.
    await storeSettings(club.id, { addressStreet: 'רחוב הבדיקה' });
    expect((await api.get(`/api/Purchase/DocumentPdf/${p.id}`)).statusCode).toBe(200);
  });

  it('automatic renewal logs the error per due client, charges nothing, registers no debt, and renews once set', async () => {
    const { api, club } = await signedInAdmin(ctx, { settings: { autoRenewDaysBefore: 5, autoRenewDaysAfter: 2 } });
    const g = (await api.post('/api/Group', { name: 'G', subscriptionEndType: 4 })).json();
    const c = (await api.post('/api/Client', { firstName: 'Renew', groupId: g.id })).json();
    const pm = await api.post('/api/CreditCard', { kind: 'card', clientId: c.id, card });
    expect(pm.statusCode, pm.body).toBe(200);
    const buy = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [
        { itemType: 1, unitPrice: 30000, subscription: { period: 'month', start: plusDays(today(), -29) } },
      ],
      payments: [{ method: 0, amount: 30000 }],
      idempotencyKey: key(),
    });
    expect(buy.statusCode, buy.body).toBe(200);
    const end = (await api.get(`/api/Client/${c.id}`)).json().subscriptionEnd;

    await storeSettings(club.id, NO_DEALER);
    const before = await written(club.id);
    for (let run = 0; run < 2; run++) {
      const res = (await api.post('/api/AutoRenew/DoAutoRenrenew')).json();
      expect(res).toMatchObject({ considered: 1, renewed: 0, failed: 1 });
    }
    expect(await written(club.id)).toEqual(before);
    const logs = (await api.get(`/api/AutoRenew/GetLogsByClientId/${c.id}`)).json();
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ success: false, error: 'DEALER_IDENTITY_MISSING', amount: 30000 });
    expect((await api.get(`/api/Client/${c.id}`)).json().subscriptionEnd).toBe(end);

    await storeSettings(club.id, { companyNumber: '514123454', addressCity: 'ירושלים', addressStreet: 'יפו' });
    expect((await api.post('/api/AutoRenew/DoAutoRenrenew')).json()).toMatchObject({ considered: 1, renewed: 1 });
    expect((await api.get(`/api/Client/${c.id}`)).json().subscriptionEnd > end).toBe(true);
  });
});
