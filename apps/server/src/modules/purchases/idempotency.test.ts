import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, signedInAdmin, TEST_DB, type TestContext } from '../../../test/harness.js';
import {
  clearingProvider,
  SANDBOX_CARDS,
  SandboxProvider,
  setClearingProvider,
} from '../../integrations/clearing/sandbox.js';
import { luhnValid } from '../../integrations/clearing/provider.js';
import { chargeOnce } from '../../integrations/clearing/charges.js';

const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;

describe(`idempotent charges and safer payments (${TEST_DB})`, () => {
  let ctx: TestContext;
  let sandbox: SandboxProvider;
  const original = clearingProvider();
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    setClearingProvider(original);
    await ctx.close();
  });
  afterEach(() => setClearingProvider(original));
  const fresh = (latencyMs = 0) => {
    sandbox = new SandboxProvider({ latencyMs });
    setClearingProvider(sandbox);
  };
  const capturedTotal = () => [...sandbox.captured.values()].reduce((a, b) => a + b, 0);

  it('two identical beats-plus-card requests at once both answer the one purchase and keep its card charge (issue 12 finding 3)', async () => {
    for (let round = 0; round < 3; round++) {
      fresh(20);
      const { api, club } = await signedInAdmin(ctx);
      const c = (await api.post('/api/Client', { firstName: 'Split' })).json();
      expect(
        (await api.post(`/api/addCredit/${c.id}`, { amount: 3000, idempotencyKey: `load-${c.id}` })).statusCode,
      ).toBe(200);
      const body = {
        clientId: c.id,
        purchaseItems: [{ itemType: 3, unitPrice: 5000 }],
        payments: [
          { method: 7, amount: 3000 },
          { method: 1, amount: 2000, card: { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' } },
        ],
        idempotencyKey: `split-${c.id}`,
      };
      const answers = await Promise.all([1, 2].map(() => api.post('/api/Client/AdminPurchase', body)));
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(answers[0].json().id).toBe(answers[1].json().id);
      const refunded = rows(
        await ctx.database.db.execute(
          sql`select count(*)::int as n from charges where club_id = ${club.id} and status <> 'approved'`,
        ),
      );
      expect(Number(refunded[0].n)).toBe(0);
      expect(capturedTotal()).toBe(2000);
      expect((await api.get(`/api/getBalance/${c.id}`)).json().balance).toBe(0);
    }
  });

  it('every documented test card is Luhn-valid', () => {
    for (const n of Object.values(SANDBOX_CARDS)) expect(luhnValid(n)).toBe(true);
  });

  it('a purchase sent five times at once, and retried later, charges the card once', async () => {
    fresh(30);
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Idem' })).json();
    const body = {
      clientId: c.id,
      purchaseItems: [{ itemType: 2, unitPrice: 7000 }],
      payments: [{ method: 1, amount: 7000, card: { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' } }],
      idempotencyKey: `idem-${c.id}`,
    };
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => api.post('/api/Client/AdminPurchase', body)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    const retry = await api.post('/api/Client/AdminPurchase', body);
    expect(retry.json().id).toBe(answers[0].json().id);
    expect(capturedTotal()).toBe(7000);
    expect((await api.get(`/api/getBalance/${c.id}`)).json().balance).toBe(7000);
    const [n] = rows(
      await ctx.database.db.execute(sql`select count(*)::int as n from purchases where club_id = ${club.id}`),
    );
    expect(Number(n.n)).toBe(1);
  });

  it('the stored card: concurrent duplicates of addCredit with one key charge once', async () => {
    fresh(20);
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Token' })).json();
    await api.post('/api/CreditCard', {
      kind: 'card',
      clientId: c.id,
      card: { number: SANDBOX_CARDS.approveMastercard, expiry: '10/35', cvv: '999' },
    });
    const body = { amount: 2500, method: 2, idempotencyKey: `credit-${c.id}` };
    const answers = await Promise.all([1, 2, 3].map(() => api.post(`/api/addCredit/${c.id}`, body)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(capturedTotal()).toBe(2500);
    expect((await api.get(`/api/getBalance/${c.id}`)).json().balance).toBe(2500);
  });

  it('uncertain outcomes are reconciled: a lost answer is refunded, a timeout is recorded as not charged', async () => {
    fresh();
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Unsure' })).json();
    const buy = (number: string, key: string) =>
      api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 2, unitPrice: 4000 }],
        payments: [{ method: 1, amount: 4000, card: { number, expiry: '12/39', cvv: '123' } }],
        idempotencyKey: key,
      });
    const lost = await buy(SANDBOX_CARDS.unknownOutcome, `lost-${c.id}`);
    expect(lost.statusCode).toBe(402);
    expect(lost.json().details.reason).toBe('uncertain');
    const timeout = await buy(SANDBOX_CARDS.timeout, `timeout-${c.id}`);
    expect(timeout.json().details.reason).toBe('uncertain');
    expect(capturedTotal()).toBe(4000); // the lost answer did take the money
    let safer = (await api.get('/api/Report/GetSaferPayments')).json();
    expect(safer.map((s: { status: string }) => s.status).sort()).toEqual(['uncertain', 'uncertain']);
    const rec = (await api.post('/api/Report/ReconcileSaferPayments')).json();
    expect(rec).toEqual({ checked: 2, refunded: 1, notCharged: 1, stillUncertain: 0 });
    safer = (await api.get('/api/Report/GetSaferPayments')).json();
    expect(safer.map((s: { result: string }) => s.result).sort()).toEqual(['charged-refunded', 'not-charged']);
    expect((await api.get(`/api/getBalance/${c.id}`)).json().balance).toBe(0);
    // Retrying the same purchase after settlement does not charge again.
    expect((await buy(SANDBOX_CARDS.unknownOutcome, `lost-${c.id}`)).statusCode).toBe(402);
    expect(capturedTotal()).toBe(4000);
  });

  it('a card approved for a request that died before its purchase is refunded by the reconciliation and shown; one that died after the commit is linked (issue 12 finding 2)', async () => {
    fresh();
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Crash' })).json();
    const t = await sandbox.tokenize({ number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' });
    if (!t.ok) throw new Error('tokenize');
    // What createPurchase does before its transaction, then the process "dies": no purchase.
    const orphan = await chargeOnce(ctx.database.db, sandbox, {
      clubId: club.id,
      clientId: c.id,
      idempotencyKey: `died-${c.id}:p0`,
      token: t.token,
      amount: 4500,
      currency: 376,
      lastFour: t.lastFour,
      brand: t.brand,
    });
    expect(orphan.status).toBe('approved');
    // A purchase that committed, whose process died before linking its charge.
    const done = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 2, unitPrice: 2000 }],
      payments: [{ method: 1, amount: 2000, card: { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' } }],
      idempotencyKey: `committed-${c.id}`,
    });
    expect(done.statusCode).toBe(200);
    await ctx.database.db.execute(
      sql`update charges set purchase_id = null where idempotency_key = ${`committed-${c.id}:p0`}`,
    );
    // Young orphans are left alone: their purchase may still be committing.
    expect((await api.post('/api/Report/ReconcileSaferPayments')).json().refunded).toBe(0);
    await ctx.database.db.execute(
      sql`update charges set created_at = now() - interval '11 minutes' where club_id = ${club.id}`,
    );
    const rec = (await api.post('/api/Report/ReconcileSaferPayments')).json();
    expect(rec).toMatchObject({ refunded: 1, linked: 1 });
    const states = rows(
      await ctx.database.db.execute(
        sql`select idempotency_key as k, status, purchase_id is not null as linked, reconcile_result as r from charges where club_id = ${club.id} order by id`,
      ),
    );
    expect(states).toEqual([
      { k: `died-${c.id}:p0`, status: 'refunded', linked: false, r: 'orphan-refunded' },
      { k: `committed-${c.id}:p0`, status: 'approved', linked: true, r: null },
    ]);
    // Yesterday to tomorrow: the charges were moved 11 minutes back, which after the club's midnight is yesterday.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const report = (
      await api.post('/api/Report/GetSaferPaymentsReport', { period: 'range', from: day(-1), to: day(1) })
    ).json();
    expect(report.items.map((i: { amount: number; saferState: number }) => [i.amount, i.saferState])).toEqual([
      [4500, 2],
    ]);
    expect((await api.get(`/api/getBalance/${c.id}`)).json().balance).toBe(2000);
  });

  it('a purchase that fails after the card was charged gives the money back', async () => {
    fresh();
    const { api } = await signedInAdmin(ctx, { licensesAmount: 0 });
    const c = (await api.post('/api/Client', { firstName: 'Refund' })).json();
    const r = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 6, unitPrice: 3000 }],
      payments: [{ method: 1, amount: 3000, card: { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' } }],
      idempotencyKey: `refund-${c.id}`,
    });
    expect(r.json().code).toBe('NOT_ENOUGH_LICENSES');
    const [ch] = rows(
      await ctx.database.db.execute(sql`select status from charges where idempotency_key = ${`refund-${c.id}:p0`}`),
    );
    expect(ch.status).toBe('refunded');
  });
});
