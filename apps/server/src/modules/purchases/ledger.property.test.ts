import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestApp, signedInAdmin, TEST_DB, type TestContext } from '../../../test/harness.js';
import { processEntrance } from '../gate/entrance.service.js';

/**
 * DESIGN §7, §10: balances are ledgers and concurrent requests never spend
 * the same money twice. Random mixes of purchases paid from the money
 * balance and entrances paid from it (modules/gate/entrance.service.ts) run
 * concurrently against the same clients; afterwards every balance equals the
 * sum of its ledger rows, is never negative, and equals what was loaded
 * minus what the successful purchases and entrances took.
 */
const ENTRANCE_PRICE = 700;

type Row = Record<string, unknown>;
const rows = (r: unknown) => (r as { rows: Row[] }).rows;

describe(`ledger property: concurrent purchases and entrances (${TEST_DB})`, () => {
  let ctx: TestContext;
  let env: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    ctx = await createTestApp();
    env = await setup();
  });
  afterAll(async () => ctx.close());

  async function setup() {
    const s = await signedInAdmin(ctx);
    const group = (
      await s.api.post('/api/Group', {
        name: 'Money only',
        entranceState: 4,
        schedule: [{ days: [0, 1, 2, 3, 4, 5, 6], fromTime: 0, toTime: 1440, entranceState: 4, price: ENTRANCE_PRICE }],
      })
    ).json();
    const t = (await s.api.post('/api/Terminal', { serial: `LEDGER-${s.club.id}`, name: 'Gate' })).json();
    expect((await s.api.patch(`/api/Terminal/${t.id}`, { approved: true })).statusCode).toBe(200);
    return { ...s, groupId: group.id as number, terminalId: t.id as number };
  }

  let run = 0;
  it('balance = sum of ledger rows = loaded − spent, never below zero', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 500, max: 6000 }), { minLength: 2, maxLength: 2 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('purchase', 'entrance'),
            who: fc.integer({ min: 0, max: 1 }),
            amount: fc.integer({ min: 100, max: 2500 }),
          }),
          { minLength: 4, maxLength: 24 },
        ),
        async (loads, ops) => {
          run++;
          const { api, club, groupId, terminalId } = env;
          const clients: { id: number; card: string }[] = [];
          for (const [i, load] of loads.entries()) {
            const card = `L${run}C${i}X${club.id}`;
            const c = (
              await api.post('/api/Client', {
                firstName: `P${run}-${i}`,
                groupId,
                cardSerial: card,
                licenseExpiry: '2099-12-31',
              })
            ).json();
            expect(
              (await api.post(`/api/addCredit/${c.id}`, { amount: load, idempotencyKey: randomUUID() })).statusCode,
            ).toBe(200);
            clients.push({ id: c.id, card });
          }
          const t0 = Date.now();
          await Promise.all(
            ops.map((op, k) => {
              const c = clients[op.who];
              if (op.kind === 'purchase') {
                return api.post('/api/Client/AdminPurchase', {
                  clientId: c.id,
                  purchaseItems: [{ itemType: 10, name: 'Item', unitPrice: op.amount }],
                  payments: [{ method: 7, amount: op.amount }],
                  idempotencyKey: `prop-${run}-${k}`,
                });
              }
              // Entrances 3 s apart in event time, so the rapid re-entry rule does not refuse them all.
              return processEntrance(ctx.database.db, null, {
                clubId: club.id,
                terminalId,
                identification: { kind: 'card', value: c.card },
                at: new Date(t0 + k * 3000),
                eventId: `prop-${run}-${k}`,
              });
            }),
          );
          for (const [i, c] of clients.entries()) {
            const [bal] = rows(await ctx.database.db.execute(sql`select balance from clients where id = ${c.id}`));
            const [led] = rows(
              await ctx.database.db.execute(
                sql`select coalesce(sum(delta), 0)::int as s from balance_ledger where client_id = ${c.id} and kind = 'money'`,
              ),
            );
            const [bought] = rows(
              await ctx.database.db.execute(
                sql`select coalesce(sum(paid_beats), 0)::int as s from purchases where client_id = ${c.id}`,
              ),
            );
            const [entered] = rows(
              await ctx.database.db.execute(
                sql`select coalesce(sum(amount), 0)::int as s from entrance_logs where client_id = ${c.id} and status = 1`,
              ),
            );
            const balance = Number(bal.balance);
            expect(balance).toBeGreaterThanOrEqual(0);
            expect(balance).toBe(Number(led.s));
            expect(balance).toBe(loads[i] - Number(bought.s) - Number(entered.s));
          }
        },
      ),
      { numRuns: TEST_DB === 'postgres' ? 12 : 8, seed: 20261120 },
    );
    // Not vacuous: entrances were paid from the balance, and some were refused for want of it.
    const [e] = rows(
      await ctx.database.db
        .execute(sql`select count(*) filter (where status = 1 and amount = ${ENTRANCE_PRICE})::int as paid,
        count(*) filter (where status = 5)::int as refused from entrance_logs where club_id = ${env.club.id}`),
    );
    expect(Number(e.paid)).toBeGreaterThan(0);
    expect(Number(e.refused)).toBeGreaterThan(0);
  }, 300_000);
});
