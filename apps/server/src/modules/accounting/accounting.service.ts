import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import { HashavshevetDetails, localToInstant, parseIsoDate, PaymentMethod, type SumitSettings } from '@venue/domain';
import type { z } from 'zod';
import type { Database, Db } from '../../db/index.js';
import {
  clients,
  clubMoneySettings,
  masavResults,
  purchaseDocuments,
  purchasePayments,
  purchaseRefunds,
  purchases,
} from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { dataKeys, encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';
import { buildMovein, type MoveinMovement } from '../../integrations/accounting/movein.js';
import { clubLocation, clubToday, getClubRow } from '../club/club.service.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { runClubMoneyJobs } from '../subscriptions/subscriptions.service.js';

/**
 * Accounting export and invoicing settings (seed 000 §7 "Club"
 * UpdateHasavshevetDetails, UpdateClubSumitSettings, StartChargeClub;
 * "Reports" WriteMoveinDat). docs/money.md "Accounting export".
 */

async function moneyRow(db: Db, clubId: number) {
  const [r] = await scoped(db, clubId).list(clubMoneySettings);
  return r ?? null;
}

/** The {id} of the club routes must be the signed-in club (another club's id answers 404). */
export function ownClub(actor: Actor, id: number): void {
  if (id !== actor.clubId) throw notFound('club');
}

/**
 * The club's Hashavshevet accounts, or null when never saved. The row of
 * money settings also holds MASAV and SUMIT settings, and a row created by
 * saving one of those holds `{}` here: that is "never saved", not a value.
 */
export async function getHashavshevet(db: Db, clubId: number) {
  const r = await moneyRow(db, clubId);
  const parsed = HashavshevetDetails.safeParse(r?.hashavshevet);
  return parsed.success ? parsed.data : null;
}

export async function updateHashavshevet(db: Db, actor: Actor, id: number, body: z.infer<typeof HashavshevetDetails>) {
  ownClub(actor, id);
  const before = await getHashavshevet(db, id);
  await db
    .insert(clubMoneySettings)
    .values({ clubId: id, hashavshevet: body })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { hashavshevet: body } });
  await audit(db, actor, { action: 'update', entity: 'hashavshevet', entityId: id, before, after: body });
  return body;
}

/** SUMIT account: the API key is kept encrypted and never answered. */
export async function updateSumit(db: Db, actor: Actor, id: number, body: z.infer<typeof SumitSettings>) {
  ownClub(actor, id);
  const cur = ((await moneyRow(db, id))?.sumit ?? {}) as {
    companyId?: string;
    apiKeyEnc?: string;
    sendInvoices?: boolean;
  };
  const next = {
    companyId: body.companyId,
    sendInvoices: body.sendInvoices,
    apiKeyEnc: body.apiKey ? encrypt(await dataKeys(db), body.apiKey, `club:${id}:sumit`) : cur.apiKeyEnc,
  };
  await db
    .insert(clubMoneySettings)
    .values({ clubId: id, sumit: next })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { sumit: next } });
  const view = { companyId: next.companyId, sendInvoices: next.sendInvoices, apiKeySet: !!next.apiKeyEnc };
  await audit(db, actor, {
    action: 'update',
    entity: 'sumit',
    entityId: id,
    before: { companyId: cur.companyId, apiKeySet: !!cur.apiKeyEnc },
    after: view,
  });
  return view;
}

/** The account a payment method's money goes to, or null when the method brings no money (balances, Free). */
function methodAccount(s: Hashavshevet, method: number): { account: string; label: string } | null {
  if (method === PaymentMethod.Cash) return { account: s.cashAccount, label: 'מזומן' };
  if (
    method === PaymentMethod.CreditCard ||
    method === PaymentMethod.CreditCardToken ||
    method === PaymentMethod.CreditCardEmv
  )
    return { account: s.creditAccount, label: 'אשראי' };
  if (method === PaymentMethod.Masav) {
    if (!s.masavAccount) throw validationError([{ path: 'masavAccount', message: 'masavAccountRequired' }]);
    return { account: s.masavAccount, label: 'מס"ב' };
  }
  return null;
}

