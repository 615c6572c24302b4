import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import { at, makeSaraAndAvi, MARCH, sum } from '../test-setup.js';
import { allPermissions, type ReportResult } from '@venue/domain';

type C = 'c1' | 'c2';
/**
 * Card charges of the fixed data set (agorot). Listed: charges whose outcome
 * was unknown (uncertain, pending) or that the reconciliation settled.
 * `state` is what the report must call them (1 awaiting, 2 charged and
 * refunded, 3 refund failed, 4 not charged); null = not listed.
 */
const CHARGES: {
  at: Date;
  c: C | null;
  amount: number;
  status: string;
  result: string | null;
  state: number | null;
}[] = [
  { at: at(3, 1, 0), c: 'c1', amount: 5000, status: 'uncertain', result: null, state: 1 },
  { at: at(3, 3), c: 'c2', amount: 12000, status: 'pending', result: null, state: 1 },
  { at: at(3, 5), c: 'c1', amount: 7000, status: 'refunded', result: 'charged-refunded', state: 2 },
  { at: at(3, 8), c: null, amount: 3300, status: 'approved', result: 'charged-refund-failed', state: 3 },
  { at: at(3, 9), c: 'c2', amount: 4400, status: 'declined', result: 'not-charged', state: 4 },
  { at: at(3, 31, 23), c: 'c1', amount: 2500, status: 'declined', result: 'not-charged', state: 4 },
  { at: at(3, 10), c: 'c1', amount: 9900, status: 'approved', result: null, state: null }, // ordinary charge
  { at: at(3, 11), c: 'c2', amount: 1100, status: 'declined', result: null, state: null }, // ordinary decline
  { at: at(4, 1, 0), c: 'c1', amount: 800, status: 'uncertain', result: null, state: 1 }, // April
  { at: at(2, 28), c: 'c2', amount: 600, status: 'uncertain', result: null, state: 1 }, // February
];
const NAMES: Record<C, string> = { c1: 'Sara Zilber', c2: 'Avi Cohen' };

/** The expected rows of March, computed from the array (not from SQL). */
function expected() {
  return CHARGES.map((ch, i) => ({ ...ch, key: `safer-${i}` })).filter(
    (ch) => ch.state !== null && ch.at >= at(3, 1, 0) && ch.at < at(4, 1, 0),
  );
}
const amountOf = (state: number) =>
  sum(
    expected()
      .filter((r) => r.state === state)
      .map((r) => r.amount),
  );

