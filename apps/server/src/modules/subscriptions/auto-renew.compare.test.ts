import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { isoDate, localParts, plusDays, PurchaseItemType, SubscriptionEndType } from '@venue/domain';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import {
  credit,
  makeAutoRenewLog,
  makeCharge,
  makeClient,
  makeGroup,
  makePaymentMethod,
  makePurchase,
} from '../../../test/factories.js';
import { runAutoRenewPerClient } from '../../../test/auto-renew-reference.js';
import { purchaseItems } from '../../db/schema.js';
import { queryRows } from '../../db/query.js';
import { SandboxProvider } from '../../integrations/clearing/sandbox.js';
import { runAutoRenew, saveAutoRenewSettings } from './subscriptions.service.js';

/**
 * The set-based automatic renewal (issue 18) against the per-client path it
 * replaced: two clubs get the same clients (card, declined, insufficient
 * funds, timeout, lost answer, unknown token, MASAV, MASAV over its charge
 * limit, a year subscription, unlimited and kala ones that are not renewed,
 * out of the window, already attempted, a charge left by a run that died,
 * Hebrew and Gregorian months, money on the balance); one club is renewed by
 * the old path, the other by the new one (in chunks of 7, so chunks cut the
 * list), and every row either path writes is compared.
 */

const at = new Date();
const today = isoDate(localParts(at, 'Asia/Jerusalem'));

interface Spec {
  token?: string;
  masav?: { chargeLimit: number };
  endIn?: number;
  period?: string;
  price?: number;
  details?: Record<string, unknown>;
  hebrew?: boolean;
  balance?: number;
  inactive?: boolean;
  attempted?: boolean;
  leftCharge?: boolean;
}

const SPECS: Spec[] = [
  ...Array.from({ length: 12 }, (_, i) => ({ token: `sbx_ok_4242_a${i}`, endIn: (i % 8) - 2, price: 30000 + i * 7 })),
  { token: 'sbx_decline_0002_b1', endIn: 1 },
  { token: 'sbx_nsf_9995_b2', endIn: 0 },
  { token: 'sbx_timeout_0119_b3', endIn: 2 },
  { token: 'sbx_lost_0259_b4', endIn: 3 },
  { token: 'not-a-sandbox-token', endIn: 1 },
  { masav: { chargeLimit: 0 }, endIn: 1, price: 25000 },
  { masav: { chargeLimit: 0 }, endIn: -1, price: 19900, hebrew: true },
  { masav: { chargeLimit: 1000 }, endIn: 2 },
  { token: 'sbx_ok_4242_y1', endIn: 1, period: 'year', price: 360000 },
  { token: 'sbx_ok_4242_u1', endIn: 1, details: { unlimited: true } },
  { token: 'sbx_ok_4242_k1', endIn: 1, details: { kala: true } },
  { token: 'sbx_ok_4242_w1', endIn: 1, period: 'week', price: 9000 },
  { token: 'sbx_ok_4242_o1', endIn: 9 },
  { token: 'sbx_ok_4242_o2', endIn: -5 },
  { token: 'sbx_ok_4242_i1', endIn: 1, inactive: true },
  { token: 'sbx_ok_4242_t1', endIn: 1, attempted: true },
  { token: 'sbx_ok_4242_c1', endIn: 1, leftCharge: true },
  ...Array.from({ length: 6 }, (_, i) => ({
    token: `sbx_ok_5555_h${i}`,
    endIn: i - 1,
    hebrew: true,
    balance: 1000 * i,
    price: 27000,
  })),
  { endIn: 1 }, // no stored method: not a candidate, logged NO_PAYMENT_METHOD
];

