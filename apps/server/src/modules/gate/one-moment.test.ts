import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EntranceState, EntranceStatus, Reason, type Identification } from '@venue/domain';
import { createTestApp, makeClub, TEST_DB, type TestContext } from '../../../test/harness.js';
import { openDatabase } from '../../db/index.js';
import * as factory from '../../../test/factories.js';
import { balanceLedger, clients, entranceLogs } from '../../db/schema.js';
import { processEntrance } from './entrance.service.js';

/**
 * One person, one moment (seed 001 §4 "rapid re-entry (within 2
 * seconds)"): the same client presented by card and by code at the same
 * moment — at two terminals, in one batch or in two, on one server instance
 * or two — is admitted once and charged once.
 */
let ctx: TestContext;
let clubId: number;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestApp();
  clubId = (await makeClub(ctx)).id;
});
afterAll(async () => ctx.close());

/** A client with a card and a code in a group whose only row is the given state, and two terminals. */
async function setup(state: number, price: number, balance: number) {
  const n = ++seq;
  const g = await factory.makeGroupWithSchedule(ctx, clubId, { name: `OM${n}`, entranceState: state }, [
    { entranceState: state, price },
  ]);
  // The balance is written as is, without a ledger row: the tests read only the entrance rows of the ledger.
  const c = await factory.makeClient(ctx, clubId, {
    number: 5000 + n,
    firstName: 'One',
    lastName: `Moment ${n}`,
    groupId: g.id,
    cardSerial: `OM-CARD-${n}`,
    clientCode: `om${n}code`,
    balance,
    subscriptionStart: '2026-01-01',
    subscriptionEnd: '2125-12-31',
    licenseExpiry: '2125-12-31',
  });
  const ts = [];
  for (const k of [1, 2])
    ts.push(await factory.makeTerminal(ctx, clubId, { serial: `OM-${n}-${k}`, name: `Gate ${k}`, secretHash: 'x' }));
  return { client: c, terminals: ts.map((t) => t.id) };
}

/** Presents an identification at a terminal of the club, through `db` (an instance's own handle). */
const present = (terminalId: number, identification: Identification, at: Date, eventId: string, db = ctx.database.db) =>
  processEntrance(db, null, { clubId, terminalId, identification, at, eventId });
const card = (c: { cardSerial: string }): Identification => ({ kind: 'card', value: c.cardSerial });
const code = (c: { clientCode: string }): Identification => ({ kind: 'code', value: c.clientCode });

describe('one person, one moment', () => {
  it('admits a subscriber presented by card and by code at two terminals at once exactly once (10 rounds)', async () => {
    const {
      client,
      terminals: [t1, t2],
    } = await setup(EntranceState.Opened, 0, 0);
    const start = Date.now();
    for (let round = 0; round < 10; round++) {
      const at = new Date(start + round * 3000);
      const results = await Promise.all([
        present(t1!, card(client), at, `c${round}`),
        present(t2!, code(client), at, `k${round}`),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([EntranceStatus.Approved, EntranceStatus.RapidReEntry]);
      expect(results.find((r) => r.status === EntranceStatus.RapidReEntry)!.reason).toBe(Reason.DoubleEntry);
    }
    // The log says what the terminals were told.
    const logged = await ctx.database.db
      .select({ status: entranceLogs.status })
      .from(entranceLogs)
      .where(eq(entranceLogs.clientId, client.id));
    expect(logged.filter((r) => r.status === EntranceStatus.Approved)).toHaveLength(10);
    expect(logged.filter((r) => r.status === EntranceStatus.RapidReEntry)).toHaveLength(10);
  });

  it('charges a client paying by money once when presented by card and by code at once', async () => {
    const {
      client,
      terminals: [t1, t2],
    } = await setup(EntranceState.OpenWithMoneyValueOnly, 3000, 10_000);
    const at = new Date();
    const results = await Promise.all([present(t1!, card(client), at, 'm1'), present(t2!, code(client), at, 'm2')]);
    expect(results.map((r) => r.status).sort()).toEqual([EntranceStatus.Approved, EntranceStatus.RapidReEntry]);
    expect(results.find((r) => r.status === EntranceStatus.RapidReEntry)!.amount).toBe(0);
    const [after] = await ctx.database.db.select().from(clients).where(eq(clients.id, client.id));
    expect(after!.balance).toBe(7_000);
    const ledger = await ctx.database.db
      .select()
      .from(balanceLedger)
      .where(and(eq(balanceLedger.clientId, client.id), eq(balanceLedger.source, 'entrance')));
    expect(ledger.map((l) => l.delta)).toEqual([-3000]);
  });

  it('admits the client again once the window has passed, and leaves staff and other clients alone', async () => {
    const {
      client,
      terminals: [t1, t2],
    } = await setup(EntranceState.Opened, 0, 0);
    const at = new Date(Date.now() + 60_000);
    const first = await present(t1!, card(client), at, 'w1');
    const later = new Date(at.getTime() + 2000);
    const second = await present(t2!, code(client), later, 'w2');
    expect([first.status, second.status]).toEqual([EntranceStatus.Approved, EntranceStatus.Approved]);
    const other = await setup(EntranceState.Opened, 0, 0);
    const o = await present(other.terminals[0]!, card(other.client), later, 'o1');
    expect(o.status).toBe(EntranceStatus.Approved);
  });

  it.runIf(TEST_DB === 'postgres')('holds across two server instances on one PostgreSQL', async () => {
    // A second instance: its own pools and gate batches on the same database.
    const url = (ctx.database as { url?: string }).url!;
    const second = await openDatabase({ databaseUrl: url, poolSize: 3, gatePoolSize: 2 });
    try {
      const {
        client,
        terminals: [t1, t2],
      } = await setup(EntranceState.Opened, 0, 0);
      const start = Date.now() + 120_000;
      for (let round = 0; round < 10; round++) {
        const at = new Date(start + round * 3000);
        const results = await Promise.all([
          present(t1!, card(client), at, `x${round}`),
          present(t2!, code(client), at, `y${round}`, second.db),
        ]);
        expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([
          EntranceStatus.Approved,
          EntranceStatus.RapidReEntry,
        ]);
      }
    } finally {
      await second.close();
    }
  });
});
