import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate, localParts, plusDays } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { dailyMoneyJobs } from './auto-renew.scheduler.js';

const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));

describe('subscriptions and automatic renewal (seed 001 §4)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function clientWithSubscription(
    api: Awaited<ReturnType<typeof signedInAdmin>>['api'],
    cardNumber: string,
    groupId: number,
  ) {
    const c = (await api.post('/api/Client', { firstName: 'Renew', groupId })).json();
    const pm = await api.post('/api/CreditCard', {
      kind: 'card',
      clientId: c.id,
      card: { number: cardNumber, expiry: '12/39', cvv: '123' },
    });
    expect(pm.statusCode, pm.body).toBe(200);
    // A month bought 29 days ago (Gregorian day to day): it ends tomorrow or so.
    const start = plusDays(today(), -29);
    const buy = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 1, unitPrice: 30000, subscription: { period: 'month', start } }],
      payments: [{ method: 0, amount: 30000 }],
      idempotencyKey: `sub-${c.id}`,
    });
    expect(buy.statusCode, buy.body).toBe(200);
    return c;
  }

  it('GetSubscriptions shows the current subscription and the history; kala needs the club setting', async () => {
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'K' })).json();
    const kala = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 1, unitPrice: 10000, subscription: { period: 'year', kala: true } }],
      payments: [{ method: 0, amount: 10000 }],
      idempotencyKey: `kala-${c.id}`,
    });
    expect(kala.statusCode).toBe(400);
    const s2 = await signedInAdmin(ctx, {
      settings: { isKalaSubscriptionEnabled: true, subscriptionTvilotKalaQty: 12 },
    });
    const c2 = (await s2.api.post('/api/Client', { firstName: 'K' })).json();
    const ok = await s2.api.post('/api/Client/AdminPurchase', {
      clientId: c2.id,
      purchaseItems: [{ itemType: 1, unitPrice: 10000, subscription: { period: 'year', kala: true } }],
      payments: [{ method: 0, amount: 10000 }],
      idempotencyKey: `kala-${c2.id}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const subs = (await s2.api.get(`/api/GetSubscriptions/${c2.id}`)).json();
    expect(subs.current).toMatchObject({ active: true, immersionsLeft: 12, start: today() });
    expect(subs.history[0]).toMatchObject({ period: 'year', kala: true, immersions: 12, price: 10000 });
    const bal = (await s2.api.get(`/api/getBalance/${c2.id}`)).json();
    expect(bal.subscriptionBalance).toBe(12);
  });

  it('quotes the renewal without charging, renews due clients once, and a declined card registers a debt', async () => {
    const { api } = await signedInAdmin(ctx, { settings: { autoRenewDaysBefore: 5, autoRenewDaysAfter: 2 } });
    const g = (await api.post('/api/Group', { name: 'G', subscriptionEndType: 4 })).json();
    await api.patch('/api/AutoRenew/Settings', { method: 1 });
    const good = await clientWithSubscription(api, SANDBOX_CARDS.approve, g.id);
    const bad = await clientWithSubscription(api, SANDBOX_CARDS.decline, g.id);
    const end = (await api.get(`/api/Client/${good.id}`)).json().subscriptionEnd;

    const quote = await api.post(`/api/GetRenewSubscriptionStartAndEndDatesAndPrice/${good.id}`);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ monthlyPrice: 30000, hasPaymentMethod: true, price: 30000 });
    expect(quote.json().start > end).toBe(true);
    expect((await api.get(`/api/getBalance/${good.id}`)).json().purchases).toHaveLength(1);

    const run = (await api.post('/api/AutoRenew/DoAutoRenrenew')).json();
    expect(run).toMatchObject({ considered: 2, renewed: 1, failed: 1 });
    const renewed = (await api.get(`/api/Client/${good.id}`)).json();
    expect(renewed.subscriptionEnd).toBe(quote.json().end);
    const logs = (await api.get(`/api/AutoRenew/GetLogsByClientId/${bad.id}`)).json();
    expect(logs[0]).toMatchObject({ success: false, error: 'PAYMENT_ERROR:declined', amount: 30000 });
    const debts = (await api.get(`/api/Debts/GetByClientId/${bad.id}`)).json();
    expect(debts[0]).toMatchObject({ amount: 30000, source: 'autorenew' });
    // The declined client's subscription was not extended.
    expect((await api.get(`/api/Client/${bad.id}`)).json().subscriptionEnd).toBe(end);

    // Running again renews nobody twice.
    expect((await api.post('/api/AutoRenew/DoAutoRenrenew')).json()).toMatchObject({ considered: 0, renewed: 0 });
    expect((await api.get(`/api/getBalance/${good.id}`)).json().purchases).toHaveLength(2);
  });

  it('the daily job runs once per day (a second instance or a second tick skips it)', async () => {
    const day = new Date('2031-05-05T03:00:00Z');
    const [a, b] = await Promise.all([dailyMoneyJobs(ctx.database, day), dailyMoneyJobs(ctx.database, day)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await dailyMoneyJobs(ctx.database, day)).toBe(false);
  });
});