type Hashavshevet = z.infer<typeof HashavshevetDetails>;

/** Splits `vat` over the amounts in proportion (largest remainder to the last), agorot. */
function splitVatOver(vat: number, amounts: number[]): number[] {
  const total = amounts.reduce((a, b) => a + b, 0);
  let left = vat;
  return amounts.map((a, i) => {
    if (i === amounts.length - 1) return left;
    const share = total > 0 ? Math.floor((vat * a) / total) : 0;
    left -= share;
    return share;
  });
}

/** The club's local-day bounds [start, end) of the inclusive period from…to. */
function periodBounds(tz: string, from: string, to: string) {
  const start = localToInstant(parseIsoDate(from), 0, tz);
  const endDay = new Date(`${to}T00:00:00Z`);
  endDay.setUTCDate(endDay.getUTCDate() + 1);
  return { start, end: localToInstant(parseIsoDate(endDay.toISOString().slice(0, 10)), 0, tz) };
}

/**
 * The movements of one purchase (docs/money.md "Accounting export"): one
 * compound movement per payment method that brought money — debit the
 * method's account (cash, card, or the MASAV account while uncollected) with
 * the money, credit income with its net and VAT with its share of the
 * purchase's VAT. Refunds are their own movements (`refundMovements`).
 * Balance, temporary-balance and Free payments bring no money (VAT on loaded
 * money was booked at the load).
 */
function purchaseMovements(
  s: Hashavshevet,
  p: typeof purchases.$inferSelect,
  pays: { method: number; amount: number }[],
  clientNumber: number | null,
  date: string,
): MoveinMovement[] {
  const byMethod = new Map<number, number>();
  for (const x of pays)
    if (methodAccount(s, x.method)) byMethod.set(x.method, (byMethod.get(x.method) ?? 0) + x.amount);
  const methods = [...byMethod.entries()].filter(([, a]) => a > 0).sort(([a], [b]) => a - b);
  const vats = splitVatOver(
    p.vat,
    methods.map(([, a]) => a),
  );
  const moves: MoveinMovement[] = [];
  methods.forEach(([method, amount], i) => {
    const { account, label } = methodAccount(s, method)!;
    const vat = Math.min(vats[i], amount);
    const credit = [{ account: s.incomeAccount, amount: amount - vat }];
    if (vat > 0) credit.push({ account: s.vatAccount, amount: vat });
    const base = { reference: p.invoiceNumber ?? 0, reference2: clientNumber, date, valueDate: date };
    moves.push({ ...base, details: `קבלה ${p.invoiceNumber} ${label}`, debit: [{ account, amount }], credit });
  });
  return moves;
}

/**
 * The movements of one refund, whole or partial (docs/money.md "Refunds"), on the refund's day: per
 * payment method that gave money back, the sale's movement reversed for the refunded amount —
 * debit income with its net and VAT with its share of the refund's VAT (split in proportion to the
 * money, the remainder to the last method), credit the method's account. Reference 1 is the
 * purchase's invoice number; the details name the credit document.
 */
function refundMovements(
  s: Hashavshevet,
  r: typeof purchaseRefunds.$inferSelect,
  invoice: number | null,
  creditNumber: number | null,
  clientNumber: number | null,
  date: string,
): MoveinMovement[] {
  const byMethod = new Map<number, number>();
  for (const x of r.payments)
    if (methodAccount(s, x.method)) byMethod.set(x.method, (byMethod.get(x.method) ?? 0) + x.amount);
  const methods = [...byMethod.entries()].filter(([, a]) => a > 0).sort(([a], [b]) => a - b);
  const vats = splitVatOver(
    r.vat,
    methods.map(([, a]) => a),
  );
  return methods.map(([method, amount], i) => {
    // The money of a collected MASAV sale is handed back by the cashier (docs/money.md "Refunds"): it
    // leaves the cash box; the MASAV account was cleared by the collection.
    const { account, label } = methodAccount(s, method === PaymentMethod.Masav ? PaymentMethod.Cash : method)!;
    const vat = Math.min(vats[i], amount);
    const debit = [{ account: s.incomeAccount, amount: amount - vat }];
    if (vat > 0) debit.push({ account: s.vatAccount, amount: vat });
    return {
      reference: invoice ?? 0,
      reference2: clientNumber,
      date,
      valueDate: date,
      details: `זיכוי ${creditNumber ?? ''} ${invoice ?? ''} ${label}`.replace(/ +/g, ' '),
      debit,
      credit: [{ account, amount }],
    };
  });
}

