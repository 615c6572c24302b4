import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EntranceState, Reason } from '@venue/domain';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { cashSessions, clients, purchases } from '../../db/schema.js';
import { runInteractive } from '../../../../terminal/src/interactive.js';
// The simulator CLI, bundled once per test process: `run(args, options)`.
import { runSimulator as run } from '../../../test/simulator.js';

/** The simulator's kiosk commands (apps/terminal/src/kiosk-cli.ts): one-shot `buy` and the interactive `buy`. */

const SECRET = 'kiosk-cli';

let ctx: TestContext;
let base: string;
let clubId: number;
let productId: number;
let serial: string;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env };
  delete e.TERMINAL_SECRET;
  return e;
};
const sim = async (...args: string[]) => {
  const { stdout } = await run([...args, '--serial', serial, '--secret', SECRET, '--server', base], {
    env: env(),
  });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
};
const balance = async (n: number) =>
  (
    await ctx.database.db
      .select()
      .from(clients)
      .where(eq(clients.cardSerial, `KC-${clubId}-${n}`))
  )[0].balance;

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const club = await makeClub(ctx);
  clubId = club.id;
  const open = await factory.makeGroup(ctx, clubId, { name: 'Open', entranceState: EntranceState.Opened });
  const pay = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Pay', entranceState: EntranceState.Closed }, [
    { price: 2000, entranceState: EntranceState.OpenWithPay },
  ]);
  productId = (await factory.makeProduct(ctx, clubId, { name: 'Shampoo', price: 1200 })).id;
  serial = `KCLI-${clubId}`;
  const t = await factory.makeTerminal(ctx, clubId, { serial, name: 'Kiosk', secret: SECRET });
  await factory.makeTerminalCash(ctx, t, { coins: { 1000: 10, 500: 10, 100: 20 } });
  for (let n = 1; n <= 6; n++) {
    await factory.makeClient(ctx, clubId, {
      number: n,
      firstName: 'Kc',
      cardSerial: `KC-${clubId}-${n}`,
      groupId: n <= 3 ? open.id : pay.id,
    });
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe('simulator: buy', () => {
  it('one-shot: money load by the test card, a product paid in cash with change, a resend', async () => {
    const load = await sim('buy', 'card', `KC-${clubId}-1`, 'load', '40', '--event-id', 'cli-load-1');
    expect(load).toMatchObject({ type: 'purchase-result', ok: true, total: 4000, balanceAfter: 4000 });
    expect(await sim('buy', 'card', `KC-${clubId}-1`, 'load', '40', '--event-id', 'cli-load-1')).toMatchObject({
      ok: true,
      purchaseId: load.purchaseId,
    });
    expect(await balance(1)).toBe(4000);
    const cash = await sim('buy', 'card', `KC-${clubId}-2`, 'product', String(productId), '2', '--cash', '50');
    expect(cash).toMatchObject({ ok: true, total: 2400, change: 2600, cash: { state: 'startPayout' } });
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, cash.purchaseId));
    expect(p).toMatchObject({ paidCash: 2400, source: 'terminal' });
    // Too little cash: not bought, the session canceled and the money paid back.
    const short = await sim('buy', 'card', `KC-${clubId}-2`, 'load', '40', '--cash', '20', '--event-id', 'cli-short');
    expect(short).toMatchObject({ ok: false, error: 'CASH_NOT_ENOUGH' });
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'kiosk-cli-short'));
    expect(s).toMatchObject({ state: 'canceled', inserted: 2000, purchaseId: null });
    expect(await balance(2)).toBe(0);
  });

  it('one-shot: pays an OpenWithPay entrance (reason 7); a declined card is status 9', async () => {
    expect(await sim('buy', 'card', `KC-${clubId}-4`, 'entrance')).toMatchObject({
      ok: true,
      total: 2000,
      decision: { status: 1, reason: Reason.EntryByPayment },
    });
    expect(await sim('buy', 'card', `KC-${clubId}-5`, 'entrance', '--card', '4000000000000002')).toMatchObject({
      ok: false,
      error: 'PAYMENT_ERROR',
      decision: { status: 9, reason: Reason.PaymentError },
    });
  });

  it('interactive: the payment offer, buy by card, buy from the cash session', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (d) => (text += d.toString()));
    const done = runInteractive({ url: base, serial, secret: SECRET, input, output });
    for (const line of [
      `card KC-${clubId}-6`,
      `buy card KC-${clubId}-6 entrance card`,
      `pay card KC-${clubId}-3`,
      'bill 50',
      `buy card KC-${clubId}-3 load 30 cash`,
      'buy card nobody load 10',
      'quit',
    ]) {
      input.write(`${line}\n`);
    }
    input.end();
    expect(await done).toBe(0);
    expect(text).toContain('pay 20.00 ₪: buy <kind> <value> entrance');
    expect(text).toMatch(/PAID invoice \d+, 20\.00 ₪.*WELCOME EntryByPayment/);
    expect(text).toMatch(/PAID invoice \d+, 30\.00 ₪, change 20\.00 ₪, balance 30\.00 ₪/);
    expect(text).toContain('NOT PAID: CLIENT_NOT_FOUND');
    expect(await balance(3)).toBe(3000);
  });
});
