import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { EventBus } from '../../lib/event-bus.js';
import {
  Api,
  makeClub,
  makeUser,
  openTestDatabase,
  TEST_DB,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';
import { luhnValid } from '../../integrations/clearing/provider.js';
import * as factory from '../../../test/factories.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { buy } from '../../../../terminal/src/kiosk.js';

/**
 * PCI DSS (DOMAIN-FACTS): a sentinel card number and CVV go through every
 * payment flow (console purchase approved and refused, stored card, license
 * payment page, validation errors, a kiosk purchase over the terminal protocol); then every row of every table and every
 * log line the server wrote are searched for them.
 */
function sentinelCard(): string {
  const body = '458011223344556';
  for (let d = 0; d < 10; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('no check digit');
}
const CARD = sentinelCard();
const CVV = '8317';

describe(`card numbers and CVV never reach the database or the logs (${TEST_DB})`, () => {
  let ctx: TestContext;
  const captured: string[] = [];
  const origWriteSync = fs.writeSync;
  const origWrite = fs.write;
  const origStdout = process.stdout.write.bind(process.stdout);
  const origStderr = process.stderr.write.bind(process.stderr);

  beforeAll(async () => {
    const grab = (x: unknown) => captured.push(Buffer.isBuffer(x) ? x.toString('utf8') : String(x));
    (fs as { writeSync: unknown }).writeSync = (fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd === 1 || fd === 2) grab(data);
      return (origWriteSync as (...a: unknown[]) => number)(fd, data, ...rest);
    };
    (fs as { write: unknown }).write = (fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd === 1 || fd === 2) grab(data);
      return (origWrite as (...a: unknown[]) => void)(fd, data, ...rest);
    };
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      grab(chunk);
      return (origStdout as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
      grab(chunk);
      return (origStderr as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    const database = await openTestDatabase();
    const app = await buildApp({
      config: { ...loadConfig({}), logLevel: 'trace', loginRateLimit: 1000 },
      database,
      bus: new EventBus(),
    });
    await app.ready();
    ctx = {
      app,
      database,
      bus: new EventBus(),
      close: async () => {
        await app.close();
        await database.dropAll();
      },
    };
  });
  afterAll(async () => {
    fs.writeSync = origWriteSync;
    fs.write = origWrite;
    process.stdout.write = origStdout as typeof process.stdout.write;
    process.stderr.write = origStderr as typeof process.stderr.write;
    await ctx.close();
  });

  it('runs every flow with the sentinel card, then finds it nowhere', async () => {
    const club = await makeClub(ctx, { licensesAmount: 100 });
    const user = await makeUser(ctx, club.id, { isAdmin: true });
    const api = new Api(ctx.app);
    expect((await api.login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
    const c = (await api.post('/api/Client', { firstName: 'Sentinel' })).json();
    const card = { number: CARD, expiry: '12/39', cvv: CVV, ownerName: 'Owner' };
    const spaced = { ...card, number: CARD.replace(/(\d{4})(?=\d)/g, '$1 ') };
    const purchase = (cardIn: object, key: string, extra: object = {}) =>
      api.post('/api/Client/AdminPurchase', {
        clientId: c.id,
        purchaseItems: [{ itemType: 2, unitPrice: 5000 }],
        payments: [{ method: 1, amount: 5000, card: cardIn, ...extra }],
        idempotencyKey: key,
      });
    expect((await purchase(card, 'pci-approved')).statusCode).toBe(200);
    expect((await purchase(spaced, 'pci-spaced')).statusCode).toBe(200);
    expect((await purchase({ ...card, expiry: '01/20' }, 'pci-expired')).statusCode).toBe(400);
    expect((await purchase({ ...card, cvv: 'abc' }, 'pci-badcvv')).statusCode).toBe(400);
    expect((await purchase(card, 'pci-mismatch', { amount: 1 })).statusCode).toBe(400);
    expect((await api.post('/api/CreditCard', { kind: 'card', clientId: c.id, card })).statusCode).toBe(200);
    expect((await api.post('/api/CreditCard', { kind: 'card', clientId: c.id, card })).statusCode).toBe(409);
    expect(
      (await api.post(`/api/addCredit/${c.id}`, { amount: 1000, method: 2, idempotencyKey: randomUUID() })).statusCode,
    ).toBe(200);
    const link = (
      await api.post('/api/getBuyLink', {
        email: 'x@y.co',
        customerName: 'C',
        externalClubId: club.externalClubId,
        amount: 40 * 3000,
        qty: 40,
        type: 2,
      })
    ).json();
    const paid = await ctx.app.inject({
      method: 'POST',
      url: link.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ number: CARD, expiry: '12/39', cvv: CVV }).toString(),
    });
    expect(paid.statusCode).toBe(200);

    // A kiosk purchase over the terminal protocol (docs/terminal-protocol.md "Kiosk purchases"): approved, then
    // a message the server refuses (its error names the field, never the value).
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const serial = `PCI-${club.id}`;
    await factory.makeTerminal(ctx, club.id, { serial, name: 'Kiosk', secret: 'pci-kiosk' });
    const tc = new TerminalClient({ url: base, serial, secret: 'pci-kiosk', timeoutMs: 10_000, heartbeat: false });
    await tc.connect();
    const kiosk = await buy(tc, {
      eventId: 'pci-kiosk-1',
      identification: { kind: 'code', value: String(c.number) },
      items: [{ itemType: 2, unitPrice: 2000 }],
      payments: [{ method: 1, card }],
    });
    expect(kiosk).toMatchObject({ ok: true, total: 2000 });
    await expect(
      buy(tc, {
        eventId: 'pci-kiosk-2',
        identification: { kind: 'code', value: String(c.number) },
        items: [{ itemType: 2, unitPrice: 2000 }],
        payments: [{ method: 1, card: { ...card, cvv: `${CVV}x` } }],
      }),
    ).rejects.toThrow(/cvv/);
    await tc.close();

    // Every row of every table, as JSON text (bytea appears as hex: search that too).
    const tables = (
      (await ctx.database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )) as unknown as { rows: { table_name: string }[] }
    ).rows.map((r) => r.table_name);
    expect(tables).toContain('charges');
    const hex = Buffer.from(CARD).toString('hex');
    const found: string[] = [];
    for (const t of tables) {
      const r = (await ctx.database.db.execute(
        sql.raw(`select row_to_json(x)::text as j from "${t}" x`),
      )) as unknown as {
        rows: { j: string }[];
      };
      for (const { j } of r.rows) {
        if (j.includes(CARD) || j.includes(hex) || j.includes(`"${CVV}"`) || /"cvv"/i.test(j))
          found.push(`${t}: ${j.slice(0, 200)}`);
      }
    }
    expect(found).toEqual([]);
    // The tokens, last four and expiry are what is kept.
    const [pm] = (
      (await ctx.database.db.execute(
        sql`select card_token, card_last_four, card_expiry from payment_methods`,
      )) as unknown as {
        rows: { card_token: string; card_last_four: string; card_expiry: string }[];
      }
    ).rows;
    expect(pm.card_last_four).toBe(CARD.slice(-4));
    expect(pm.card_token).not.toContain(CARD.slice(0, 12));
    // The logs: the server logged at trace level throughout.
    const logs = captured.join('');
    expect(logs).toContain('/api/Client/AdminPurchase'); // the request log lines were captured
    expect(logs).not.toContain(CARD);
    expect(logs).not.toContain(CVV);
  });
});