async function seedClub(ctx: TestContext): Promise<number> {
  const club = await makeClub(ctx, { settings: { autoRenewDaysBefore: 5, autoRenewDaysAfter: 2 } });
  await saveAutoRenewSettings(ctx.database.db, club.id, {
    method: 3,
    lastDayOfMonth: null,
    lastDayTreatment: 'nextMonth',
  });
  const greg = await makeGroup(ctx, club.id, { subscriptionEndType: SubscriptionEndType.GregorianDayToDay });
  const heb = await makeGroup(ctx, club.id, { subscriptionEndType: SubscriptionEndType.EndOfHebrewMonth });
  for (const [n, s] of SPECS.entries()) {
    const end = plusDays(today, s.endIn ?? 1);
    const c = await makeClient(ctx, club.id, {
      number: n + 1,
      groupId: s.hebrew ? heb.id : greg.id,
      subscriptionStart: plusDays(end, -29),
      subscriptionEnd: end,
      status: s.inactive ? 2 : 1,
    });
    if (s.balance) await credit(ctx, c, s.balance);
    if (s.token)
      await makePaymentMethod(ctx, c, { cardToken: s.token, cardLastFour: /_(\d{4})_/.exec(s.token)?.[1] ?? '0000' });
    if (s.masav) {
      await makePaymentMethod(ctx, c, {
        kind: 'masav',
        cardToken: null,
        cardLastFour: null,
        bankCode: '12',
        chargeLimit: s.masav.chargeLimit,
      });
    }
    const price = s.price ?? 30000;
    const bought = await makePurchase(ctx, club.id, {
      clientId: c.id,
      at: new Date(at.getTime() - 29 * 86_400_000),
      lines: [{ itemType: PurchaseItemType.NewSubscription, unitPrice: price, expiry: end }],
      payments: [[0, price]],
    });
    await ctx.database.db
      .update(purchaseItems)
      .set({ details: { period: s.period ?? 'month', start: plusDays(end, -29), end, ...s.details } })
      .where(eq(purchaseItems.id, bought.items[0].id));
    if (s.attempted) await makeAutoRenewLog(ctx, c, { success: false, forEnd: end });
    if (s.leftCharge) {
      await makeCharge(ctx, club.id, {
        clientId: c.id,
        idempotencyKey: `autorenew:${c.id}:${end}:p0`,
        provider: 'sandbox',
        token: s.token!,
        amount: 1,
        status: 'approved',
        providerRef: 'sbx_ch_left',
        lastFour: '4242',
      });
    }
  }
  return club.id;
}

/** Every row a renewal writes, with the club's ids replaced by client numbers and invoice numbers. */
async function snapshot(ctx: TestContext, clubId: number) {
  const db = ctx.database.db;
  const q = <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => queryRows<T>(db, s);
  const num = sql`(select number from clients x where x.id = t.client_id)`;
  const inv = (col: string) => sql.raw(`(select invoice_number from purchases y where y.id = t.${col})`);
  const key = sql`regexp_replace(regexp_replace(t.idempotency_key, '^autorenew:\\d+:', 'autorenew:' || ${num} || ':'),
    '^test-[0-9a-f]+$', 'seed')`;
  return {
    purchases:
      await q(sql`select ${num} as n, t.invoice_number, t.at, t.total, t.amount_before_vat, t.vat, t.vat_rate_bp,
        t.payment_status, t.balance_before, t.balance_after, t.temp_balance_before, t.temp_balance_after, t.paid_cash,
        t.paid_credit, t.paid_beats, t.paid_temp, t.paid_other, t.fee, t.last_four, t.excess, t.rounding, t.payer,
        t.payer_client_id, t.is_admin_user, t.source, t.user_id, t.terminal_id, ${key} as key
        from purchases t where t.club_id = ${clubId} order by t.invoice_number`),
    items:
      await q(sql`select ${inv('purchase_id')} as invoice, t.item_type, t.item_id, t.name, t.quantity, t.unit_price,
        t.price_with_vat, t.amount_before_vat, t.expiry::text, t.details
        from purchase_items t where t.club_id = ${clubId} order by 1, t.id`),
    payments:
      await q(sql`select ${inv('purchase_id')} as invoice, t.method, t.amount, t.last_four, t.charge_id is not null as charged
        from purchase_payments t where t.club_id = ${clubId} order by 1, t.id`),
    charges: await q(sql`select ${num} as n, ${key} as key, t.status, t.amount, t.error, t.token, t.last_four, t.brand,
        t.currency, t.provider_ref is not null as has_ref, t.settled_at is not null as settled, ${inv('purchase_id')} as invoice
        from charges t where t.club_id = ${clubId} order by 1, 2`),
    clients:
      await q(sql`select t.number, t.subscription_start::text, t.subscription_end::text, t.balance, t.temp_balance,
        t.subscription_balance from clients t where t.club_id = ${clubId} order by t.number`),
    ledger: await q(sql`select ${num} as n, t.kind, t.delta, t.source from balance_ledger t where t.club_id = ${clubId}
        order by 1, t.kind, t.delta, t.source`),
    logs: await q(sql`select ${num} as n, t.success, t.error, t.amount, t.start_date::text, t.end_date::text,
        t.for_end::text, ${inv('purchase_id')} as invoice,
        (select d.amount || ' ' || regexp_replace(d.description, '#[0-9]+', '#') || ' ' || d.source from debts d where d.id = t.debt_id) as debt
        from auto_renew_logs t where t.club_id = ${clubId} order by 1, t.for_end, t.success`),
    // A MASAV debt names its purchase by id, which differs between the two clubs: compared without it.
    debts:
      await q(sql`select ${num} as n, t.amount, t.paid, regexp_replace(t.description, '#[0-9]+', '#') as description, t.source, t.user_id, t.deleted
        from debts t where t.club_id = ${clubId} order by 1, t.description`),
    counter: await q(sql`select last from invoice_counters where club_id = ${clubId}`),
  };
}

