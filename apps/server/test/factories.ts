import { randomBytes } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { EntranceState, EntranceStatus, QuickExitOutcome, withIsraeliIdCheckDigit } from '@venue/domain';
import {
  attendanceLogs,
  auditLog,
  autoRenewLogs,
  balanceLedger,
  biometricTemplates,
  cashResets,
  cashSessions,
  charges,
  clients,
  debts,
  employeePositions,
  entranceLogs,
  feedbackCategories,
  globalMessages,
  groups,
  invoiceCounters,
  licenseLoads,
  licenseOrders,
  licenseRequests,
  paymentMethods,
  products,
  purchaseItems,
  purchasePayments,
  purchases,
  quickExits,
  schedules,
  scheduleToGroup,
  scriptVersions,
  terminalCash,
  terminals,
} from '../src/db/schema.js';
import { hashPassword } from '../src/lib/password.js';
import { clearingProvider } from '../src/integrations/clearing/sandbox.js';
import { saveClubCard } from '../src/modules/licenses/licenses.service.js';
import type { TestContext } from './harness.js';

/**
 * Test-data factories (house style: "factories for test data, never raw
 * inserts in tests"; immich `server/test/factories/`). Each `makeX(ctx,
 * clubId, overrides?)` writes one row straight into the database, as the
 * server reads it, with valid defaults, and returns the typed row. Overrides
 * are spread last, so a test can still write odd data on purpose (a past
 * expiry, a corrupt value, a fixed timestamp). Money in agorot.
 *
 * The clubs, users and signed-in admins come from harness.ts (`makeClub`,
 * `makeUser`, `signedInAdmin`).
 */

/** What a factory needs of a test context: the database only (tests with their own app pass `{ database }`). */
export type FactoryContext = Pick<TestContext, 'database'>;

type NewGroup = typeof groups.$inferInsert;
type NewSchedule = typeof schedules.$inferInsert;
type NewClient = typeof clients.$inferInsert;
type NewTerminal = typeof terminals.$inferInsert;
type NewEntrance = typeof entranceLogs.$inferInsert;
type NewPurchase = typeof purchases.$inferInsert;

/** Every day of the week, Sunday (0) to Saturday (6), as schedule rows store it. */
export const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/** A subscription that began in 2020 and runs until 2125: a subscriber in any test. */
export const SUBSCRIBED = { subscriptionStart: '2020-01-01', subscriptionEnd: '2125-01-01' } as const;

/** No subscription at all (both dates null): the client pays per entrance. */
export const NO_SUBSCRIPTION = { subscriptionStart: null, subscriptionEnd: null } as const;

/** The secret of a terminal made by `makeTerminal` when none is given. */
export const TERMINAL_SECRET = 'terminal-secret';

let seq = 1;
const next = () => seq++;

/** A valid Israeli personal id (9 digits, check digit last) derived from a number. */
export function validPersonalId(n: number): string {
  return withIsraeliIdCheckDigit(String(10_000_000 + (n % 89_999_999)));
}

/**
 * A group of the club. Defaults: name `Group <n>`, the database's defaults
 * for the rest (entrance state Closed, no quota, no bonus).
 */
export async function makeGroup(ctx: FactoryContext, clubId: number, over: Partial<NewGroup> = {}) {
  const [g] = await ctx.database.db
    .insert(groups)
    .values({ clubId, name: `Group ${next()}`, ...over })
    .returning();
  return g;
}

/**
 * A schedule row (seed 001 §3 "Schedule entry"). Defaults: every day, all day
 * (minute 0 to 1440), entrance state Opened, price 0 agorot. Give `groupId`
 * for a group's own row; leave it out for a general schedule (link it with
 * `linkSchedule`).
 */
export async function makeSchedule(ctx: FactoryContext, clubId: number, over: Partial<NewSchedule> = {}) {
  const [s] = await ctx.database.db
    .insert(schedules)
    .values({ clubId, days: EVERY_DAY, fromTime: 0, toTime: 1440, entranceState: EntranceState.Opened, ...over })
    .returning();
  return s;
}

/** Links a general schedule row to a group (schedule_to_group). */
export async function linkSchedule(ctx: FactoryContext, clubId: number, scheduleId: number, groupId: number) {
  const [l] = await ctx.database.db.insert(scheduleToGroup).values({ clubId, scheduleId, groupId }).returning();
  return l;
}

