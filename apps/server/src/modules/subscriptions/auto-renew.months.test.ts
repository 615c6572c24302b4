import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { AutoRenewMethod, PurchaseItemType, SubscriptionEndType } from '@venue/domain';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import { makeClient, makeGroup, makePaymentMethod, makePurchase } from '../../../test/factories.js';
import { queryRows } from '../../db/query.js';
import { clients, purchaseItems } from '../../db/schema.js';
import { SandboxProvider } from '../../integrations/clearing/sandbox.js';
import { runAutoRenew, saveAutoRenewSettings } from './subscriptions.service.js';
import { localInstant } from '../../../test/time.js';

/**
 * Automatic renewal over several months (docs/money.md "Automatic renewal",
 * seed 001 §4): the monthly price comes from the client's monthly rate, never
 * from what a prorated period happened to cost; a run is idempotent per
 * client (a second run the same day or the next charges nothing new).
 *
 * The expected prices are computed here by hand from the seed's rule
 * (monthly × days left / days in the month, rounded to the agora), not with
 * the domain's `renewalQuote`.
 */
const MONTHLY = 18_000; // ₪180
/** 10:00 in Jerusalem on a day of the simulated calendar. */
const day = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return localInstant('Asia/Jerusalem', y, m, d, 10);
};

describe('automatic renewal over months', () => {
  let ctx: TestContext;
  const provider = new SandboxProvider();
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  /** A club renewing by `method`, and one client paying ₪180 a month whose subscription ends on `end`. */
  async function setup(method: number, end: string, daysBefore: number, daysAfter = 3) {
    const club = await makeClub(ctx, {
      settings: { autoRenewDaysBefore: daysBefore, autoRenewDaysAfter: daysAfter },
    });
    await saveAutoRenewSettings(ctx.database.db, club.id, {
      method,
      lastDayOfMonth: null,
      lastDayTreatment: 'nextMonth',
    } as never);
    const g = await makeGroup(ctx, club.id, { subscriptionEndType: SubscriptionEndType.EndOfGregorianMonth });
    const c = await makeClient(ctx, club.id, { groupId: g.id, subscriptionStart: '2031-10-15', subscriptionEnd: end });
    await makePaymentMethod(ctx, c, { cardToken: `sbx_ok_4242_m${c.id}`, cardLastFour: '4242' });
    const bought = await makePurchase(ctx, club.id, {
      clientId: c.id,
      at: day('2031-10-15'),
      lines: [{ itemType: PurchaseItemType.NewSubscription, unitPrice: MONTHLY, expiry: end }],
      payments: [[0, MONTHLY]],
    });
    await ctx.database.db
      .update(purchaseItems)
      .set({ details: { period: 'month', start: '2031-10-15', end, monthlyPrice: MONTHLY } })
      .where(eq(purchaseItems.id, bought.items[0].id));
    return { clubId: club.id, clientId: c.id };
  }

  /** The client's renewals, oldest first: the price charged and the period sold. */
  const renewals = (clubId: number, clientId: number) =>
    queryRows<{ price: number; start: string; end: string; monthly: number }>(
      ctx.database.db,
      sql`select i.price_with_vat as price, i.details->>'start' as start, i.details->>'end' as end,
                 (i.details->>'monthlyPrice')::int as monthly
            from purchase_items i join purchases p on p.club_id = i.club_id and p.id = i.purchase_id
           where p.club_id = ${clubId} and p.client_id = ${clientId} and p.source = 'autorenew'
           order by p.id`,
    );
  const endOf = async (clientId: number) =>
    String(
      (
        await ctx.database.db
          .select({ e: clients.subscriptionEnd })
          .from(clients)
          .where(and(eq(clients.id, clientId)))
      )[0].e,
    ).slice(0, 10);
  const run = (clubId: number, iso: string) => runAutoRenew(ctx.database.db, provider, clubId, { at: day(iso) });

  it('"remainder of the month": 2 days of November prorated, then December at the full ₪180 (not ₪12)', async () => {
    const { clubId, clientId } = await setup(AutoRenewMethod.RemainderProrated, '2031-11-28', 0);
    await run(clubId, '2031-11-29');
    await run(clubId, '2031-12-01');
    await run(clubId, '2032-01-01');
    const r = await renewals(clubId, clientId);
    expect(r.map((x) => [x.start, x.end, x.price])).toEqual([
      ['2031-11-29', '2031-11-30', Math.round((MONTHLY * 2) / 30)],
      ['2031-12-01', '2031-12-31', MONTHLY],
      ['2032-01-01', '2032-01-31', MONTHLY],
    ]);
    expect(r.every((x) => x.monthly === MONTHLY)).toBe(true);
  });

  it('"remainder and next month": ₪192 once, then ₪360 for two whole months (not ₪384, doubling)', async () => {
    const { clubId, clientId } = await setup(AutoRenewMethod.RemainderAndNextProrated, '2031-11-28', 0);
    await run(clubId, '2031-11-29');
    await run(clubId, '2032-01-01');
    await run(clubId, '2032-02-01'); // not due: paid to the end of February
    await run(clubId, '2032-03-01');
    const r = await renewals(clubId, clientId);
    // From the 1st, "the remainder" is the whole month: that month and the next at the monthly price.
    expect(r.map((x) => [x.start, x.end, x.price])).toEqual([
      ['2031-11-29', '2031-12-31', Math.round((MONTHLY * 2) / 30) + MONTHLY],
      ['2032-01-01', '2032-02-29', 2 * MONTHLY],
      ['2032-03-01', '2032-04-30', 2 * MONTHLY],
    ]);
  });

  it('a remainder that would be due again at once is sold with the next month: a second run that day or the next charges nothing', async () => {
    const { clubId, clientId } = await setup(AutoRenewMethod.RemainderProrated, '2031-11-28', 3);
    expect(await run(clubId, '2031-11-29')).toMatchObject({ renewed: 1 });
    expect(await run(clubId, '2031-11-29')).toMatchObject({ renewed: 0 });
    expect(await run(clubId, '2031-11-30')).toMatchObject({ renewed: 0 });
    const r = await renewals(clubId, clientId);
    expect(r.map((x) => [x.start, x.end, x.price])).toEqual([
      ['2031-11-29', '2031-12-31', Math.round((MONTHLY * 2) / 30) + MONTHLY],
    ]);
    expect(await endOf(clientId)).toBe('2031-12-31');
    // Due again from 28 December (3 days before): January at the full price.
    expect(await run(clubId, '2031-12-28')).toMatchObject({ renewed: 1 });
    expect((await renewals(clubId, clientId)).at(-1)).toMatchObject({
      start: '2032-01-01',
      end: '2032-01-31',
      price: MONTHLY,
    });
  });

  it('a due client without a stored payment method is logged once per end date (NO_PAYMENT_METHOD), nothing charged', async () => {
    const { clubId, clientId } = await setup(AutoRenewMethod.FromNextMonth, '2031-11-28', 2);
    await ctx.database.db.execute(sql`update payment_methods set deleted = true where client_id = ${clientId}`);
    expect(await run(clubId, '2031-11-27')).toMatchObject({ considered: 0, noPaymentMethod: 1 });
    expect(await run(clubId, '2031-11-28')).toMatchObject({ considered: 0, noPaymentMethod: 0 });
    const logs = await queryRows<{ success: boolean; error: string; for_end: string; debt_id: number | null }>(
      ctx.database.db,
      sql`select success, error, for_end::text, debt_id from auto_renew_logs where client_id = ${clientId}`,
    );
    expect(logs).toEqual([{ success: false, error: 'NO_PAYMENT_METHOD', for_end: '2031-11-28', debt_id: null }]);
    expect(await renewals(clubId, clientId)).toEqual([]);
  });

  it("a renewal stored before the rate was recorded (the period's price as monthlyPrice) is repaired by the migration", async () => {
    // An automatic renewal of the old code: ₪12 for two days, with monthlyPrice 1 200.
    const { clubId, clientId } = await setup(AutoRenewMethod.RemainderProrated, '2031-11-28', 0);
    await run(clubId, '2031-11-29');
    await ctx.database.db.execute(
      sql`update purchase_items i set details = jsonb_set(i.details, '{monthlyPrice}', to_jsonb(i.price_with_vat))
            from purchases p where p.club_id = i.club_id and p.id = i.purchase_id
             and p.club_id = ${clubId} and p.source = 'autorenew'`,
    );
    // Migration 0035's repair, as it ran over the renewals stored before.
    await ctx.database.db.execute(sql`select repair_renewal_rates(${clubId})`);
    await run(clubId, '2031-12-01');
    expect((await renewals(clubId, clientId)).map((x) => x.price)).toEqual([Math.round((MONTHLY * 2) / 30), MONTHLY]);
  });
});