describe('safer payments report (POST /Report/GetSaferPaymentsReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids = {} as Record<C, number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    /** The two clients and the charges of CHARGES, in a club. */
    const insertAll = async (club: number) => {
      const { c1, c2 } = await makeSaraAndAvi(ctx, club);
      const own = { c1: c1.id, c2: c2.id };
      for (const [i, ch] of CHARGES.entries())
        await factory.makeCharge(ctx, club, {
          clientId: ch.c ? own[ch.c] : null,
          idempotencyKey: `safer-${i}`,
          provider: 'sandbox',
          amount: ch.amount,
          status: ch.status,
          lastFour: '4242',
          brand: 'visa',
          createdAt: ch.at,
          reconciledAt: ch.result ? new Date(ch.at.getTime() + 3_600_000) : null,
          reconcileResult: ch.result,
        });
      return own;
    };
    Object.assign(ids, await insertAll(clubId));
    // Another club with the same charges: invisible here.
    const other = await signedInAdmin(ctx);
    await insertAll(other.club.id);
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetSaferPaymentsReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('lists the uncertain and reconciled charges of the period with their state; totals per state', async () => {
    const rows = expected();
    const body = await report(MARCH);
    expect(body.total).toBe(rows.length);
    const byState: Record<string, number> = {};
    for (const r of rows) byState[String(r.state)] = (byState[String(r.state)] ?? 0) + 1;
    expect(body.totals).toEqual({
      count: rows.length,
      amount: sum(rows.map((r) => r.amount)),
      awaiting: amountOf(1),
      refunded: amountOf(2),
      refundFailed: amountOf(3),
      notCharged: amountOf(4),
      byState,
    });
    const newest = [...rows].sort((x, y) => y.at.getTime() - x.at.getTime());
    expect(
      body.items.map((r) => [r.at, r.clientName, r.amount, r.lastFour, r.saferState, r.reconciledAt, r.reference]),
    ).toEqual(
      newest.map((r) => [
        r.at.toISOString(),
        r.c ? NAMES[r.c] : null,
        r.amount,
        '4242',
        r.state,
        r.result ? new Date(r.at.getTime() + 3_600_000).toISOString() : null,
        r.key,
      ]),
    );
  });

  it('filters by state and client, sorts by amount', async () => {
    const rows = expected();
    const settled = await report({ ...MARCH, status: [2, 3] });
    expect(settled.totals.amount).toBe(amountOf(2) + amountOf(3));
    expect(settled.items.every((r) => r.saferState === 2 || r.saferState === 3)).toBe(true);
    const c1 = await report({ ...MARCH, clientId: ids.c1 });
    expect(c1.total).toBe(rows.filter((r) => r.c === 'c1').length);
    const sorted = await report({ ...MARCH, sort: 'amount', order: 'asc' });
    expect(sorted.items.map((r) => r.amount)).toEqual(rows.map((r) => r.amount).sort((x, y) => x - y));
  });

  it('a charge the reconciliation settles moves from awaiting to not charged', async () => {
    // A club of its own (the reconciliation settles every open charge of the club).
    const own = await signedInAdmin(ctx);
    // Unknown to the sandbox provider: the reconciliation finds it was never charged.
    await factory.makeCharge(ctx, own.club.id, {
      idempotencyKey: `safer-live-${own.club.id}`,
      provider: 'sandbox',
      amount: 1234,
      status: 'uncertain',
    });
    const day = { period: 'day' };
    const before = await report(day, own.api);
    expect(before.items.map((r) => [r.amount, r.saferState])).toEqual([[1234, 1]]);
    expect((await own.api.post('/api/Report/ReconcileSaferPayments')).statusCode).toBe(200);
    const after = await report(day, own.api);
    expect(after.items.map((r) => [r.amount, r.saferState])).toEqual([[1234, 4]]);
    expect(after.totals.notCharged).toBe(1234);
    expect(after.totals.awaiting).toBe(0);
  });

  it('exports .xlsx with the state as a label', async () => {
    const res = await api.post('/api/Report/GetSaferPaymentsReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Client', 'Amount', 'Charge state', 'Settled at']));
    expect(rows.flat()).toEqual(
      expect.arrayContaining([
        'Awaiting the provider',
        'Charged and refunded',
        'Charged, refund failed',
        'Not charged',
      ]),
    );
    expect(rows[1 + expected().length][0]).toBe('Totals');
    expect(rows[1 + expected().length]).toContain(sum(expected().map((r) => r.amount)) / 100);
  });

  it('needs rolePaymentesReport (403 without it, 401 without a token); a new club sees nothing', async () => {
    const without = await makeUser(ctx, clubId, {
      permissions: { ...allPermissions(true), rolePaymentesReport: false },
    });
    const denied = new Api(ctx.app);
    await denied.login(without.username, TEST_PASSWORD, externalClubId);
    expect((await denied.post('/api/Report/GetSaferPaymentsReport', MARCH)).statusCode).toBe(403);
    expect((await denied.post('/api/Report/GetSaferPaymentsReport/Export', MARCH)).statusCode).toBe(403);
    const only = await makeUser(ctx, clubId, { permissions: { rolePaymentesReport: true } });
    const allowed = new Api(ctx.app);
    await allowed.login(only.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, allowed)).total).toBe(expected().length);
    expect((await new Api(ctx.app).post('/api/Report/GetSaferPaymentsReport', MARCH)).statusCode).toBe(401);
    const stranger = await signedInAdmin(ctx);
    expect((await report(MARCH, stranger.api)).total).toBe(0);
  });
});