/**
 * A group with its own schedule rows: `rows` are schedule overrides (see
 * `makeSchedule`), written in order with sortOrder 0, 1, …
 */
export async function makeGroupWithSchedule(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<NewGroup> = {},
  rows: Partial<NewSchedule>[] = [{}],
) {
  const group = await makeGroup(ctx, clubId, over);
  let sortOrder = 0;
  for (const r of rows) await makeSchedule(ctx, clubId, { groupId: group.id, sortOrder: sortOrder++, ...r });
  return group;
}

/**
 * A client of the club. Defaults: the club's next client number (its largest
 * plus one, as the console numbers them), first name `Client`, last name the
 * number, a valid Israeli personal id, a card `CARD-<club>-<number>`, a
 * license valid until 2125 and no subscription (spread `SUBSCRIBED` for one).
 * A balance given here is written without a ledger row: use `credit` to keep
 * balance = sum of the ledger.
 */
export async function makeClient(ctx: FactoryContext, clubId: number, over: Partial<NewClient> = {}) {
  const db = ctx.database.db;
  const number =
    over.number ??
    (
      await db
        .select({ next: sql<number>`coalesce(max(${clients.number}), 0)::int + 1` })
        .from(clients)
        .where(sql`${clients.clubId} = ${clubId}`)
    )[0].next;
  const [c] = await db
    .insert(clients)
    .values({
      clubId,
      number,
      firstName: 'Client',
      lastName: String(number),
      personalId: validPersonalId(clubId * 100_000 + number),
      cardSerial: `CARD-${clubId}-${number}`,
      licenseExpiry: '2125-01-01',
      ...over,
    })
    .returning();
  return c;
}

/** Several clients of the club, one `makeClient` each, in order. */
export async function makeClients(ctx: FactoryContext, clubId: number, overs: Partial<NewClient>[]) {
  const out = [];
  for (const over of overs) out.push(await makeClient(ctx, clubId, over));
  return out;
}

const COLUMN_OF_KIND = {
  money: 'balance',
  temp: 'tempBalance',
  bonus: 'bonusEntries',
  subscription: 'subscriptionBalance',
} as const;

/**
 * Credits (or, with a negative delta, debits) a client's balance of `kind`
 * through a balance_ledger row, and moves the client's column by the same
 * delta, so the balance stays the sum of its ledger rows (DESIGN §7).
 * `delta` in agorot (money, temp) or entrances (bonus, subscription).
 */
export async function credit(
  ctx: FactoryContext,
  client: { id: number; clubId: number },
  delta: number,
  opts: { kind?: keyof typeof COLUMN_OF_KIND; source?: string; at?: Date } = {},
) {
  const kind = opts.kind ?? 'money';
  const column = clients[COLUMN_OF_KIND[kind]];
  const db = ctx.database.db;
  const [row] = await db
    .insert(balanceLedger)
    .values({ clubId: client.clubId, clientId: client.id, kind, delta, source: opts.source ?? 'test', at: opts.at })
    .returning();
  const set: Partial<Record<(typeof COLUMN_OF_KIND)[keyof typeof COLUMN_OF_KIND], SQL>> = {
    [COLUMN_OF_KIND[kind]]: sql`${column} + ${delta}`,
  };
  await db
    .update(clients)
    .set(set)
    .where(sql`${clients.id} = ${client.id}`);
  return row;
}

// scrypt is deliberately slow: one hash per secret for the whole test file.
const hashes = new Map<string, Promise<string>>();
const hashOf = (secret: string) => {
  if (!hashes.has(secret)) hashes.set(secret, hashPassword(secret));
  return hashes.get(secret)!;
};

/**
 * A terminal of the club. Defaults: serial `T-<club>-<n>`, named as its
 * serial, approved, with the secret `opts.secret` (default
 * `TERMINAL_SECRET`) hashed unless `secretHash` is given.
 */
export async function makeTerminal(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<NewTerminal> & { secret?: string } = {},
) {
  const { secret = TERMINAL_SECRET, ...rest } = over;
  const serial = rest.serial ?? `T-${clubId}-${next()}`;
  const [t] = await ctx.database.db
    .insert(terminals)
    .values({
      clubId,
      serial,
      name: serial,
      approved: true,
      secretHash: rest.secretHash ?? (await hashOf(secret)),
      ...rest,
    })
    .returning();
  return t;
}