/** The refunds made in [start, end), by time, with their purchase's invoice and credit document's number. */
async function refundsOfPeriod(
  db: Db,
  clubId: number,
  s: Hashavshevet,
  location: Parameters<typeof clubToday>[0],
  start: Date,
  end: Date,
): Promise<MoveinMovement[]> {
  const rows = await db
    .select({
      r: purchaseRefunds,
      invoice: purchases.invoiceNumber,
      number: clients.number,
      credit: purchaseDocuments.number,
    })
    .from(purchaseRefunds)
    .innerJoin(purchases, and(eq(purchases.clubId, clubId), eq(purchases.id, purchaseRefunds.purchaseId)))
    .leftJoin(clients, eq(clients.id, purchases.clientId))
    .leftJoin(
      purchaseDocuments,
      and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.id, purchaseRefunds.documentId)),
    )
    .where(scoped(db, clubId).where(purchaseRefunds, gte(purchaseRefunds.at, start), lt(purchaseRefunds.at, end)))
    .orderBy(asc(purchaseRefunds.at), asc(purchaseRefunds.id));
  return rows.flatMap(({ r, invoice, number, credit }) =>
    refundMovements(s, r, invoice, credit, number, clubToday(location, r.at)),
  );
}

/** The payment lines of the purchases `ids` (agorot), by purchase. */
async function paymentsOf(db: Db, clubId: number, ids: number[]) {
  const pays = new Map<number, { method: number; amount: number }[]>();
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    const ps = await db
      .select({
        purchaseId: purchasePayments.purchaseId,
        method: purchasePayments.method,
        amount: purchasePayments.amount,
      })
      .from(purchasePayments)
      .where(scoped(db, clubId).where(purchasePayments, inArray(purchasePayments.purchaseId, chunk)));
    for (const x of ps) pays.set(x.purchaseId, [...(pays.get(x.purchaseId) ?? []), x]);
  }
  return pays;
}

/**
 * MOVEIN.DAT for [from, to] (club-local dates, inclusive), in the published
 * layout (integrations/accounting/movein.ts): the documents of the period —
 * the purchases paid at the sale, by invoice number (`purchaseMovements`),
 * then the refunds made in the period (`refundMovements`, each on its own
 * day), then the MASAV sales collected in the period (read from the bank's
 * return files): each sale's movement on the day of its collection, with the
 * number its document took then, and the collection itself (debit the bank,
 * credit the MASAV account), by date. A MASAV sale not collected has no
 * document and is not written; one the bank rejected and that was paid at
 * the desk (Cancelled) never is — the desk's document took the money
 * (docs/money.md "MASAV: rejected, then paid another way"). Reference 1 is
 * the invoice number, reference 2 the client number.
 * @throws VALIDATION_ERROR hashavshevetDetailsRequired, dateRangeOrder,
 *   masavAccountRequired, bankAccountRequired; NO_DATA_TO_EXPORT (422) when the
 *   period has no movement (seed 001 §8 "No data to export").
 */