describe('set-based automatic renewal equals the per-client path (issue 18)', () => {
  let ctx: TestContext;
  let before: number;
  let after: number;
  beforeAll(async () => {
    ctx = await createTestApp();
    before = await seedClub(ctx);
    after = await seedClub(ctx);
  }, 600_000);
  afterAll(async () => ctx.close());

  it('writes the same purchases, items, payments, charges, dates, balances, ledger, logs and debts', async () => {
    const db = ctx.database.db;
    const old = await runAutoRenewPerClient(db, new SandboxProvider(), before, { at, userId: null });
    const set = await runAutoRenew(db, new SandboxProvider(), after, { at, userId: null, chunk: 7 });
    expect(set).toEqual(old);
    // The data set exercises every outcome.
    expect(set.renewed).toBeGreaterThanOrEqual(20);
    expect(set.failed).toBeGreaterThanOrEqual(6);
    expect(set.skipped).toBeGreaterThanOrEqual(3);
    const a = await snapshot(ctx, before);
    const b = await snapshot(ctx, after);
    for (const k of Object.keys(a) as (keyof typeof a)[]) expect(b[k], k).toEqual(a[k]);
    // What the comparison covers is not empty.
    expect(b.purchases.filter((p) => p.source === 'autorenew').length).toBe(set.renewed);
    // The failures, the client attempted before, and the due client without a stored method.
    expect(set.noPaymentMethod).toBe(1);
    expect(b.logs.filter((l) => l.success === false).length).toBe(set.failed + 1 + set.noPaymentMethod);
    expect(b.debts.some((d) => d.source === 'masav')).toBe(true);
    expect(b.logs.map((l) => l.error)).toEqual(
      expect.arrayContaining([
        'PAYMENT_ERROR:declined',
        'PAYMENT_ERROR:insufficient_funds',
        'PAYMENT_ERROR:uncertain',
        'PAYMENT_ERROR:invalid_token',
        'CHARGE_AMOUNT_OUT_OF_RANGE',
      ]),
    );
    // The charge a dead run left was used, not charged again.
    expect(b.charges.filter((c) => c.has_ref && c.status === 'approved').length).toBe(set.renewed - 2);
  });

  it('a second run renews nobody twice on either path', async () => {
    const db = ctx.database.db;
    const old = await runAutoRenewPerClient(db, new SandboxProvider(), before, { at });
    const set = await runAutoRenew(db, new SandboxProvider(), after, { at, chunk: 7 });
    expect(set).toEqual({
      considered: old.considered,
      renewed: 0,
      failed: 0,
      skipped: old.skipped,
      noPaymentMethod: 0,
    });
    expect(old.renewed + old.failed).toBe(0);
  });
});