/** The coins, bills and cash box of a cash terminal (terminal_cash); counts per denomination in agorot. */
export async function makeTerminalCash(
  ctx: FactoryContext,
  terminal: { id: number; clubId: number },
  over: Partial<typeof terminalCash.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(terminalCash)
    .values({ terminalId: terminal.id, clubId: terminal.clubId, ...over })
    .returning();
  return row;
}

/** A cash session at a terminal (seed 001 §4). Defaults: session id `cs-<n>`, state 'closed'. */
export async function makeCashSession(
  ctx: FactoryContext,
  terminal: { id: number; clubId: number },
  over: Partial<typeof cashSessions.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(cashSessions)
    .values({ clubId: terminal.clubId, terminalId: terminal.id, sessionId: `cs-${next()}`, state: 'closed', ...over })
    .returning();
  return row;
}

/** A product of the club (seed 001 §3 "Product"). Defaults: name `Product <n>`, price 1000 agorot with VAT. */
export async function makeProduct(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<typeof products.$inferInsert> = {},
) {
  const [p] = await ctx.database.db
    .insert(products)
    .values({ clubId, name: `Product ${next()}`, price: 1000, ...over })
    .returning();
  return p;
}

/**
 * An entrance log row (seed 000 §4 statuses). Defaults: now, Approved,
 * reason 0, identified by card, no money taken. `clubId` may be overridden
 * (rows of another club in one list).
 */
export async function makeEntrance(ctx: FactoryContext, clubId: number, over: Partial<NewEntrance> = {}) {
  return (await makeEntrances(ctx, clubId, [over]))[0];
}

/** Several entrance log rows in one statement, each as `makeEntrance`. */
export async function makeEntrances(ctx: FactoryContext, clubId: number, overs: Partial<NewEntrance>[]) {
  return ctx.database.db
    .insert(entranceLogs)
    .values(
      overs.map((over) => ({
        clubId,
        at: new Date(),
        status: EntranceStatus.Approved,
        reason: 0,
        identificationKind: 'card',
        ...over,
      })),
    )
    .returning();
}

/** One line of a purchase made by `makePurchase`; unitPrice in agorot with VAT. */
export interface PurchaseLine {
  itemType: number;
  itemId?: number | null;
  name?: string;
  quantity?: number;
  unitPrice: number;
  /** The line's amount before VAT in agorot; default its price less 18% (give the price itself for a line without VAT). */
  amountBeforeVat?: number;
  /** The line's price with VAT in agorot; default quantity × unitPrice (give it for a rounded unit price). */
  priceWithVat?: number;
  /** Until when the licenses of a license line (item type 6) are valid, 'YYYY-MM-DD'; default none. */
  expiry?: string | null;
}

/** 18% VAT (DOMAIN-FACTS), in basis points. */
const VAT_BP = 1800;
const beforeVat = (withVat: number) => Math.round(withVat / (1 + VAT_BP / 10_000));

/**
 * A purchase with its lines and payments (seed 001 §3 "Purchase"), written
 * directly, as the reports read them. The invoice number is taken from the
 * club's counter, as the purchase engine does; the total is the lines' sum,
 * split into amount before VAT and VAT at 18%. Defaults: now, paid
 * (paymentStatus 1; a Refunded one has `refunded` = its total), source 'console'. `payments` are [method, agorot] pairs.
 */