export async function writeMovein(db: Db, clubId: number, from: string, to: string): Promise<Buffer> {
  const s = await getHashavshevet(db, clubId);
  if (!s) throw validationError([{ path: 'hashavshevet', message: 'hashavshevetDetailsRequired' }]);
  if (from > to) throw validationError([{ path: 'to', message: 'dateRangeOrder' }]);
  const club = await getClubRow(db, clubId);
  const { start, end } = periodBounds(clubLocation(club).timeZone, from, to);
  const rows = await db
    .select({ p: purchases, number: clients.number })
    .from(purchases)
    .leftJoin(clients, eq(clients.id, purchases.clientId))
    .where(scoped(db, clubId).where(purchases, gte(purchases.at, start), lt(purchases.at, end)))
    .orderBy(asc(purchases.invoiceNumber));
  const pays = await paymentsOf(
    db,
    clubId,
    rows.map((r) => r.p.id),
  );
  const moves: MoveinMovement[] = [];
  for (const { p, number } of rows) {
    const ps = pays.get(p.id) ?? [];
    // Written when its document is issued: at the bank's collection (masavCollections), or never.
    if (p.invoiceNumber == null || ps.some((x) => x.method === PaymentMethod.Masav)) continue;
    moves.push(...purchaseMovements(s, p, ps, number, clubToday(club.location, p.at)));
  }
  moves.push(...(await refundsOfPeriod(db, clubId, s, club.location, start, end)));
  moves.push(...(await masavCollections(db, clubId, s, club.location, start, end)));
  if (!moves.length) throw new AppError('NO_DATA_TO_EXPORT', 'No data to export');
  return buildMovein(s, moves);
}

/**
 * The MASAV sales collected in [start, end), on the day the return file was read: the sale's
 * movement (MASAV account ← income and VAT, with the number its document took at the collection),
 * then the collection (bank ← MASAV account), so the MASAV account clears the same day.
 */
async function masavCollections(
  db: Db,
  clubId: number,
  s: Hashavshevet,
  location: Parameters<typeof clubToday>[0],
  start: Date,
  end: Date,
): Promise<MoveinMovement[]> {
  const rows = await db
    .select({ r: masavResults, p: purchases, number: clients.number })
    .from(masavResults)
    .innerJoin(purchases, and(eq(purchases.id, masavResults.purchaseId), eq(purchases.clubId, clubId)))
    .leftJoin(clients, eq(clients.id, masavResults.clientId))
    .where(
      scoped(db, clubId).where(
        masavResults,
        eq(masavResults.collected, true),
        gte(masavResults.at, start),
        lt(masavResults.at, end),
      ),
    )
    .orderBy(asc(masavResults.at), asc(masavResults.id));
  if (rows.length && (!s.bankAccount || !s.masavAccount))
    throw validationError([
      {
        path: s.bankAccount ? 'masavAccount' : 'bankAccount',
        message: `${s.bankAccount ? 'masavAccount' : 'bankAccount'}Required`,
      },
    ]);
  const pays = await paymentsOf(
    db,
    clubId,
    rows.map((x) => x.p.id),
  );
  return rows.flatMap(({ r, p, number }) => {
    const date = clubToday(location, r.at);
    const invoice = p.invoiceNumber ?? r.receiptNumber ?? 0;
    return [
      ...purchaseMovements(s, p, pays.get(p.id) ?? [], number, date),
      {
        reference: invoice,
        reference2: number,
        date,
        valueDate: date,
        details: `גביית מס"ב ${invoice}`,
        debit: [{ account: s.bankAccount, amount: r.amount }],
        credit: [{ account: s.masavAccount, amount: r.amount }],
      },
    ];
  });
}

/**
 * StartChargeClub (seed 000 §7 "Club"): the automatic renewal run now
 * (`concurrency` clients at once), then the reconciliation of uncertain card
 * charges; audited as `run chargeClub` with both results.
 */
export async function chargeClub(database: Pick<Database, 'db' | 'kind'>, provider: ClearingProvider, actor: Actor) {
  const { renewal, saferPayments } = await runClubMoneyJobs(database, provider, actor.clubId, {
    userId: actor.userId,
    reconcile: true,
  });
  await audit(database.db, actor, {
    action: 'run',
    entity: 'chargeClub',
    entityId: actor.clubId,
    after: { renewal, saferPayments },
  });
  return { renewal, saferPayments };
}