export async function makePurchase(
  ctx: FactoryContext,
  clubId: number,
  p: { lines: PurchaseLine[]; payments?: [number, number][] } & Partial<NewPurchase>,
) {
  const { lines, payments = [], ...over } = p;
  const db = ctx.database.db;
  const [counter] = await db
    .insert(invoiceCounters)
    .values({ clubId, last: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  const total = lines.reduce((s, l) => s + (l.quantity ?? 1) * l.unitPrice, 0);
  const [purchase] = await db
    .insert(purchases)
    .values({
      clubId,
      invoiceNumber: counter.last,
      total,
      amountBeforeVat: beforeVat(total),
      vat: total - beforeVat(total),
      vatRateBp: VAT_BP,
      paymentStatus: 1,
      source: 'console',
      idempotencyKey: `test-${randomBytes(6).toString('hex')}`,
      // A Refunded purchase gave all of its total back (purchases.refunded, docs/money.md "Refunds").
      refunded: over.paymentStatus === 3 ? (over.total ?? total) : 0,
      ...over,
    })
    .returning();
  const items = lines.length
    ? await db
        .insert(purchaseItems)
        .values(
          lines.map((l) => ({
            clubId,
            purchaseId: purchase.id,
            itemType: l.itemType,
            itemId: l.itemId ?? null,
            name: l.name ?? '',
            quantity: l.quantity ?? 1,
            unitPrice: l.unitPrice,
            priceWithVat: l.priceWithVat ?? (l.quantity ?? 1) * l.unitPrice,
            amountBeforeVat: l.amountBeforeVat ?? beforeVat(l.priceWithVat ?? (l.quantity ?? 1) * l.unitPrice),
            expiry: l.expiry ?? null,
          })),
        )
        .returning()
    : [];
  const pays = payments.length
    ? await db
        .insert(purchasePayments)
        .values(payments.map(([method, amount]) => ({ clubId, purchaseId: purchase.id, method, amount })))
        .returning()
    : [];
  return { purchase, items, payments: pays };
}

/** A debt of a client (seed 000 §7 "Debts"). Defaults: 1000 agorot, nothing paid, source 'manual'. */
export async function makeDebt(
  ctx: FactoryContext,
  client: { id: number; clubId: number },
  over: Partial<typeof debts.$inferInsert> = {},
) {
  const [d] = await ctx.database.db
    .insert(debts)
    .values({ clubId: client.clubId, clientId: client.id, amount: 1000, ...over })
    .returning();
  return d;
}

/**
 * A saved card of a client (payment_methods kind 'card'). Defaults: a token
 * `tok-<n>`, last four 4242, Visa, expiry 12/35. Override `kind` and the bank
 * fields for a MASAV authorization.
 */
export async function makePaymentMethod(
  ctx: FactoryContext,
  client: { id: number; clubId: number },
  over: Partial<typeof paymentMethods.$inferInsert> = {},
) {
  const [m] = await ctx.database.db
    .insert(paymentMethods)
    .values({
      clubId: client.clubId,
      clientId: client.id,
      kind: 'card',
      cardToken: `tok-${next()}`,
      cardLastFour: '4242',
      cardBrand: 'visa',
      cardExpiry: '12/35',
      ...over,
    })
    .returning();
  return m;
}

/**
 * A biometric template row of a client. Defaults: a fingerprint with a
 * placeholder (not decryptable) template and a unique MAC; enough for
 * "has a fingerprint", not for identification at a gate (enrol through the
 * terminal protocol for that).
 */
export async function makeBiometricTemplate(
  ctx: FactoryContext,
  client: { id: number; clubId: number },
  over: Partial<typeof biometricTemplates.$inferInsert> = {},
) {
  const [b] = await ctx.database.db
    .insert(biometricTemplates)
    .values({
      clubId: client.clubId,
      clientId: client.id,
      kind: 'fingerprint',
      templateEnc: 'x',
      templateMac: `mac-${client.id}-${next()}`,
      ...over,
    })
    .returning();
  return b;
}

/**
 * A request to load licenses (seed 001 §3), as the console's upload writes it.
 * Defaults: 10 licenses at 3000 agorot (amount 30000), transferred
 * 2026-01-01, reference `ref-<n>`, bank 12, a placeholder encrypted bank
 * field and a tiny PDF; status pending (1).
 */
export async function makeLicenseRequest(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<typeof licenseRequests.$inferInsert> = {},
) {
  const quantity = over.quantity ?? 10;
  const price = over.price ?? 3000;
  const [r] = await ctx.database.db
    .insert(licenseRequests)
    .values({
      clubId,
      quantity,
      price,
      amount: quantity * price,
      transferDate: '2026-01-01',
      reference: `ref-${next()}`,
      bankCode: '12',
      bankEnc: 'v1.x.y.z',
      fileName: 'r.pdf',
      fileType: 'pdf',
      file: Buffer.from('%PDF-'),
      ...over,
    })
    .returning();
  return r;
}

/** Records the operator's decision on a license request, as of `at` (docs/operator.md "Licenses"). */
export async function setLicenseRequestDecision(ctx: FactoryContext, requestId: number, operatorId: number, at: Date) {
  await ctx.database.db
    .update(licenseRequests)
    .set({ decidedBy: operatorId, decidedAt: at })
    .where(eq(licenseRequests.id, requestId));
}

/**
 * A gate for terminal tests: a group open to everyone (FreeOpen), one member
 * (number 1) with a card and a subscription valid until 2125, and an approved
 * terminal with a known serial and secret.
 */
export async function makeOpenGate(
  ctx: FactoryContext,
  clubId: number,
  opts: { card: string; serial: string; secret: string },
) {
  const group = await makeGroup(ctx, clubId, { name: 'Open', entranceState: EntranceState.FreeOpen });
  const member = await makeClient(ctx, clubId, {
    number: 1,
    firstName: 'Gate',
    lastName: 'Member',
    personalId: '',
    groupId: group.id,
    cardSerial: opts.card,
    ...SUBSCRIBED,
  });
  const terminal = await makeTerminal(ctx, clubId, { serial: opts.serial, name: 'Gate', secret: opts.secret });
  return { group, member, terminal };
}

/**
 * A quick exit (seed 001 §3 "Quick exit") of a client through a terminal.
 * The caller names the client, the terminal and the entrance id (the
 * entrance need not exist: the reports read the row alone). Defaults:
 * outcome BySubscription, entered now, a stay of 10 minutes (exitAt =
 * entranceAt + durationMinutes unless given), no reward (agorot).
 */
export async function makeQuickExit(
  ctx: FactoryContext,
  clubId: number,
  over: Pick<typeof quickExits.$inferInsert, 'clientId' | 'terminalId' | 'entranceId'> &
    Partial<typeof quickExits.$inferInsert>,
) {
  const entranceAt = over.entranceAt ?? new Date();
  const durationMinutes = over.durationMinutes ?? 10;
  const [q] = await ctx.database.db
    .insert(quickExits)
    .values({
      clubId,
      type: QuickExitOutcome.BySubscription,
      entranceAt,
      exitAt: new Date(entranceAt.getTime() + durationMinutes * 60_000),
      durationMinutes,
      rewardAmount: 0,
      ...over,
    })
    .returning();
  return q;
}

/**
 * Audit log rows (the managers' activity), one statement. Each row names at
 * least its action and entity; `clubId` defaults to the given club, `at` to
 * now.
 */
export async function makeAuditEntries(
  ctx: FactoryContext,
  clubId: number,
  overs: (Pick<typeof auditLog.$inferInsert, 'action' | 'entity'> & Partial<typeof auditLog.$inferInsert>)[],
) {
  return ctx.database.db
    .insert(auditLog)
    .values(overs.map((over) => ({ clubId, ...over })))
    .returning();
}

/**
 * A reset of a terminal's cash box (seed 001 §4), as the console's "empty the
 * box" writes it. Defaults: now, an empty box (total 0 agorot) and no excess;
 * `cashBox` counts pieces per denomination in agorot.
 */
export async function makeCashReset(
  ctx: FactoryContext,
  terminal: { id: number; clubId: number },
  over: Partial<typeof cashResets.$inferInsert> = {},
) {
  const [r] = await ctx.database.db
    .insert(cashResets)
    .values({
      clubId: terminal.clubId,
      terminalId: terminal.id,
      cashBox: {},
      cashBoxTotal: 0,
      excessAmount: 0,
      excessCount: 0,
      ...over,
    })
    .returning();
  return r;
}

/** An attempt of the automatic subscription renewal for a client. Defaults: now, successful, 0 agorot. */
export async function makeAutoRenewLog(
  ctx: FactoryContext,
  client: { id: number; clubId: number },
  over: Partial<typeof autoRenewLogs.$inferInsert> = {},
) {
  const [r] = await ctx.database.db
    .insert(autoRenewLogs)
    .values({ clubId: client.clubId, clientId: client.id, success: true, ...over })
    .returning();
  return r;
}

/**
 * A card charge with the payment provider (charges). Defaults: no client,
 * 1000 agorot, provider 'test', status 'approved', idempotency key
 * `charge-<n>`, created now.
 */
export async function makeCharge(ctx: FactoryContext, clubId: number, over: Partial<typeof charges.$inferInsert> = {}) {
  const [c] = await ctx.database.db
    .insert(charges)
    .values({ clubId, idempotencyKey: `charge-${next()}`, provider: 'test', amount: 1000, status: 'approved', ...over })
    .returning();
  return c;
}

/**
 * An order for licenses paid by card (license_orders). Defaults: code
 * `order-<n>`, 10 licenses for 30000 agorot, status 'open', created now.
 */
export async function makeLicenseOrder(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<typeof licenseOrders.$inferInsert> = {},
) {
  const [o] = await ctx.database.db
    .insert(licenseOrders)
    .values({ clubId, code: `order-${next()}`, quantity: 10, amount: 30_000, ...over })
    .returning();
  return o;
}

/**
 * A feedback category of the club (seed 001 §3). Defaults: name `Category <n>`,
 * type Maintenance, reporting system category 10, default severity 2, no location.
 */
export async function makeFeedbackCategory(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<typeof feedbackCategories.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(feedbackCategories)
    .values({
      clubId,
      name: `Category ${next()}`,
      type: 'Maintenance',
      reportingSystemCategoryId: 10,
      defaultSeverityId: 2,
      ...over,
    })
    .returning();
  return row;
}

/**
 * A global message of the operator (seed 000 §3). Defaults: title `Message <n>`,
 * kind Basic, to every club, published a minute ago, no expiry.
 */
export async function makeGlobalMessage(ctx: FactoryContext, over: Partial<typeof globalMessages.$inferInsert> = {}) {
  const n = next();
  const [row] = await ctx.database.db
    .insert(globalMessages)
    .values({ title: `Message ${n}`, body: `<p>Body ${n}</p>`, publishAt: new Date(Date.now() - 60_000), ...over })
    .returning();
  return row;
}

type NewEmployeePosition = typeof employeePositions.$inferInsert;

/** An employee position of the club (seed 001 §3). Defaults: name `Position <n>`, no description, rate 0 agorot. */
export async function makeEmployeePosition(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<NewEmployeePosition> = {},
) {
  const [p] = await ctx.database.db
    .insert(employeePositions)
    .values({ clubId, name: `Position ${next()}`, ...over })
    .returning();
  return p;
}

type NewAttendanceLog = typeof attendanceLogs.$inferInsert;

/**
 * An employee of the club: a client of type Manager (2) unless `clientType`
 * says Technician (3) (docs/attendance.md "Who is an employee").
 */
export async function makeEmployee(ctx: FactoryContext, clubId: number, over: Partial<NewClient> = {}) {
  return makeClient(ctx, clubId, { clientType: 2, ...over });
}

/** An attendance record of an employee; defaults: no times, no terminals, written at a terminal. */
export async function makeAttendanceLog(
  ctx: FactoryContext,
  employee: { id: number; clubId: number },
  over: Partial<NewAttendanceLog> = {},
) {
  const [row] = await ctx.database.db
    .insert(attendanceLogs)
    .values({
      clubId: employee.clubId,
      clientId: employee.id,
      entrySource: over.entryAt ? 'terminal' : null,
      exitSource: over.exitAt ? 'terminal' : null,
      ...over,
    })
    .returning();
  return row;
}

/** A published terminal software version (docs/operator.md); a unique label unless given. */
export async function makeScriptVersion(ctx: FactoryContext, over: Partial<typeof scriptVersions.$inferInsert> = {}) {
  const n = next();
  const [row] = await ctx.database.db
    .insert(scriptVersions)
    .values({ version: `1.${n}.0`, notes: `Notes ${n}`, fileUrl: `https://updates.example.com/${n}.zip`, ...over })
    .returning();
  return row;
}

/** A license load by the operator (docs/operator.md): 10 licenses, reason "test" unless given. */
export async function makeLicenseLoad(
  ctx: FactoryContext,
  clubId: number,
  over: Partial<typeof licenseLoads.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(licenseLoads)
    .values({ clubId, quantity: 10, reason: 'test', ...over })
    .returning();
  return row;
}

/**
 * The club's stored card (docs/operator.md "Charging clubs"): a sandbox card
 * tokenized by the clearing provider (default the approving test card) and
 * saved as the club's card, as a license order paid by card saves it.
 */
export async function makeClubCard(ctx: FactoryContext, clubId: number, number = '4242424242424242') {
  const t = await clearingProvider().tokenize({ number, expiry: '12/39', cvv: '123' });
  if (!t.ok) throw new Error(`sandbox card refused: ${t.reason}`);
  await saveClubCard(ctx.database.db, clubId, t);
  return t;
}
